import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "../../../src/durable-objects/leaky-bucket";
import type { LeaseDecision, LeasingNamespace } from "../../../src/platform/rate-lease";

/*
 * #19: the anonymous front (rate-lease.ts). An isolate admits a small anonymous bucket's unit on its own and reports
 * it later in a batch. Its stated bound: one isolate alone admits exactly the limit (a burst, sequential calls, calls
 * across a report); across isolates at most one unit more per isolate, every unit charged (none lost), so the excess
 * is repaid by refusing longer; refusals keep their Retry-After.
 */

type RateLease = typeof import("../../../src/platform/rate-lease");

/** A fresh copy of the module: what one more isolate holds. */
async function isolate(): Promise<RateLease> {
  vi.resetModules();
  return import("../../../src/platform/rate-lease");
}

/** The RateLimiter's named-bucket semantics (durable-objects/rate-limiter.ts) on the real leaky bucket, counting calls. */
function object(options: { failReports?: boolean } = {}) {
  const buckets = new Map<string, BucketState>();
  const calls = { take: 0, report: 0, reportedUnits: 0 };
  const forced = (name: string, limit: number, units: number, now: number) => {
    const state = refundBucket(buckets.get(name) ?? EMPTY_BUCKET, now, limit, 60_000, 0);
    buckets.set(name, { level: state.level + units, updatedAt: now });
  };
  const fits = (name: string, limit: number, now: number) => {
    const probe = leakyBucket(buckets.get(name) ?? EMPTY_BUCKET, now, limit, 60_000, 1);
    return probe.allowed ? 0 : probe.retryAfterMs;
  };
  const stub = {
    async take(name: string, limit: number, _p: number, cost: number, want: number, giveBack = 0, admitted = 0): Promise<LeaseDecision> {
      calls.take++;
      await Promise.resolve();
      const now = Date.now();
      if (giveBack > 0) buckets.set(name, refundBucket(buckets.get(name) ?? EMPTY_BUCKET, now, limit, 60_000, giveBack));
      if (admitted > 0) forced(name, limit, admitted, now);
      const decision = leakyBucket(buckets.get(name) ?? EMPTY_BUCKET, now, limit, 60_000, cost);
      if (!decision.allowed) return { allowed: false, retryAfterMs: decision.retryAfterMs, leased: 0, fullForMs: decision.retryAfterMs };
      const leased = Math.max(0, Math.min(want, Math.floor(limit - decision.state.level)));
      buckets.set(name, { level: decision.state.level + leased, updatedAt: now });
      return { allowed: true, retryAfterMs: 0, leased, fullForMs: fits(name, limit, now) };
    },
    async giveBack(name: string, limit: number, _p: number, cost: number) {
      buckets.set(name, refundBucket(buckets.get(name) ?? EMPTY_BUCKET, Date.now(), limit, 60_000, cost));
    },
    async report(charges: [string, number, number][]): Promise<number[]> {
      calls.report++;
      await Promise.resolve();
      if (options.failReports) throw new Error("object unavailable");
      const now = Date.now();
      return charges.map(([name, limit, units]) => {
        calls.reportedUnits += units;
        forced(name, limit, units, now);
        return fits(name, limit, now);
      });
    },
  };
  const namespace = { idFromName: (name: string) => name as unknown as DurableObjectId, get: () => stub } as unknown as LeasingNamespace;
  const level = (name: string) => refundBucket(buckets.get(name) ?? EMPTY_BUCKET, Date.now(), 10, 60_000, 0).level;
  return { namespace, calls, level };
}

const stub = (namespace: LeasingNamespace) => namespace.get(namespace.idFromName("any"));
const address = () => `verify_public:${Math.random().toString(36).slice(2)}`;
/** Collects the reports a request would leave to its waitUntil. */
function deferred() {
  const pending: Promise<unknown>[] = [];
  return { defer: (p: Promise<unknown>) => void pending.push(p), pending };
}

