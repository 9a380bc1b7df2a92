import { expect, vi } from "vitest";
import { type BucketState, EMPTY_BUCKET, leakyBucket, refundBucket } from "../../../src/durable-objects/leaky-bucket";
import { FrontLedger } from "../../../src/durable-objects/rate-front";
import { FRONT, type LeaseDecision, type LeasingNamespace, shardOf } from "../../../src/platform/rate-lease";

/*
 * The #19 anonymous rate front's test harness (rate-front.security.test.ts, rate-front.review.test.ts): isolates are
 * fresh copies of platform/rate-lease.ts, shards run the object's own bookkeeping (FrontLedger) and leaky bucket with
 * the take/settle rules of durable-objects/rate-limiter.ts — mirrored here on purpose, in this one place, so the
 * isolate is tested against what the object decides without a Workers runtime.
 */

export type RateLease = typeof import("../../../src/platform/rate-lease");
export const LIMIT = 10; // the public verify's per-address limit
export const G = FRONT.grantsPerObject;

export async function isolate(): Promise<RateLease> {
  vi.resetModules();
  return import("../../../src/platform/rate-lease");
}
/** `n` isolates, made one at a time: made concurrently (Promise.all) they would be one module copy, i.e. ONE isolate. */
export async function makeIsolates(n: number): Promise<RateLease[]> {
  const out: RateLease[] = [];
  for (let i = 0; i < n; i++) out.push(await isolate());
  expect(new Set(out).size).toBe(n);
  return out;
}

/** The bucket charged `units` whatever its level (a unit already admitted), as the object does. */
export const forced = (state: BucketState, now: number, limit: number, units: number): BucketState => {
  const level = Math.max(0, state.level - Math.max(0, now - state.updatedAt) * (limit / 60_000));
  return { level: level + units, updatedAt: now };
};

export interface Hooks {
  /** The object decides the take (and may give a grant), but its answer never reaches the isolate. */
  loseAnswer?: (name: string, wantGrant: boolean) => boolean;
  /** The take never reaches the object and never answers (a request cancelled mid-call). */
  hang?: (name: string, wantGrant: boolean) => boolean;
  /** The shard is failing: take and settle reject. */
  failing?: () => boolean;
  /** The object's clock runs this far from the isolate's (ms). */
  skewMs?: number;
  /** Holds a take that carries an `admitted` unit on the wire until the promise resolves (calls overtaking it). */
  delayAdmitted?: (name: string) => Promise<void> | undefined;
  /** Settles only: they reject ("fail") or never answer ("hang"); takes still work. */
  settle?: "ok" | "fail" | "hang";
}

/** Shards that decide as durable-objects/rate-limiter.ts does (take with `admitted` and grants, settle), one ledger each. */
export function shards(hooks: Hooks = {}) {
  const buckets = new Map<string, BucketState>();
  const ledgers = new Map<string, FrontLedger>();
  const calls = { take: 0, settle: 0, grants: 0, lostAnswers: 0, settledIds: [] as string[], settledUnits: 0 };
  let ids = 0;
  const ledgerOf = (shard: string) => {
    let ledger = ledgers.get(shard);
    if (!ledger) ledgers.set(shard, (ledger = new FrontLedger({ put() {}, delete() {} }, () => `${shard}#${++ids}`)));
    return ledger;
  };
  const stubOf = (shard: string) => ({
    async take(
      name: string,
      limit: number,
      _p: number,
      cost: number,
      want: number,
      giveBack = 0,
      admitted = 0,
      wantGrant = false,
    ): Promise<LeaseDecision> {
      calls.take++;
      await Promise.resolve();
      // Awaited only when set: one more await in every take changes how concurrent takes interleave, and the one-isolate
      // burst test (rate-front.security) was written against a take with none here.
      if (admitted > 0 && hooks.delayAdmitted) await hooks.delayAdmitted(name);
      if (hooks.hang?.(name, wantGrant)) return new Promise<LeaseDecision>(() => {});
      if (hooks.failing?.()) throw new Error("shard unavailable");
      const now = Date.now() + (hooks.skewMs ?? 0);
      let state = buckets.get(name) ?? EMPTY_BUCKET;
      if (giveBack > 0) state = refundBucket(state, now, limit, 60_000, giveBack);
      if (admitted > 0) state = forced(state, now, limit, admitted);
      const decision = leakyBucket(state, now, limit, 60_000, cost);
      const leased = decision.allowed ? Math.max(0, Math.min(want, Math.floor(limit - decision.state.level + 1e-9))) : 0;
      const after = decision.allowed ? { level: decision.state.level + leased, updatedAt: now } : state;
      buckets.set(name, after);
      ledgerOf(shard).noteFull(name, after, now, limit, 60_000);
      const grant = wantGrant ? ledgerOf(shard).grant(now) : undefined;
      if (grant) calls.grants++;
      if (hooks.loseAnswer?.(name, wantGrant)) {
        calls.lostAnswers++;
        return new Promise<LeaseDecision>(() => {});
      }
      return { allowed: decision.allowed, retryAfterMs: decision.allowed ? 0 : decision.retryAfterMs, leased, ...(grant ? { grant } : {}) };
    },
    async giveBack(name: string, limit: number, _p: number, cost: number) {
      buckets.set(name, refundBucket(buckets.get(name) ?? EMPTY_BUCKET, Date.now(), limit, 60_000, cost));
    },
    async settle(id: string, charges: [string, number][]) {
      calls.settle++;
      calls.settledIds.push(id);
      if (hooks.failing?.() || hooks.settle === "fail") throw new Error("shard unavailable");
      if (hooks.settle === "hang") return new Promise<void>(() => {});
      const now = Date.now() + (hooks.skewMs ?? 0);
      ledgerOf(shard).settled(id);
      for (const [name, limit] of charges) {
        const state = forced(buckets.get(name) ?? EMPTY_BUCKET, now, limit, 1);
        buckets.set(name, state);
        ledgerOf(shard).noteFull(name, state, now, limit, 60_000);
        calls.settledUnits++;
      }
    },
  });
  const stubs = new Map<string, ReturnType<typeof stubOf>>();
  const namespace = {
    idFromName: (name: string) => name as unknown as DurableObjectId,
    get: (id: DurableObjectId) => {
      const shard = id as unknown as string;
      if (!stubs.has(shard)) stubs.set(shard, stubOf(shard));
      return stubs.get(shard)!;
    },
  } as unknown as LeasingNamespace;
  return { namespace, calls, ledgerOf, buckets };
}

let serial = 0;
/** A fresh anonymous bucket name. */
export const address = () => `verify_public:addr${++serial}`;
/** Another address of the same shard as `name` (so a request for it takes or spends that shard's grant). */
export function neighbour(name: string): string {
  for (;;) {
    const other = address();
    if (shardOf(other) === shardOf(name)) return other;
  }
}
/** What a request's waitUntil would keep (settles, grant timers); tests empty it before each. */
export const pending: Promise<unknown>[] = [];
export const defer = (p: Promise<unknown>) => void pending.push(p);

/** A FrontLedger store kept in memory (what it puts is readable back, for a restart). */
export const memoryStore = () => {
  const kept = new Map<string, number>();
  return { kept, put: (k: string, v: number) => void kept.set(k, v), delete: (k: string) => void kept.delete(k) };
};
