import { DurableObject } from "cloudflare:workers";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "./leaky-bucket";

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterMs: number;
  remaining: number;
  resetMs: number;
}

/**
 * One rate limit bucket per object (one object per API key, or per public-verify IP bucket).
 * Invariant: decisions are exact across all Worker instances, because every request for the bucket is
 * decided here, one at a time, on state updated before any await; a refused request uses no capacity.
 * The limit is passed on each call, so a changed restriction applies from the next request.
 */
export class RateLimiter extends DurableObject<Env> {
  private bucket: BucketState = EMPTY_BUCKET;

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
}
