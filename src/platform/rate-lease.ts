/** What the RateLimiter object's `take` answers: the decision for the request, and the extra units leased. */
export interface LeaseDecision {
  allowed: boolean;
  retryAfterMs: number;
  /** Units charged on top of the request's cost, for the caller to spend locally (0 when refused). */
  leased: number;
}

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
    take(name: string, limit: number, periodSeconds: number, cost: number, want: number, giveBack?: number): Promise<LeaseDecision>;
    giveBack(name: string, limit: number, periodSeconds: number, cost: number): Promise<void>;
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
  const keyed = name.startsWith("api_key:") || name.includes("_tenant:");
  return keyed ? `rate-shard:key:${(h >>> 0) % KEY_SHARDS}` : `rate-shard:anon:${(h >>> 0) % ANON_SHARDS}`;
}

function stubOf(namespace: LeasingNamespace, name: string) {
  return namespace.get(namespace.idFromName(shardOf(name)));
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
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const started = Date.now();
  for (;;) {
    const now = Date.now();
    const local = decideLocally(name, perMinute, cost, now);
    if (local) return local;
    // Concurrent requests of this isolate for one bucket wait for the call in flight, then spend what it leased:
    // asking in parallel would lease units to requests that no longer need them and refuse the others.
    const since = inflight.get(name);
    if (since !== undefined && now - since < WAIT_MAX_MS && now - started < WAIT_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    // A request cancelled during its call never reaches `finally`: drop such stale marks before the map grows.
    if (inflight.size >= 1_000) for (const [bucket, at] of inflight) if (now - at >= WAIT_MAX_MS) inflight.delete(bucket);
    inflight.set(name, now);
    try {
      return await take(namespace, name, perMinute, cost);
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
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const lease = leases.get(name);
  let giveBack = 0;
  if (lease) {
    // A changed limit, an expired lease or too few units for this cost: the units go back with this call (taken
    // before the await, so no concurrent request of this isolate spends them too).
    giveBack = lease.units;
    leases.delete(name);
  }
  const decision = await stubOf(namespace, name).take(name, perMinute, 60, cost, leaseSize(perMinute), giveBack);
  const after = Date.now();
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
}
