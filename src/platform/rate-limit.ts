import { callerRateBuckets, chargeRateBuckets } from "./client-address";
import type { AppContext } from "./context";
import { ApiError, type ErrorCode } from "./errors";
import type { Defer } from "./rate-lease";

/** The request's waitUntil (absent outside a fetch event, e.g. some tests). */
function deferOf(c: AppContext): Defer | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

/** What one public-or-keyed operation is limited as, and how its refusal reads. */
export interface CallerRateLimit {
  /** Bucket family: `<family>_tenant:<id>` with a key, `<family>_public…` without (client-address.ts). */
  family: string;
  /** Requests per minute per network address without a key (with one: the tenant's limit). */
  publicPerMinute: number;
  /** The contract's error code of the 429. */
  code: ErrorCode;
  /** What is counted, plural, for the message ("verifications", "lookups"). */
  noun: string;
  /** The `RateLimit-Policy` name. */
  policy: string;
}

/**
 * Charges the caller's buckets (the tenant with a key; without, the network address, or the unattributed buckets
 * when none is known) and throws the 429 with Retry-After (whole seconds, at least 1) when one is exhausted.
 */
export async function chargeCaller(c: AppContext, limit: CallerRateLimit): Promise<void> {
  const buckets = await callerRateBuckets(c.get("principal"), c.req.raw.headers, c.env, limit.family, limit.publicPerMinute);
  const { decision, perMinute } = await chargeRateBuckets(c.env.RATE_LIMITER, buckets, 1, deferOf(c));
  if (decision.allowed) return;
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new ApiError(limit.code, `At most ${perMinute} ${limit.noun} per minute; retry in ${retryAfter} s.`, {
    headers: { "Retry-After": String(retryAfter), "RateLimit-Policy": `"${limit.policy}";q=${perMinute};w=60` },
  });
}
