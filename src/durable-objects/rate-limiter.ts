import { DurableObject } from "cloudflare:workers";
import type { LeaseDecision } from "../platform/rate-lease";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "./leaky-bucket";

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

/** In how many ms one more unit fits the bucket (0: now). */
function msUntilOneFits(state: BucketState, now: number, limit: number, periodMs: number): number {
  const probe = leakyBucket(state, now, limit, periodMs, 1);
  return probe.allowed ? 0 : probe.retryAfterMs;
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
 * than the bucket allows through leases. The one exception is stated in rate-lease.ts (the anonymous front): an
 * isolate may admit one unit of a small anonymous bucket before this object hears of it; `report` and `take`'s
 * `admitted` record such units whatever the level, so none is lost and an excess is repaid by refusing longer.
 * The limit is passed on each call, so a changed restriction applies from the next request.
 */
export class RateLimiter extends DurableObject<Env> {
  private bucket: BucketState = EMPTY_BUCKET;
  private sweepScheduled = false;
  /** Named buckets read so far (their stored state; absent: not read yet), so a warm bucket needs no storage read. */
  private named = new Map<string, BucketState>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.bucket = (await ctx.storage.get<BucketState>("bucket")) ?? EMPTY_BUCKET;
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
  ): Promise<LeaseDecision> {
    const now = Date.now();
    const periodMs = periodSeconds * 1000;
    let state = await this.read(name);
    if (giveBack > 0) state = refundBucket(state, now, limit, periodMs, giveBack);
    // Units an isolate already admitted on its own (rate-lease.ts, the anonymous front): charged whatever the level.
    if (admitted > 0) state = forcedCharge(state, now, limit, periodMs, admitted);
    const decision = leakyBucket(state, now, limit, periodMs, cost);
    if (!decision.allowed) {
      if (giveBack > 0 || admitted > 0) this.write(name, state, limit / periodMs);
      return { allowed: false, retryAfterMs: decision.retryAfterMs, leased: 0, fullForMs: decision.retryAfterMs };
    }
    const leased = Math.max(0, Math.min(Math.floor(want), Math.floor(limit - decision.state.level + 1e-9)));
    const next = { level: decision.state.level + leased, updatedAt: now };
    this.write(name, next, limit / periodMs);
    return { allowed: true, retryAfterMs: 0, leased, fullForMs: msUntilOneFits(next, now, limit, periodMs) };
  }

  /**
   * Records units isolates already admitted on their own (rate-lease.ts, the anonymous front), many buckets of this
   * object in one call, each charged whatever its level (they were spent; a bucket past its limit repays the excess
   * by refusing longer). Answers, per entry, in how many ms one more unit would fit (0: now).
   */
  async report(charges: [name: string, limit: number, units: number][], periodSeconds: number): Promise<number[]> {
    const now = Date.now();
    const periodMs = periodSeconds * 1000;
    // First reads wait on storage, which holds the input gate: no other call interleaves before the writes below.
    const states = new Map<string, BucketState>();
    for (const [name] of charges) {
      const known = this.named.get(name);
      if (known) states.set(name, known);
    }
    const unread = [...new Set(charges.map(([name]) => name).filter((name) => !states.has(name)))];
    for (let i = 0; i < unread.length; i += 128) {
      const part = unread.slice(i, i + 128);
      const stored = await this.ctx.storage.get<BucketState>(part.map((name) => NAMED + name));
      for (const name of part) states.set(name, stored.get(NAMED + name) ?? EMPTY_BUCKET);
    }
    if (this.named.size + unread.length > NAMED_IN_MEMORY) this.named.clear(); // re-read from storage when next used
    const puts: Record<string, StoredBucket> = {};
    const answers = charges.map(([name, limit, units]) => {
      const state = forcedCharge(states.get(name) ?? EMPTY_BUCKET, now, limit, periodMs, units);
      states.set(name, state);
      puts[NAMED + name] = this.remember(name, state, limit / periodMs);
      return msUntilOneFits(state, now, limit, periodMs);
    });
    // One write for the batch (the output gate holds the reply until it is durable); at most 128 keys a call.
    const keys = Object.keys(puts);
    for (let i = 0; i < keys.length; i += 128)
      void this.ctx.storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, puts[k]!])));
    this.scheduleSweep();
    return answers;
  }

  /** Returns `cost` units of the named bucket that were charged (or leased) but not used. */
  async giveBack(name: string, limit: number, periodSeconds: number, cost: number): Promise<void> {
    if (!(cost > 0)) return;
    const periodMs = periodSeconds * 1000;
    this.write(name, refundBucket(await this.read(name), Date.now(), limit, periodMs, cost), limit / periodMs);
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
    this.named.clear();
    this.sweepScheduled = remaining > 0;
    if (remaining > 0) await this.ctx.storage.setAlarm(now + SWEEP_EVERY_MS);
  }
}
