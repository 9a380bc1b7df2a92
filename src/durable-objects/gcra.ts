/**
 * Generic cell rate algorithm: `limit` requests per `periodMs`, bursts up to `limit`.
 * State is one number, the theoretical arrival time (TAT). Exact: a refused request changes nothing,
 * so it uses no capacity.
 */
export interface GcraDecision {
  allowed: boolean;
  /** New TAT to store when allowed (unchanged when refused). */
  tat: number;
  /** Milliseconds until one more request would be allowed (0 when allowed). */
  retryAfterMs: number;
  /** Requests still allowed right now after this one. */
  remaining: number;
  /** Milliseconds until the bucket is completely refilled. */
  resetMs: number;
}

export function gcra(storedTat: number, now: number, limit: number, periodMs: number, cost = 1): GcraDecision {
  const interval = periodMs / limit;
  const tolerance = periodMs - interval;
  const tat = Math.max(storedTat, now);
  const newTat = tat + interval * cost;
  const allowAt = newTat - periodMs;
  if (allowAt > now + 1e-9) {
    return {
      allowed: false,
      tat: storedTat,
      retryAfterMs: Math.ceil(allowAt - now),
      remaining: 0,
      resetMs: Math.ceil(tat - now),
    };
  }
  const remaining = Math.max(0, Math.floor((now - (newTat - tolerance - interval)) / interval) - 1);
  return { allowed: true, tat: newTat, retryAfterMs: 0, remaining: Math.min(limit - 1, remaining), resetMs: Math.ceil(newTat - now) };
}