describe("#19 anonymous rate front", () => {
  let lease: RateLease;
  beforeEach(async () => {
    lease = await isolate();
  });

  it("serves only anonymous buckets too small for a lease", () => {
    expect(lease.frontServes("verify_public:abc", 10)).toBe(true);
    expect(lease.frontServes("verify_public_unattributed_pool", 100)).toBe(false); // leased instead
    expect(lease.frontServes("api_key:key_1", 10)).toBe(false);
    expect(lease.frontServes("verify_tenant:ten_1", 10)).toBe(false);
  });

  it("a burst from one address to one isolate is admitted exactly the limit, every unit charged, refusals with Retry-After", async () => {
    const { namespace, level, calls } = object();
    const name = address();
    const { defer, pending } = deferred();
    const answers = await Promise.all(Array.from({ length: 40 }, () => lease.spendRate(namespace, name, 10, 1, defer)));
    await Promise.all(pending);
    await lease.sendRateReports(namespace);
    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
    for (const refused of answers.filter((a) => !a.allowed)) expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(level(name)).toBeCloseTo(10, 0); // less what drained meanwhile (the report waited its second)
    expect(calls.take).toBeLessThan(40); // refusals are answered from the isolate once the object said full
  });

  it("sequential calls, with and without a report between each, are admitted exactly the limit", async () => {
    for (const reportBetween of [false, true]) {
      const { namespace, level } = object();
      const name = address();
      let allowed = 0;
      for (let i = 0; i < 25; i++) {
        if ((await lease.spendRate(namespace, name, 10, 1)).allowed) allowed++;
        if (reportBetween) await lease.sendRateReports(namespace);
      }
      await lease.sendRateReports(namespace);
      expect(allowed, reportBetween ? "reports between" : "no reports").toBe(10);
      expect(level(name)).toBeCloseTo(10, 1);
    }
  });

  it("once full, the isolate refuses without a call, with the object's Retry-After counting down", async () => {
    const { namespace, calls } = object();
    const name = address();
    for (let i = 0; i < 10; i++) expect((await lease.spendRate(namespace, name, 10, 1)).allowed).toBe(true);
    const takes = calls.take;
    const first = await lease.spendRate(namespace, name, 10, 1);
    const second = await lease.spendRate(namespace, name, 10, 1);
    expect(first.allowed).toBe(false);
    expect(second.allowed).toBe(false);
    expect(calls.take).toBe(takes);
    expect(first.retryAfterMs).toBeGreaterThan(5_000); // one unit of 10 a minute drains in 6 s
    expect(first.retryAfterMs).toBeLessThanOrEqual(6_000);
    expect(second.retryAfterMs).toBeLessThanOrEqual(first.retryAfterMs);
  });

  it("across isolates a burst exceeds the limit by at most one per isolate, and the excess is charged (repaid)", async () => {
    const { namespace, level } = object();
    const name = address();
    const isolates = [lease, await isolate(), await isolate(), await isolate()];
    let allowed = 0;
    // Each isolate in turn, then all at once, with reports left pending in between.
    for (const each of isolates) for (let i = 0; i < 6; i++) if ((await each.spendRate(namespace, name, 10, 1)).allowed) allowed++;
    const together = await Promise.all(isolates.flatMap((each) => Array.from({ length: 5 }, () => each.spendRate(namespace, name, 10, 1))));
    allowed += together.filter((a) => a.allowed).length;
    for (const each of isolates) await each.sendRateReports(namespace);
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + isolates.length);
    expect(level(name)).toBeCloseTo(allowed, 1); // no admitted unit is lost
    // Repaid: the object refuses until the level is back under the limit, longer than one unit's drain when over it.
    const direct = await stub(namespace).take(name, 10, 60, 1, 0);
    expect(direct.allowed).toBe(false);
    expect(direct.retryAfterMs).toBeGreaterThan((allowed - 10) * 6_000);
  });

  it("over ten simulated minutes of calls from four isolates, any 60 s admit at most limit + limit + 4, the whole run limit + its drain + 4", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { namespace } = object();
      const name = address();
      const isolates = [lease, await isolate(), await isolate(), await isolate()];
      const start = Date.now();
      const admitted: number[] = [];
      let seed = 7;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      for (let t = 0; t < 600_000; t += Math.floor(random() * 400)) {
        vi.setSystemTime(start + t);
        const each = isolates[Math.floor(random() * isolates.length)]!;
        if (random() < 0.3) await each.sendRateReports(namespace);
        if ((await each.spendRate(namespace, name, 10, 1)).allowed) admitted.push(t);
      }
      for (const from of admitted) expect(admitted.filter((t) => t >= from && t < from + 60_000).length).toBeLessThanOrEqual(10 + 10 + 4);
      expect(admitted.length).toBeLessThanOrEqual(10 + 100 + 4);
      expect(admitted.length).toBeGreaterThanOrEqual(100); // and the limit is still served
    } finally {
      vi.useRealTimers();
    }
  });

  it("new addresses need no object call on the request path; their units reach the shards in one report per shard", async () => {
    const { namespace, calls } = object();
    const { defer, pending } = deferred();
    const names = Array.from({ length: 200 }, address);
    const answers = await Promise.all(names.map((name) => lease.spendRate(namespace, name, 10, 1, defer)));
    expect(answers.every((a) => a.allowed)).toBe(true);
    expect(calls.take).toBe(0);
    expect(pending.length).toBeGreaterThan(0);
    await lease.sendRateReports(namespace);
    expect(calls.reportedUnits).toBe(200);
    expect(calls.report).toBeLessThanOrEqual(lease.ANON_SHARDS);
  });

  it("a failed report loses nothing: its units ride with the bucket's next call", async () => {
    const failing = object({ failReports: true });
    const name = address();
    expect((await lease.spendRate(failing.namespace, name, 10, 1)).allowed).toBe(true);
    await lease.sendRateReports(failing.namespace);
    expect(failing.level(name)).toBe(0);
    expect((await lease.spendRate(failing.namespace, name, 10, 1)).allowed).toBe(true); // a call, carrying the first unit
    expect(failing.level(name)).toBeCloseTo(2, 1);
  });

  it("keyed buckets never go through the front, however small their limit", async () => {
    const { namespace, calls } = object();
    for (let i = 0; i < 5; i++) await lease.spendRate(namespace, `api_key:key_${Math.random()}`, 10, 1);
    expect(calls.take).toBe(5);
  });
});
