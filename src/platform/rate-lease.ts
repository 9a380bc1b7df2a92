/** What the RateLimiter object's `take` answers: the decision for the request, and the extra units leased. */
export interface LeaseDecision {
  allowed: boolean;
  retryAfterMs: number;
  /** Units charged on top of the request's cost, for the caller to spend locally (0 when refused). */
  leased: number;
  /** A front grant, when asked for and the object gives one (see FRONT). */
  grant?: FrontGrant;
}

/**
 * The anonymous front. An anonymous bucket under 20 a minute gets no lease (the public verify's 10 a minute per
 * address), and a new address has nothing leased anyway, so without a front every public call waits on its shard.
 * The shard instead grants an isolate a front grant: `units` admissions, each of a different bucket of that shard,
 * spent within `ttlMs`, never for a bucket the shard listed as full (`full`, with how long) when it issued the grant.
 * The isolate admits such a bucket's request on its own; the admitted buckets are charged by one `settle` call when
 * the grant is used up or its time is up (in the request's waitUntil, off the answer's path), or with the bucket's
 * next `take` from this isolate (its `admitted`). Every refusal is the object's: the isolate refuses only what the
 * object answered (a Retry-After it gave), and a bucket the grant cannot admit goes to the object.
 *
 * The bound, per bucket (an address), whatever the isolates remember, however many there are, and whatever fails:
 * - A grant admits a bucket at most once and only while the object is not known to list it as full; an object has at
 *   most `grantsPerObject` grants out (a grant is out until settled; one that lapses unsettled, at ttl + settleGraceMs,
 *   keeps its slot `lostGrantPauseMs` more). The grant's settle waits for the takes carrying its units (`admitted`),
 *   and the object closes a grant only in the write that charges its units, so a grant is never closed while a unit
 *   it admitted is uncharged and on its way. So at any
 *   time at most `grantsPerObject` admitted units of a bucket are unknown to its object, and an address is admitted
 *   at most its limit plus `grantsPerObject` in a burst; every settled unit is charged whatever the level, so an
 *   excess is repaid by refusing longer and the rate over time is the limit.
 * - One isolate alone is exact once its settles have landed: its unsettled unit of a bucket rides with that bucket's
 *   next `take`; a unit whose settle is still on its way is charged when it lands (the bucket may then be one over,
 *   within the bound above).
 * - The isolate forgets nothing the bound needs: per shard it holds one grant (at most `units` bucket names and the
 *   object's full list, at most `fullMax` names); the refusal cache may forget (then the object is asked).
 * - A settle is sent once, never again: a settle that fails or never arrives (the isolate gone, a grant's answer lost
 *   with a cancelled request) leaves at most one unit per bucket uncharged, and that grant's slot stays taken for
 *   `lostGrantPauseMs` from its lapse (the other slots keep granting): each slot loses at most one grant per
 *   ttl + grace + pause (80 s), so at most `grantsPerObject` such units per bucket a minute. No request waits on a
 *   settle, nor on another request's call for a front bucket (it has no lease to share: the object decides it).
 * - A shard that fails: `take` fails closed as before (503), and the isolate retires the shard's grant at once (no
 *   admission on it after a failed take); no grant is given; the front stops with its grants.
 * - An object that restarts (evicted when idle) keeps its full list and its grants out (both stored). Its full list
 *   holds at most `fullMax` names: past that (a flood of addresses over their limit) the names are dropped and grants
 *   stop until the latest of them drains (one time kept), so memory and each grant's walk stay bounded.
 * - An isolate asks a shard for one grant at a time; an ask whose request was cancelled is ignored after WAIT_MAX_MS.
 */
export const FRONT = {
  grantsPerObject: 4,
  grantUnits: 64,
  grantTtlMs: 10_000,
  settleGraceMs: 10_000,
  lostGrantPauseMs: 60_000,
  fullMax: 512,
  /** The isolate stops spending a grant this long before its ttl, counted from when it asked (before the object gave it). */
  marginMs: 100,
} as const;

/** A front grant as the object gives it: `full` lists buckets (name, in how many ms one unit fits) not to admit. */
export interface FrontGrant {
  id: string;
  ttlMs: number;
  units: number;
  full: { name: string; inMs: number }[];
}

