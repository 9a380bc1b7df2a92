import { DurableObject } from "cloudflare:workers";
import { FRONT, frontServes, type LeaseDecision } from "../platform/rate-lease";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "./leaky-bucket";
import { FRONT_KEYS, FrontLedger } from "./rate-front";

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterMs: number;
  remaining: number;
  resetMs: number;
}

/** The bucket after `units` already admitted are charged: drained to `now`, then `units` added, past the limit if need be. */
function forcedCharge(state: BucketState, now: number, limit: number, periodMs: number, units: number): BucketState {
  const level = Math.max(0, state.level - Math.max(0, now - state.updatedAt) * (limit / periodMs));
  return { level: level + units, updatedAt: now };
}

/** Named buckets (`take`/`giveBack`) are stored under this prefix, apart from the single-bucket API's "bucket". */
const NAMED = "b:";
/** How often an object with stored named buckets deletes those that have drained empty. */
const SWEEP_EVERY_MS = 5 * 60_000;
/** Named bucket states kept in memory per object; past it the memory starts afresh (storage still has them). */
const NAMED_IN_MEMORY = 10_000;

/** A stored named bucket: its state and when it will have drained empty (so a sweep needs no limit). */
interface StoredBucket extends BucketState {
  emptyAt: number;
}

/**
 * Rate limit buckets. Either one bucket per object (`limit`/`refund`, the object named after the bucket), or many
 * named buckets per object (`take`/`giveBack`: platform/rate-lease.ts shards bucket names over a fixed set of
 * objects, so a new caller does not create a new object).
 * Invariant: decisions are exact across all Worker instances, because every request for a bucket is decided here,
 * one at a time, on state updated before any await; a refused request uses no capacity,
 * and units leased to an isolate are charged here before it spends them, so the isolates together never spend more
 * than the bucket allows. The one exception is the anonymous front's grants (rate-lease.ts FRONT, its bound stated
 * there): a grant admits a bucket's unit before this object hears of it; `settle` (or `take`'s `admitted`) charges it
 * whatever the level, and a grant never admits a bucket this object listed as full when it issued the grant.
 * The limit is passed on each call, so a changed restriction applies from the next request.
 */
