import { boundErrorBody, retryAfterSeconds } from "./errors.ts";

/** How the client retries (SPEC "Client rules"). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** First backoff step when the answer has no Retry-After (default 500 ms); doubles at each retry, full jitter. */
  baseDelayMs?: number;
  /** Ceiling of one backoff step (default 30 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited out: the error is returned at once (default 120 s). */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for the jitter (tests pin it). */
  random?: () => number;
}

export interface ResolvedRetry {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  random: () => number;
}

export function resolveRetry(options: RetryOptions | false | undefined): ResolvedRetry {
  const o = options === false ? { maxAttempts: 1 } : (options ?? {});
  return {
    maxAttempts: Math.max(1, Math.floor(o.maxAttempts ?? 4)),
    baseDelayMs: Math.max(0, o.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, o.maxDelayMs ?? 30_000),
    maxRetryAfterMs: Math.max(0, o.maxRetryAfterMs ?? 120_000),
    random: o.random ?? Math.random,
  };
}

/**
 * Whether an answer may be retried: 429 and 503 always; any other error only when its envelope says
 * `retryable: true`. A body that is not an envelope (or not JSON) is not retryable.
 */
export async function isRetryable(response: Response): Promise<boolean> {
  if (response.ok) return false;
  if (response.status === 429 || response.status === 503) return true;
  if (!(response.headers.get("content-type") ?? "").includes("json")) return false;
  try {
    const body = (await response.clone().json()) as { retryable?: unknown } | null;
    return body?.retryable === true;
  } catch {
    return false;
  }
}

/** The wait before retry number `retry` (1-based): at least Retry-After when given, else exponential with full jitter. */
export function retryDelayMs(retry: number, response: Response, policy: ResolvedRetry): number | null {
  const after = retryAfterSeconds(response.headers);
  if (after !== null) {
    const ms = after * 1000;
    if (ms > policy.maxRetryAfterMs) return null;
    // "at least Retry-After": a little jitter on top spreads clients released at the same instant.
    return ms + Math.floor(policy.random() * Math.min(1000, policy.baseDelayMs));
  }
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * step);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

type Fetch = (request: Request) => Promise<Response>;

/**
 * One logical request, sent again while the answer is retryable. The body is read once and re-sent unchanged, and
 * every header (the Idempotency-Key included) is the same on every attempt: the service then replays or finishes
 * the one operation instead of doing it twice.
 */
export async function fetchWithRetry(fetchImpl: Fetch, request: Request, policy: ResolvedRetry): Promise<Response> {
  const body = request.body ? await request.arrayBuffer() : null;
  const signal = request.signal;
  for (let attempt = 1; ; attempt++) {
    // an error body is read here, bounded, before anything (the retry check, openapi-fetch) parses it whole
    const response = await boundErrorBody(await fetchImpl(new Request(request, body === null ? {} : { body })));
    if (attempt >= policy.maxAttempts || !(await isRetryable(response))) return response;
    const delay = retryDelayMs(attempt, response, policy);
    if (delay === null) return response;
    await response.body?.cancel().catch(() => undefined);
    await sleep(delay, signal);
  }
}