/** Whether bucket `name` at `perMinute` is served by the anonymous front (anonymous, too small for a lease). */
export function frontServes(name: string, perMinute: number): boolean {
  return leaseSize(perMinute) === 0 && !isKeyed(name);
}

function isKeyed(name: string): boolean {
  return name.startsWith("api_key:") || name.includes("_tenant:");
}

/** Runs `promise` past the answer (the request's waitUntil), or lets it float where there is none. */
export type Defer = (promise: Promise<unknown>) => void;

/**
 * An isolate-local lease in front of the RateLimiter Durable Object, for every per-minute limit (per API key, per
 * tenant, per network address). When the object allows a request it also charges a few more units, if they fit,
 * and hands them to this isolate, which spends them on its next requests for the same bucket without a call.
 *
 * - Never over-granted: leased units are charged in the object before they are spent, so the object never grants
 *   more than the bucket allows. The bucket drains while a lease is held, so across isolates a window may admit up
 *   to one lease (≤ LEASE_MAX, a 20th of the limit) more per other isolate holding one: the stated slack. One
 *   isolate alone is refused exactly when the object alone would refuse it.
 * - Bounded slack: an isolate holds at most LEASE_MAX units (a 20th of the limit, none under 20 a minute) for at
 *   most LEASE_TTL_MS; meanwhile another isolate may be refused those units early, and afterwards they are given
 *   back at this isolate's next call for the bucket (or drain within the minute like any charge).
 * - A refusal is remembered until its Retry-After, so a caller over its limit is answered without a call either.
 * - Bucket names are spread over a fixed set of objects (KEY_SHARDS for keys and tenants, ANON_SHARDS for network
 *   addresses), so a new caller (a new address) does not create an object of its own.
 */
const LEASE_TTL_MS = 2_000;
const LEASE_MAX = 16;
const LEASE_SHARE = 20;
/** At most this many buckets are remembered per isolate (least recently used go first, their units drain). */
const LEASE_MEMORY = 1_000;
/**
 * An object serves roughly 1,000 calls a second, so a set's shard count is the service-wide ceiling on its limiter
 * calls (leases cut a busy key's calls by up to LEASE_MAX); 256 keeps that far above any one deployment's keyed
 * traffic. Changing a count moves that set's buckets (their counts restart once).
 */
export const KEY_SHARDS = 256;
/**
 * Anonymous buckets are per address and get no lease under 20 a minute, so every public call of a new address is a
 * call to its shard: the fewer the shards, the more of those calls find their object already running. A cold object
 * (started, its storage opened) cost about 2 ms of workerd CPU per call in bench/verify.mjs with 256 shards, where
 * each shard saw a call every few seconds; 32 kept them warm (−1.5 to −2 ms a public verify). 32 objects still
 * carry some 30,000 anonymous calls a second, far above what the public variant serves (each costs milliseconds of
 * Worker CPU), and a flood from many addresses still reaches only these, never a key's or tenant's limiter.
 */
export const ANON_SHARDS = 32;

/** What the lease needs of the RATE_LIMITER namespace. */
export interface LeasingNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): {
    take(
      name: string,
      limit: number,
      periodSeconds: number,
      cost: number,
      want: number,
      giveBack?: number,
      admitted?: number,
      wantGrant?: boolean,
    ): Promise<LeaseDecision>;
    giveBack(name: string, limit: number, periodSeconds: number, cost: number): Promise<void>;
    /** Absent: no front grants through this namespace. */
    settle?(grantId: string, charges: [name: string, limit: number][], periodSeconds: number): Promise<void>;
  };
}

interface Lease {
  perMinute: number;
  units: number;
  until: number;
  /** A refusal for `refusedCost` holds until then (epoch ms), unless a refund comes first. */
  refusedUntil: number;
  refusedCost: number;
}

const leases = new Map<string, Lease>();
/**
 * Buckets with a call in flight: this isolate asks the object one request at a time, the others wait for its units.
 * A waiter polls on a timer of its own (Workers refuse a promise shared, or resolved, across requests) until the
 * call ends, for at most WAIT_MAX_MS.
 */
const inflight = new Map<string, number>(); // bucket → when its call started (a call older than WAIT_MAX_MS is ignored)
/**
 * Shards with a front grant asked for (one at a time per shard and isolate) → when it was asked. As with `inflight`,
 * an ask older than WAIT_MAX_MS is ignored: a request cancelled mid-call never reaches `finally`.
 */