export class RateLimiter extends DurableObject<Env> {
  private bucket: BucketState = EMPTY_BUCKET;
  private sweepScheduled = false;
  /** Named buckets read so far (their stored state; absent: not read yet), so a warm bucket needs no storage read. */
  private named = new Map<string, BucketState>();
  /**
   * The anonymous front (rate-lease.ts): front buckets of this object that one more unit does not fit, until when
   * (kept in storage too, so a restarted object still lists them), and the grants out (id → when it lapses here).
   */
  private front = new FrontLedger({
    put: (key, value) => void this.ctx.storage.put(key, value),
    delete: (key) => void this.ctx.storage.delete(key),
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.bucket = (await ctx.storage.get<BucketState>("bucket")) ?? EMPTY_BUCKET;
      // The front's grants out and full buckets survive a restart (an object is evicted when idle); every full bucket
      // is read back (at most FRONT.fullMax live ones, past which only `grantsFrom` is kept; the alarm and the load
      // delete lapsed ones), so a grant never misses one.
      const all = async (prefix: string) => {
        const out: [string, number][] = [];
        for (let startAfter: string | undefined; ; ) {
          const page = await ctx.storage.list<number>({ prefix, limit: 1_000, ...(startAfter ? { startAfter } : {}) });
          for (const [key, value] of page) out.push([key.slice(prefix.length), value]);
          startAfter = [...page.keys()].at(-1);
          if (page.size < 1_000) return out;
        }
      };
      this.front.load(
        {
          full: await all(FRONT_KEYS.full),
          grants: await all(FRONT_KEYS.grant),
          grantsFrom: (await ctx.storage.get<number>(FRONT_KEYS.grantsFrom)) ?? 0,
        },
        Date.now(),
      );
    });
  }

  async limit(limit: number, periodSeconds: number, cost = 1): Promise<RateLimitDecision> {
    const decision = leakyBucket(this.bucket, Date.now(), limit, periodSeconds * 1000, cost);
    if (decision.allowed) {
      this.bucket = decision.state;
      // Not awaited: the output gate holds the reply until the write is durable.
      void this.ctx.storage.put("bucket", this.bucket);
    }
    return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs, remaining: decision.remaining, resetMs: decision.resetMs };
  }

  /** Returns `cost` units an allowed request charged but did not use (it was refused after the charge). */
  async refund(limit: number, periodSeconds: number, cost: number): Promise<void> {
    if (!(cost > 0)) return;
    this.bucket = refundBucket(this.bucket, Date.now(), limit, periodSeconds * 1000, cost);
    void this.ctx.storage.put("bucket", this.bucket);
  }

  /**
   * Charges `cost` to the named bucket and, when it allows, leases up to `want` more units that still fit (never
   * past the limit) to the caller. `giveBack` first returns units an earlier lease left unspent.
   */
  async take(
    name: string,
    limit: number,
    periodSeconds: number,
    cost: number,
    want: number,
    giveBack = 0,
    admitted = 0,
    wantGrant = false,
  ): Promise<LeaseDecision> {
    const now = Date.now();
    const periodMs = periodSeconds * 1000;
    let state = await this.read(name);
    if (giveBack > 0) state = refundBucket(state, now, limit, periodMs, giveBack);
    // A unit the caller's front grant admitted for this bucket and has not settled: charged whatever the level.
    if (admitted > 0) state = forcedCharge(state, now, limit, periodMs, admitted);
    const decision = leakyBucket(state, now, limit, periodMs, cost);
    const next = decision.allowed ? decision.state : state;
    const leased = decision.allowed ? Math.max(0, Math.min(Math.floor(want), Math.floor(limit - next.level + 1e-9))) : 0;
    // Refused: the state as read (and refunded or charged above); allowed: with this request's unit and the lease.
    const after = decision.allowed ? { level: next.level + leased, updatedAt: now } : state;
    if (decision.allowed || giveBack > 0 || admitted > 0) this.write(name, after, limit / periodMs);
    this.front.noteFull(name, after, now, limit, periodMs);
    const grant = wantGrant && frontServes(name, limit) ? this.front.grant(now) : undefined;
    return {
      allowed: decision.allowed,
      retryAfterMs: decision.allowed ? 0 : decision.retryAfterMs,
      leased,
      ...(grant ? { grant } : {}),
    };
  }

  /**
   * Charges the units a front grant admitted (one per bucket, rate-lease.ts), whatever each bucket's level: they were
   * spent. The grant is then closed (with the charges' write). A grant that lapsed here first is charged all the same.
   */
  async settle(grantId: string, charges: [name: string, limit: number][], periodSeconds: number): Promise<void> {
    const now = Date.now();
    const periodMs = periodSeconds * 1000;
    const batch = charges.slice(0, FRONT.grantUnits);
    // Buckets not in memory are read in one storage call (it holds the input gate: nothing interleaves before the
    // writes below), and every bucket is written in one put.
    const states = new Map<string, BucketState>();
    for (const [name] of batch) {
      const known = this.named.get(name);
      if (known) states.set(name, known);
    }
    const unread = [...new Set(batch.map(([name]) => name).filter((name) => !states.has(name)))];
    const stored = unread.length > 0 ? await this.ctx.storage.get<BucketState>(unread.map((name) => NAMED + name)) : new Map();
    for (const name of unread) states.set(name, stored.get(NAMED + name) ?? EMPTY_BUCKET);
    if (this.named.size + unread.length > NAMED_IN_MEMORY) this.named.clear(); // re-read from storage when next used
    const puts: Record<string, StoredBucket | number> = {};
    for (const [name, limit] of batch) {
      const state = forcedCharge(states.get(name) ?? EMPTY_BUCKET, now, limit, periodMs, 1);
      states.set(name, state);
      puts[NAMED + name] = this.remember(name, state, limit / periodMs);
      const until = this.front.fullUntil(name, state, now, limit, periodMs);
      if (until !== undefined) puts[FRONT_KEYS.full + name] = until;
    }
    // The grant is closed only now, after every read: a settle whose read fails (or whose object resets meanwhile)
    // leaves the grant out, to lapse and quarantine its slot (FRONT). No await between the grant's delete and this put,
    // so they commit together (not awaited: the output gate holds the reply until both are durable).
    this.front.settled(grantId);
    void this.ctx.storage.put(puts);
    this.scheduleSweep();
  }

  /** Returns `cost` units of the named bucket that were charged (or leased) but not used. */
  async giveBack(name: string, limit: number, periodSeconds: number, cost: number): Promise<void> {
    if (!(cost > 0)) return;
    const periodMs = periodSeconds * 1000;
    const now = Date.now();
    const state = refundBucket(await this.read(name), now, limit, periodMs, cost);
    this.write(name, state, limit / periodMs);
    this.front.noteFull(name, state, now, limit, periodMs);
  }

  /**
   * The bucket's state. A first read waits on storage, which holds the object's input gate, so no other call
   * interleaves between this read and the write that follows it.
   */
  private async read(name: string): Promise<BucketState> {
    const known = this.named.get(name);
    if (known) return known;
    const stored = (await this.ctx.storage.get<BucketState>(NAMED + name)) ?? EMPTY_BUCKET;
    if (this.named.size >= NAMED_IN_MEMORY) this.named.clear(); // re-read from storage when next used
    this.named.set(name, stored);
    return stored;
  }

  /** An empty bucket is deleted rather than stored; one that drains empty later goes at the next sweep. */
  private write(name: string, state: BucketState, ratePerMs: number): void {
    // Not awaited: the output gate holds the reply until the write is durable.
    if (state.level <= 0) {
      this.named.set(name, EMPTY_BUCKET);
      void this.ctx.storage.delete(NAMED + name);
      return;
    }
    void this.ctx.storage.put(NAMED + name, this.remember(name, state, ratePerMs));
    this.scheduleSweep();
  }

  /** The stored form of a bucket's state, kept in memory too. */
  private remember(name: string, state: BucketState, ratePerMs: number): StoredBucket {
    const stored: StoredBucket = { ...state, emptyAt: state.updatedAt + Math.ceil(state.level / ratePerMs) };
    this.named.set(name, stored);
    return stored;
  }

  private scheduleSweep(): void {
    if (!this.sweepScheduled) {
      this.sweepScheduled = true;
      void this.ctx.storage.setAlarm(Date.now() + SWEEP_EVERY_MS);
    }
  }

  /** Deletes the named buckets that have drained empty; comes back while any remain. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    let remaining = 0;
    const drained: string[] = [];
    // Page by page: a shard flooded by new callers may hold hundreds of thousands of buckets.
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.ctx.storage.list<StoredBucket>({ prefix: NAMED, limit: 1_000, ...(startAfter ? { startAfter } : {}) });
      for (const [key, value] of page) {
        if (value.emptyAt <= now) drained.push(key);
        else remaining++;
        startAfter = key;
      }
      for (let i = 0; i < drained.length; i += 128) await this.ctx.storage.delete(drained.slice(i, i + 128));
      drained.length = 0;
      if (page.size < 1_000) break;
    }
    // Front buckets listed full whose time is up (those the ledger still holds in memory it drops at its next grant).
    const lapsed: string[] = [];
    for (let startAfter: string | undefined; ; ) {
      const page = await this.ctx.storage.list<number>({ prefix: FRONT_KEYS.full, limit: 1_000, ...(startAfter ? { startAfter } : {}) });
      for (const [key, until] of page) if (until <= now) lapsed.push(key);
      startAfter = [...page.keys()].at(-1);
      if (page.size < 1_000) break;
    }
    for (let i = 0; i < lapsed.length; i += 128) await this.ctx.storage.delete(lapsed.slice(i, i + 128));
    this.named.clear();
    this.sweepScheduled = remaining > 0;
    if (remaining > 0) await this.ctx.storage.setAlarm(now + SWEEP_EVERY_MS);
  }
}
