/**
 * Leaky-bucket rate limiting: at most `limit` requests per `periodMs`, bursts up to `limit`.
 * The state is the bucket's level in requests and when it was last updated; the level drains at
 * `limit / periodMs`. Keeping the level in requests (not in time, as GCRA does) means a changed limit
 * applies from the next request with the capacity already used carried over. A refused request changes
 * nothing, so it uses no capacity.
 */
export interface BucketState {
  level: number;
  updatedAt: number;
}

export interface BucketDecision {
  allowed: boolean;
  state: BucketState;
  /** Milliseconds until this request would be allowed (0 when allowed). */
  retryAfterMs: number;
  /** Whole requests still allowed right now after this one. */
  remaining: number;
  /** Milliseconds until the bucket is empty again. */
  resetMs: number;
}

export const EMPTY_BUCKET: BucketState = { level: 0, updatedAt: 0 };

export function leakyBucket(state: BucketState, now: number, limit: number, periodMs: number, cost = 1): BucketDecision {
  const ratePerMs = limit / periodMs;
  const level = Math.max(0, state.level - Math.max(0, now - state.updatedAt) * ratePerMs);
  if (level + cost > limit + 1e-9) {
    return {
      allowed: false,
      state,
      retryAfterMs: Math.max(1, Math.ceil((level + cost - limit) / ratePerMs)),
      remaining: 0,
      resetMs: Math.ceil(level / ratePerMs),
    };
  }
  const next = { level: level + cost, updatedAt: now };
  return {
    allowed: true,
    state: next,
    retryAfterMs: 0,
    remaining: Math.max(0, Math.floor(limit - next.level + 1e-9)),
    resetMs: Math.ceil(next.level / ratePerMs),
  };
}

/**
 * Gives back `cost` requests a caller was allowed but did not use (a refused request). Draining is linear and
 * clamped at zero, so charging then refunding leaves the bucket exactly where it would be had the request never
 * been charged; in between, the units were held like any other request's, so concurrent callers never overspend.
 */
export function refundBucket(state: BucketState, now: number, limit: number, periodMs: number, cost: number): BucketState {
  const level = Math.max(0, state.level - Math.max(0, now - state.updatedAt) * (limit / periodMs));
  return { level: Math.max(0, level - cost), updatedAt: now };
}
