import { describe, expect, it } from "vitest";
import { type LeaseDecision, type LeasingNamespace, spendRate } from "../../../src/platform/rate-lease";

/*
 * The isolate lease in front of the RateLimiter object must admit exactly the limit even when the object answers
 * slowly (a loaded machine): waiters then stop waiting after WAIT_MAX_MS and ask the object themselves, so
 * several calls are out at once, each allowed one leasing units the others' refusals never see. Units the object
 * charged to this isolate's lease must still be spent, or a burst is admitted short of its limit.
 */

/** An exact bucket (no refill within the test) answering after `delayMs`, decided when the call arrives. */
function slowObject(limit: number, delayMs: number) {
  let level = 0;
  const calls = { take: 0, giveBack: 0 };
  const stub = {
    async take(_name: string, _limit: number, _period: number, cost: number, want: number, giveBack = 0): Promise<LeaseDecision> {
      calls.take++;
      level = Math.max(0, level - giveBack);
      let decision: LeaseDecision;
      if (level + cost > limit) decision = { allowed: false, retryAfterMs: 1_000, leased: 0 };
      else {
        const leased = Math.max(0, Math.min(want, limit - level - cost));
        level += cost + leased;
        decision = { allowed: true, retryAfterMs: 0, leased };
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return decision;
    },
    async giveBack(_name: string, _limit: number, _period: number, cost: number) {
      calls.giveBack++;
      level = Math.max(0, level - cost);
    },
  };
  const namespace = { idFromName: (name: string) => name as unknown as DurableObjectId, get: () => stub } as LeasingNamespace;
  return { namespace, calls, level: () => level };
}

describe("rate lease (#19)", () => {
  it("admits exactly the limit from a burst when the object answers slower than a waiter waits", async () => {
    const { namespace, level } = slowObject(60, 1_200);
    const bucket = `api_key:key_slow_${Math.random().toString(36).slice(2)}`;
    const answers = await Promise.all(Array.from({ length: 200 }, () => spendRate(namespace, bucket, 60, 1)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(60);
    expect(level()).toBe(60);
  });

  it("admits exactly the limit when the object answers at once", async () => {
    const { namespace, level } = slowObject(60, 0);
    const bucket = `api_key:key_fast_${Math.random().toString(36).slice(2)}`;
    const answers = await Promise.all(Array.from({ length: 200 }, () => spendRate(namespace, bucket, 60, 1)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(60);
    expect(level()).toBe(60);
  });
});
