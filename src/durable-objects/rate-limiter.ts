import { DurableObject } from "cloudflare:workers";
import type { LeaseDecision } from "../platform/rate-lease";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "./leaky-bucket";

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterMs: number;
  remaining: number;
  resetMs: number;
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
 * than the bucket allows. The limit is passed on each call, so a changed restriction applies from the next request.
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
  async take(name: string, limit: number, periodSeconds: number, cost: number, want: number, giveBack = 0): Promise<LeaseDecision> {
    const now = Date.now();
    const periodMs = periodSeconds * 1000;
    let state = await this.read(name);
    if (giveBack > 0) state = refundBucket(state, now, limit, periodMs, giveBack);
    const decision = leakyBucket(state, now, limit, periodMs, cost);
    if (!decision.allowed) {
      if (giveBack > 0) this.write(name, state, limit / periodMs);
      return { allowed: false, retryAfterMs: decision.retryAfterMs, leased: 0 };
    }
    const leased = Math.max(0, Math.min(Math.floor(want), Math.floor(limit - decision.state.level + 1e-9)));
    this.write(name, { level: decision.state.level + leased, updatedAt: now }, limit / periodMs);
    return { allowed: true, retryAfterMs: 0, leased };
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
    const stored: StoredBucket = { ...state, emptyAt: state.updatedAt + Math.ceil(state.level / ratePerMs) };
    this.named.set(name, stored);
    void this.ctx.storage.put(NAMED + name, stored);
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
