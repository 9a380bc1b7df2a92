import type { Bindings } from "../env";
import { configOf } from "../platform/config";
import type { TerminalReason } from "./schemas";

/*
 * The retry policy of deliveries (SPEC "Events", retries): which answers acknowledge, retry or end, how long to
 * wait before the next attempt, and how a receiver's Retry-After is read. Pure functions, no I/O.
 */

/** Delays (s) before attempts 2, 3, …: Standard Webhooks' example schedule, 10 attempts over about 3 days. */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
/** A Retry-After above this is capped (a receiver cannot park a delivery for longer than a day per attempt). */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** SVC_WEBHOOK_RETRY_SCHEDULE when set and well formed, else DEFAULT_RETRY_SCHEDULE. */
export function retrySchedule(env: Bindings): readonly number[] {
  return configOf(env).webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE;
}

/** What one attempt produced, before any bookkeeping. */
export type AttemptResult =
  | { kind: "answer"; status: number; bodySha256: string; retryAfterSeconds: number | null }
  | { kind: "error"; error: "timeout" | "network_error" | "internal_error" }
  | { kind: "refused"; transient: boolean };

export type AttemptVerdict = { outcome: "acknowledged" } | { outcome: "retry" } | { outcome: "ended"; reason: TerminalReason };

/** SPEC "Events", retries: 2xx acknowledges; 408, 425, 429, 5xx and network errors retry; anything else ends. */
export function judgeAttempt(result: AttemptResult): AttemptVerdict {
  if (result.kind === "error") return { outcome: "retry" };
  if (result.kind === "refused") return result.transient ? { outcome: "retry" } : { outcome: "ended", reason: "destination_refused" };
  const s = result.status;
  if (s >= 200 && s < 300) return { outcome: "acknowledged" };
  if (s >= 300 && s < 400) return { outcome: "ended", reason: "redirect_not_followed" };
  if (s === 408 || s === 425 || s === 429 || s >= 500) return { outcome: "retry" };
  return { outcome: "ended", reason: "receiver_rejected" };
}

/** Retry-After as whole seconds (delta-seconds or an HTTP date), capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS);
  // An HTTP-date names its day and month (RFC 9110 §5.6.7); anything else (e.g. "-5") is unreadable.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/**
 * Milliseconds until the next attempt after `attemptsMade` attempts, or null when the schedule is spent.
 * Jitter ±10% spreads retries; a Retry-After is a floor (the next attempt is never sooner).
 */
export function nextAttemptDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterSeconds: number | null,
  random = Math.random,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (0.9 + 0.2 * random());
  return Math.ceil(Math.max(jittered, (retryAfterSeconds ?? 0) * 1000));
}
