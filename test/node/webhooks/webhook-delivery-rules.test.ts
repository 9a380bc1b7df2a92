import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_SCHEDULE, judgeAttempt, nextAttemptDelayMs, parseRetryAfter } from "../../../src/webhooks/retry-policy";

const answer = (status: number) => ({ kind: "answer" as const, status, bodySha256: "0".repeat(64), retryAfterSeconds: null });

describe("webhook attempt rules", () => {
  it("2xx acknowledges; 408, 425, 429, 5xx and network errors retry; 3xx and other answers end", () => {
    for (const s of [200, 201, 202, 204, 299]) expect(judgeAttempt(answer(s))).toEqual({ outcome: "acknowledged" });
    for (const s of [408, 425, 429, 500, 502, 503, 504, 599]) expect(judgeAttempt(answer(s))).toEqual({ outcome: "retry" });
    for (const s of [301, 302, 307, 308]) expect(judgeAttempt(answer(s))).toEqual({ outcome: "ended", reason: "redirect_not_followed" });
    for (const s of [400, 401, 403, 404, 409, 410, 413, 422])
      expect(judgeAttempt(answer(s))).toEqual({ outcome: "ended", reason: "receiver_rejected" });
    expect(judgeAttempt({ kind: "error", error: "timeout" })).toEqual({ outcome: "retry" });
    expect(judgeAttempt({ kind: "error", error: "network_error" })).toEqual({ outcome: "retry" });
    expect(judgeAttempt({ kind: "refused", transient: true })).toEqual({ outcome: "retry" });
    expect(judgeAttempt({ kind: "refused", transient: false })).toEqual({ outcome: "ended", reason: "destination_refused" });
  });

  it("reads Retry-After as seconds or an HTTP date, capped at a day", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2);
    expect(parseRetryAfter(" 120 ", now)).toBe(120);
    expect(parseRetryAfter("999999999", now)).toBe(86_400);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });

  it("follows the schedule with ±10% jitter, never sooner than Retry-After, and stops when it is spent", () => {
    expect(DEFAULT_RETRY_SCHEDULE).toHaveLength(9); // 10 attempts in all
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 1, null, () => 0.5)).toBe(5_000);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 1, null, () => 0)).toBe(4_500);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 1, null, () => 0.999999)).toBeLessThanOrEqual(5_500);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 2, null, () => 0.5)).toBe(300_000);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 1, 60, () => 0.5)).toBe(60_000);
    expect(nextAttemptDelayMs([1], 1, 2, () => 0)).toBe(2_000);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 9, null, () => 0.5)).toBe(86_400_000);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 10, null, () => 0.5)).toBeNull();
  });
});