const asking = new Map<string, number>();
const POLL_MS = 2;
/** A waiter stops waiting after this long (the call's own request may have been cancelled) and asks itself. */
const WAIT_MAX_MS = 1_000;

/** Units to lease beyond a request's cost at `perMinute`. */
export function leaseSize(perMinute: number): number {
  return Math.min(LEASE_MAX, Math.floor(perMinute / LEASE_SHARE));
}

/**
 * The object that holds bucket `name` (FNV-1a of the name over the shards: stable, uniform enough). Buckets of
 * authenticated callers (a key's, a tenant's) and anonymous ones live in separate sets of objects, so a flood of
 * anonymous callers can overload only anonymous shards, never a paying tenant's limiter.
 */
export function shardOf(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return isKeyed(name) ? `rate-shard:key:${(h >>> 0) % KEY_SHARDS}` : `rate-shard:anon:${(h >>> 0) % ANON_SHARDS}`;
}

function stubOf(namespace: LeasingNamespace, name: string) {
  return shardStub(namespace, shardOf(name));
}

function shardStub(namespace: LeasingNamespace, shard: string) {
  return namespace.get(namespace.idFromName(shard));
}

/** A front grant this isolate holds for one shard. */
interface HeldGrant {
  id: string;
  /** Not spent from then on (epoch ms, this isolate's clock). */
  expiresAt: number;
  left: number;
  /** Buckets not to admit, until when (the object's full list, and refusals it answered since). */
  full: Map<string, number>;
  /** Buckets this grant admitted (each at most once). */
  used: Set<string>;
  /** Admitted buckets not yet charged in the object, with their limit. */
  unsettled: Map<string, number>;
  /**
   * Takes on the wire carrying a unit this grant admitted (`admitted`): the grant's settle waits for them, so the
   * object counts the grant out until each such unit is charged (a settle overtaking one would free the slot first).
   */
  riding: Set<Promise<unknown>>;
  /** Its settle's charges are taken (a unit handed back later is settled on its own). */
  charged: boolean;
}
/** Shard → the grant held for it (at most one: a new grant retires the old one). */
const grantsHeld = new Map<string, HeldGrant>();

/** The shard's grant if it may admit `name` now (spending it is then the caller's), retiring a grant whose time is up. */
function usableGrant(namespace: LeasingNamespace, name: string, now: number, defer?: Defer): HeldGrant | null {
  const shard = shardOf(name);
  const grant = grantsHeld.get(shard);
  if (!grant) return null;
  if (grant.expiresAt <= now) {
    retire(namespace, shard, grant, defer);
    return null;
  }
  if (grant.left <= 0 || grant.used.has(name) || (grant.full.get(name) ?? 0) > now) return null;
  return grant;
}

/**
 * Stops spending `grant` and charges what it admitted, in one settle call sent once (never again, see FRONT), after
 * the takes carrying its units have landed or failed (a failed one hands its unit back to this settle).
 */
function retire(namespace: LeasingNamespace, shard: string, grant: HeldGrant, defer?: Defer) {
  if (grantsHeld.get(shard) === grant) grantsHeld.delete(shard);
  if (grant.left === 0 && grant.charged) return;
  grant.left = 0;
  const send = () => {
    if (grant.charged) return;
    grant.charged = true;
    const charges = [...grant.unsettled];
    grant.unsettled.clear();
    // Even with nothing to charge: the object counts a grant out until it is settled (or lapses, which quarantines
    // its slot).
    return settleCall(namespace, shard, grant.id, charges);
  };
  const sent = grant.riding.size > 0 ? Promise.allSettled([...grant.riding]).then(send) : Promise.resolve().then(send);
  if (defer) defer(sent.catch(() => {}));
}

function settleCall(namespace: LeasingNamespace, shard: string, id: string, charges: [string, number][]): Promise<void> {
  const stub = shardStub(namespace, shard);
  return Promise.resolve()
    .then(() => stub.settle?.(id, charges, 60))
    .catch(() => {}); // lost: bounded (FRONT), never re-sent
}

function sendSettle(namespace: LeasingNamespace, shard: string, id: string, charges: [string, number][], defer?: Defer) {
  const sent = settleCall(namespace, shard, id, charges);
  if (defer) defer(sent);
}

