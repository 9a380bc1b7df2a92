/** What the RateLimiter object's `take` answers: the decision for the request, and the extra units leased. */
export interface LeaseDecision {
  allowed: boolean;
  retryAfterMs: number;
  /** Units charged on top of the request's cost, for the caller to spend locally (0 when refused). */
  leased: number;
  /** In how many ms one more unit would fit after this decision (0: now); the anonymous front caches it. */
  fullForMs?: number;
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
 * - Anonymous buckets too small for a lease (the public verify's 10 a minute per address) go through the anonymous
 *   front instead (below): their stated slack is one unit per isolate, never lost, repaid.
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
 * Anonymous buckets are per address and get no lease under 20 a minute. A new address's first call in an isolate is
 * admitted by the front below and reported in a batch per shard; its next call in that isolate goes to its shard. The
 * fewer the shards, the larger each report batch and the more calls find their object running: with 32 shards a
 * report carried about one charge at bench/verify.mjs's rate and saved ≈ 0.4 ms of workerd CPU a public verify,
 * with 8 about 18 charges and ≈ 0.9 ms (one call left per ≈ 18 new addresses). Eight objects still carry some 8,000
 * direct calls a second plus reports of up to REPORT_MAX charges each, far above what the public variant serves
 * (each costs milliseconds of Worker CPU), and a flood from many addresses still reaches only these, never a key's
 * or tenant's limiter. Round 6 had 32 (256 before): a change moves the set's buckets once (their counts restart).
 */
export const ANON_SHARDS = 8;

/*
 * The anonymous front. An anonymous bucket under 20 a minute gets no lease (the public verify's 10 a minute per
 * address), so without a front every public call of a new address waited on its shard. Instead this isolate admits
 * a bucket's request on its own when it holds no unreported unit of that bucket and knows of no refusal, and reports
 * such admissions to their shards in batches (one `report` call per shard every REPORT_AFTER_MS, or at once when
 * REPORT_MAX units wait; in the admitting request's waitUntil, off its answer's path). The bound:
 *
 * - Per isolate, per bucket, at most FRONT_SLACK (1) admitted unit is ever unknown to the object. A bucket's next
 *   request in this isolate goes to the object carrying that unit (`take`'s `admitted`), or waits for the report
 *   that carries it, so one isolate alone admits exactly what the object alone would: a burst from one address to
 *   one isolate is refused at exactly the limit.
 * - Units are never lost: the object charges reported units whatever the level (a report that fails is carried by
 *   the bucket's next call), so the object's level is the true one less at most FRONT_SLACK per isolate holding an
 *   unreported unit. Hence, per address, over any interval of T seconds at most limit + limit·T/60 +
 *   FRONT_SLACK × (isolates serving that address) requests are admitted, and an excess is repaid: the address is
 *   refused longer afterwards, so its rate over time stays the limit.
 * - Every answer of the object (a decision or a report) says when one more unit fits; this isolate refuses the
 *   bucket until then without a call, with that Retry-After.
 */
const FRONT_SLACK = 1;
const REPORT_AFTER_MS = 1_000;
const REPORT_MAX = 256;

/** Units of a front bucket this isolate admitted that its object has not confirmed yet. */
interface FrontUnits {
  perMinute: number;
  /** Admitted, not yet sent. */
  queued: number;
  /** In a report on its way. */
  sending: number;
}
const fronts = new Map<string, FrontUnits>();
let queuedUnits = 0;
/** When the scheduled report runs (0: none scheduled). A schedule long overdue (its request cancelled) is replaced. */
let reportDue = 0;

/** Whether bucket `name` at `perMinute` goes through the anonymous front (anonymous, and too small for a lease). */
export function frontServes(name: string, perMinute: number): boolean {
  return leaseSize(perMinute) === 0 && !isKeyed(name);
}

function isKeyed(name: string): boolean {
  return name.startsWith("api_key:") || name.includes("_tenant:");
}

/** Runs `promise` past the answer (the request's waitUntil), or lets it float where there is none. */
export type Defer = (promise: Promise<unknown>) => void;

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
    ): Promise<LeaseDecision>;
    giveBack(name: string, limit: number, periodSeconds: number, cost: number): Promise<void>;
    /** The front's batched charges (RateLimiter.report); without it the units ride with each bucket's next `take`. */
    report?(charges: [name: string, limit: number, units: number][], periodSeconds: number): Promise<number[]>;
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
  return isKeyed(name) ? `rate-shard:key:${(h >>> 0) % KEY_SHARDS}` : `rate-shard:anon:${(h >>> 0) % ANON_SHARDS}`;
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
  defer?: Defer,
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const started = Date.now();
  const front = frontServes(name, perMinute);
  for (;;) {
    const now = Date.now();
    const local = decideLocally(name, perMinute, cost, now);
    if (local) return local;
    // Concurrent requests of this isolate for one bucket wait for the call in flight, then spend what it leased:
    // asking in parallel would lease units to requests that no longer need them and refuse the others.
    const since = inflight.get(name);
    const calling = since !== undefined && now - since < WAIT_MAX_MS;
    if (front) {
      const units = fronts.get(name);
      if (!calling && (units?.queued ?? 0) + (units?.sending ?? 0) + cost <= FRONT_SLACK) {
        admitLocally(namespace, name, perMinute, cost, now, defer);
        return { allowed: true, retryAfterMs: 0 };
      }
      // A report carrying this bucket's unit is out: its answer may say the bucket is full.
      if (units && units.sending > 0 && now - started < WAIT_MAX_MS) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        continue;
      }
    }
    if (calling && now - started < WAIT_MAX_MS) {
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
  // Units the front admitted and has not sent yet ride with this call (charged before this request is decided).
  const units = fronts.get(name);
  const admitted = units?.queued ?? 0;
  if (units && admitted > 0) {
    units.queued = 0;
    queuedUnits -= admitted;
  }
  let decision: LeaseDecision;
  try {
    decision = await stubOf(namespace, name).take(name, perMinute, 60, cost, leaseSize(perMinute), giveBack, admitted);
  } catch (error) {
    if (admitted > 0) requeue(name, perMinute, admitted);
    throw error;
  } finally {
    settle(name);
  }
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
  if (frontServes(name, perMinute)) {
    rememberFull(name, perMinute, after + (decision.allowed ? (decision.fullForMs ?? 0) : decision.retryAfterMs));
    return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs };
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
  const units = fronts.get(name);
  if (units && units.queued >= cost) {
    units.queued -= cost;
    queuedUnits -= cost;
    settle(name);
    return;
  }
  const lease = leases.get(name);
  if (lease && lease.perMinute === perMinute && lease.until > now) {
    lease.units += cost;
    lease.refusedUntil = 0;
    return;
  }
  if (lease) lease.refusedUntil = 0;
  await stubOf(namespace, name).giveBack(name, perMinute, 60, cost);
}

/** Forgets every lease and unreported front unit (tests; the units drain in their objects within the minute). */
export function forgetRateLeases() {
  leases.clear();
  fronts.clear();
  queuedUnits = 0;
  reportDue = 0;
}

/** The front's refusal: bucket `name` takes no unit before `until` (epoch ms; nothing when that is not later than now). */
function rememberFull(name: string, perMinute: number, until: number) {
  const now = Date.now();
  const known = leases.get(name);
  if (known && known.perMinute === perMinute && known.refusedUntil >= until) return;
  if (until <= now) {
    if (known && known.units === 0) leases.delete(name);
    return;
  }
  remember(name, { perMinute, units: 0, until, refusedUntil: until, refusedCost: 1 });
}

/** A unit admitted by the front: queued for its shard's next report. */
function admitLocally(namespace: LeasingNamespace, name: string, perMinute: number, cost: number, now: number, defer?: Defer) {
  requeue(name, perMinute, cost);
  if (queuedUnits >= REPORT_MAX) schedule(namespace, 0, defer);
  else if (reportDue === 0 || now > reportDue + REPORT_AFTER_MS) schedule(namespace, REPORT_AFTER_MS, defer);
}

function requeue(name: string, perMinute: number, cost: number) {
  const units = fronts.get(name) ?? { perMinute, queued: 0, sending: 0 };
  units.perMinute = perMinute;
  units.queued += cost;
  queuedUnits += cost;
  fronts.set(name, units);
}

/** Drops a bucket's front entry once nothing of it is unconfirmed. */
function settle(name: string) {
  const units = fronts.get(name);
  if (units && units.queued === 0 && units.sending === 0) fronts.delete(name);
}

function schedule(namespace: LeasingNamespace, delayMs: number, defer?: Defer) {
  reportDue = Date.now() + delayMs;
  const run = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => sendRateReports(namespace));
  if (defer) defer(run);
  else run.catch(() => {});
}

/**
 * Sends every queued front unit to its shard, one `report` call per shard, and remembers each bucket the answers
 * say is full. A failed call puts its units back (the bucket's next call carries them). Tests call it directly.
 */
export async function sendRateReports(namespace: LeasingNamespace): Promise<void> {
  reportDue = 0;
  const byShard = new Map<string, [name: string, limit: number, units: number][]>();
  for (const [name, units] of fronts) {
    if (units.queued === 0) continue;
    const shard = shardOf(name);
    const charges = byShard.get(shard) ?? [];
    charges.push([name, units.perMinute, units.queued]);
    byShard.set(shard, charges);
    units.sending += units.queued;
    units.queued = 0;
  }
  queuedUnits = 0;
  await Promise.all(
    [...byShard].map(async ([shard, charges]) => {
      const stub = namespace.get(namespace.idFromName(shard));
      const answers = stub.report ? await stub.report(charges, 60).catch(() => null) : null;
      const after = Date.now();
      charges.forEach(([name, perMinute, sent], i) => {
        const units = fronts.get(name);
        if (units) units.sending -= sent;
        if (!answers) requeue(name, perMinute, sent);
        else rememberFull(name, perMinute, after + (answers[i] ?? 0));
        settle(name);
      });
    }),
  );
}