/** Holds a grant the object gave (asked at `askedAt`), retiring the shard's previous one; retired at its time. */
function hold(namespace: LeasingNamespace, shard: string, given: FrontGrant, askedAt: number, defer?: Defer) {
  const now = Date.now();
  const previous = grantsHeld.get(shard);
  if (previous) retire(namespace, shard, previous, defer);
  const grant: HeldGrant = {
    id: given.id,
    expiresAt: askedAt + given.ttlMs - FRONT.marginMs,
    left: Math.min(given.units, FRONT.grantUnits),
    full: new Map(given.full.slice(0, FRONT.fullMax).map(({ name, inMs }) => [name, now + inMs])),
    used: new Set(),
    unsettled: new Map(),
    riding: new Set(),
    charged: false,
  };
  grantsHeld.set(shard, grant);
  // Its time up, whatever it admitted is charged (the request's waitUntil keeps this timer; without one it floats).
  const timer = new Promise((resolve) => setTimeout(resolve, Math.max(0, grant.expiresAt - now))).then(() => {
    if (grant.left > 0 || grant.unsettled.size > 0) retire(namespace, shard, grant, defer);
  });
  if (defer) defer(timer);
}

function remember(name: string, lease: Lease) {
  leases.delete(name);
  leases.set(name, lease);
  if (leases.size > LEASE_MEMORY) leases.delete(leases.keys().next().value as string);
}

/**
 * Spends `cost` units of bucket `name` (per minute): from this isolate's lease when it holds enough, else through the
 * bucket's object. Answers whether it was allowed, and if not, in how many ms it would be.
 */
export async function spendRate(
  namespace: LeasingNamespace,
  name: string,
  perMinute: number,
  cost: number,
  defer?: Defer,
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const started = Date.now();
  const front = frontServes(name, perMinute) && cost === 1;
  for (;;) {
    const now = Date.now();
    const local = decideLocally(name, perMinute, cost, now);
    if (local) return local;
    const grant = front ? usableGrant(namespace, name, now, defer) : null;
    if (grant) {
      grant.used.add(name);
      grant.unsettled.set(name, perMinute);
      grant.left--;
      if (grant.left === 0) retire(namespace, shardOf(name), grant, defer);
      return { allowed: true, retryAfterMs: 0 };
    }
    // Concurrent requests of this isolate for one bucket wait for the call in flight, then spend what it leased:
    // asking in parallel would lease units to requests that no longer need them and refuse the others. A front bucket
    // has no lease to share, so it asks at once (the object decides it exactly): it never waits on another request's
    // call, which may be one carrying a grant's unit that the grant's settle is waiting for.
    const since = front ? undefined : inflight.get(name);
    if (since !== undefined && now - since < WAIT_MAX_MS && now - started < WAIT_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    // A request cancelled during its call never reaches `finally`: drop such stale marks before the map grows.
    if (inflight.size >= 1_000) for (const [bucket, at] of inflight) if (now - at >= WAIT_MAX_MS) inflight.delete(bucket);
    inflight.set(name, now);
    try {
      return await take(namespace, name, perMinute, cost, defer);
    } finally {
      if (inflight.get(name) === now) inflight.delete(name);
    }
  }
}

/** The answer from this isolate's lease alone, or null when the object must be asked. */
function decideLocally(name: string, perMinute: number, cost: number, now: number): { allowed: boolean; retryAfterMs: number } | null {
  const lease = leases.get(name);
  if (!lease || lease.perMinute !== perMinute || lease.until <= now) return null;
  if (lease.units >= cost) {
    lease.units -= cost;
    return { allowed: true, retryAfterMs: 0 };
  }
  if (lease.refusedUntil > now && cost >= lease.refusedCost) return { allowed: false, retryAfterMs: lease.refusedUntil - now };
  return null;
}

/** Asks the bucket's object for `cost` (and a lease), handing back what this isolate's lease holds unspent. */
async function take(
  namespace: LeasingNamespace,
  name: string,
  perMinute: number,
  cost: number,
  defer?: Defer,
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const lease = leases.get(name);
  let giveBack = 0;
  if (lease) {
    // A changed limit, an expired lease or too few units for this cost: the units go back with this call (taken
    // before the await, so no concurrent request of this isolate spends them too).
    giveBack = lease.units;
    leases.delete(name);
  }
  // The front: a unit of this bucket a grant admitted and has not settled rides with this call (so one isolate alone
  // is exact), and a shard whose grant is gone is asked for a new one.
  const front = frontServes(name, perMinute);
  const shard = shardOf(name);
  const grant = front ? grantsHeld.get(shard) : undefined;
  const admitted = grant?.unsettled.delete(name) ? 1 : 0;
  const stub = stubOf(namespace, name);
  const askedAt = Date.now();
  const askedBefore = asking.get(shard);
  const wantGrant =
    front &&
    stub.settle !== undefined &&
    !(askedBefore !== undefined && askedAt - askedBefore < WAIT_MAX_MS) &&
    !(grant && grant.left > 0 && grant.expiresAt > askedAt);
  if (wantGrant) asking.set(shard, askedAt);
  const call = (async () => {
    try {
      return await stub.take(name, perMinute, 60, cost, leaseSize(perMinute), giveBack, admitted, wantGrant);
    } catch (error) {
      // Not heard: the unit is charged by the grant's settle (which waits for this call), or by one of its own if
      // that settle has gone.
      if (admitted && grant) {
        if (!grant.charged) grant.unsettled.set(name, perMinute);
        else sendSettle(namespace, shard, grant.id, [[name, perMinute]], defer);
      }
      // The shard fails: the grant held for it admits no more (its settle is likely lost too; fail closed).
      const held = grantsHeld.get(shard);
      if (held) retire(namespace, shard, held, defer);
      throw error;
    } finally {
      if (wantGrant && asking.get(shard) === askedAt) asking.delete(shard);
    }
  })();
  if (admitted && grant) {
    grant.riding.add(call);
    void call.then(
      () => grant.riding.delete(call),
      () => grant.riding.delete(call),
    );
  }
  const decision: LeaseDecision = await call;
  const after = Date.now();
  if (decision.grant) hold(namespace, shard, decision.grant, askedAt, defer);
  if (front && !decision.allowed) grantsHeld.get(shard)?.full.set(name, after + decision.retryAfterMs);
  const current = leases.get(name);
  const held = current && current.perMinute === perMinute && current.until > after ? current : undefined;
  // A lease that lapsed (or changed limit) while this call was out still holds units the object charged: they go
  // back now, or the bucket would stay fuller than what was spent (under load, callers then saw early 429s).
  if (current && !held && current.units > 0) {
    const units = current.units;
    current.units = 0;
    await stubOf(namespace, name).giveBack(name, current.perMinute, 60, units);
  }
  // Refused, but another call of this isolate leased units meanwhile (calls overlap when the object answers slower
  // than a waiter waits): those units are already charged, so spending them grants nothing past the limit, and
  // leaving them would admit a burst short of its limit.
  if (!decision.allowed && held && held.units >= cost) {
    held.units -= cost;
    return { allowed: true, retryAfterMs: 0 };
  }
  remember(
    name,
    decision.allowed
      ? { perMinute, units: (held?.units ?? 0) + decision.leased, until: after + LEASE_TTL_MS, refusedUntil: 0, refusedCost: 0 }
      : {
          perMinute,
          units: held?.units ?? 0,
          until: held?.until ?? after + LEASE_TTL_MS,
          refusedUntil: after + decision.retryAfterMs,
          refusedCost: cost,
        },
  );
  return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs };
}

/** Gives back `cost` units spent for a request that was then refused: to the lease when one is held, else the object. */
export async function refundRate(namespace: LeasingNamespace, name: string, perMinute: number, cost: number, now = Date.now()) {
  if (!(cost > 0)) return;
  // A unit a front grant admitted and has not settled: simply not charged (the grant still never admits it again).
  if (cost === 1 && frontServes(name, perMinute) && grantsHeld.get(shardOf(name))?.unsettled.delete(name)) return;
  const lease = leases.get(name);
  if (lease && lease.perMinute === perMinute && lease.until > now) {
    lease.units += cost;
    lease.refusedUntil = 0;
    return;
  }
  if (lease) lease.refusedUntil = 0;
  await stubOf(namespace, name).giveBack(name, perMinute, 60, cost);
}

/** Forgets every lease (tests; the units drain in their objects within the minute). */
export function forgetRateLeases() {
  leases.clear();
  grantsHeld.clear();
  asking.clear();
}
