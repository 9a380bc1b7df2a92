import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GateConfig, GateDecision } from "../../../src/durable-objects/webhook-endpoint-gate";
import { verifyTenantChain } from "../../../src/governance/audit/service";
import type { AuditDraft } from "../../../src/platform/audit";
import { forgetRateLeases, shardOf, spendRate } from "../../../src/platform/rate-lease";
import { LEASE_MS } from "../../../src/webhooks/delivery";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { createTenant, testEnv } from "../support/helpers";
import { createEndpoint, pendingDeliveries, sleep } from "../support/webhooks.helpers";

/*
 * #22 faults: each Durable Object restarted for real in the middle of its work. `state.abort()` inside the object
 * (through runInDurableObject) is workerd's own reset: the instance and its memory are gone, its storage is kept,
 * every call in flight or waiting in it rejects, every stub that reached it is broken, and the next stub gets a fresh
 * instance built from storage (what a deploy or an eviction under a crash does in production). Each test states what
 * the object promises across that, and checks it on the real object.
 */

/** Restarts the object behind `stub` (the abort rejects the call that makes it: that is the restart). */
async function restart(stub: DurableObjectStub): Promise<void> {
  const run = runInDurableObject as unknown as (s: unknown, fn: (i: unknown, state: DurableObjectState) => unknown) => Promise<unknown>;
  await expect(run(stub, (_instance, state) => state.abort("campaign drill: restart"))).rejects.toThrow(/restart/);
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

type GateStub = DurableObjectStub & {
  acquire(config: GateConfig, maxWaitMs?: number): Promise<GateDecision>;
  inFlight(): Promise<number>;
  release(leaseId: string): Promise<void>;
};
const gateOf = (name: string) => testEnv.WEBHOOK_GATE.get(testEnv.WEBHOOK_GATE.idFromName(name)) as unknown as GateStub;

async function storedGate(stub: DurableObjectStub) {
  const run = runInDurableObject as unknown as <T>(s: unknown, fn: (i: unknown, state: DurableObjectState) => Promise<T>) => Promise<T>;
  return run(stub, (_i, state) => state.storage.get<{ grants: number[]; leases: Record<string, number> }>("state"));
}

describe("webhook endpoint gate restarted mid-delivery", () => {
  it("deliveries in flight at the restart are each delivered once; concurrency holds across it; their leases are freed on a fresh stub", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 3, rate_limit_per_minute: 600 });
    const ids = await pendingDeliveries(tenantId, endpointId, 12);
    const gateName = endpointId; // delivery-run names the gate after the endpoint
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    let restarted: Promise<void> | null = null;
    // A receiver that counts requests in flight; the third concurrent request restarts the gate while all three
    // slots are held (the POSTs go on: they do not run in the gate).
    const fetcher: typeof fetch = async (_input, init) => {
      const headers = new Headers(init?.headers);
      sent.push(headers.get("svc-delivery-id")!);
      most = Math.max(most, ++inFlight);
      if (inFlight === 3 && !restarted) restarted = restart(gateOf(gateName));
      await sleep(restarted ? 200 : 20);
      inFlight--;
      return new Response("ok", { status: 200, headers: { "content-length": "2" } });
    };
    const deps = { fetcher, random: () => 0.5 };
    const first = await deliverBatch(testEnv, ids, deps);
    await restarted;
    expect(restarted).not.toBeNull();
    // The run failed at its next gate call (its stub broke): its messages are handed back for retry.
    expect(first.some((e) => e !== null)).toBe(true);
    // The run freed its leases on a fresh stub (the old one broke with the restart): the endpoint is not stalled
    // until they lapse, and a new delivery is granted at once.
    const gate = gateOf(gateName);
    expect(await gate.inFlight()).toBe(0);
    const granted = await gate.acquire({ maxConcurrency: 3, ratePerMinute: 600, leaseMs: LEASE_MS });
    expect(granted.granted).toBe(true);
    if (granted.granted) await gate.release(granted.leaseId);
    // What the queue does with the retried messages: the same ids again, until none errs.
    let retry = ids.filter((_, i) => first[i] !== null);
    for (let round = 0; round < 5 && retry.length > 0; round++) {
      const outcomes = await deliverBatch(testEnv, retry, deps);
      retry = retry.filter((_, i) => outcomes[i] !== null);
    }
    expect(retry).toEqual([]);
    // Exactly once each: every delivery POSTed once, recorded delivered on its first attempt; never over 3 at once.
    expect([...sent].sort()).toEqual([...ids].sort());
    expect(most).toBeLessThanOrEqual(3);
    const rows = await testEnv.DB.prepare("SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(endpointId)
      .all<{ status: string; attempt_count: number }>();
    expect(rows.results).toHaveLength(12);
    expect(rows.results.every((r) => r.status === "delivered" && r.attempt_count === 1)).toBe(true);
  }, 90_000);

  it("the rate log survives: grants before and after a restart together never pass the limit; every grant answered was stored", async () => {
    const name = `whe_drillrate${Date.now()}`;
    const config: GateConfig = { maxConcurrency: 100, ratePerMinute: 10, leaseMs: 400 };
    const stub = gateOf(name);
    // A burst with the restart queued among it: calls before it are answered, calls behind it reject.
    const burst = Array.from({ length: 8 }, () => settle(stub.acquire(config)));
    await burst[0]; // the object is running and answering: the restart lands among the burst
    const restarting = restart(stub);
    const more = Array.from({ length: 6 }, () => settle(stub.acquire(config)));
    await restarting;
    const answered = (await Promise.all([...burst, ...more])).flatMap((r) => (r.ok && r.value.granted ? [r.value.leaseId] : []));
    // Acknowledged ⇒ durable: each grant a caller was given is in the fresh instance's state.
    const fresh = gateOf(name);
    const stored = await storedGate(fresh);
    expect(answered.length).toBeGreaterThan(0);
    for (const leaseId of answered) expect(stored?.leases[leaseId]).toBeDefined();
    // Then the fresh gate grants only what the window has left.
    const after: GateDecision[] = [];
    for (let i = 0; i < 20; i++) after.push(await fresh.acquire(config));
    const grantedAfter = after.filter((d) => d.granted).length;
    expect(answered.length + grantedAfter).toBeLessThanOrEqual(10);
    expect((stored?.grants.length ?? 0) + grantedAfter).toBe(10); // a stored grant whose answer was lost still counts (safe side)
    expect(after.at(-1)).toMatchObject({ granted: false, reason: "rate" });
    // Leases (400 ms here) expire across the restart too: after them the rate, not concurrency, is what refuses.
    await sleep(500);
    expect(await fresh.inFlight()).toBe(0);
  });
});

describe("rate limiter restarted mid-burst", () => {
  type Limiter = DurableObjectStub & {
    take(
      name: string,
      limit: number,
      periodSeconds: number,
      cost: number,
      want: number,
      giveBack?: number,
    ): Promise<{ allowed: boolean; leased: number }>;
  };
  const limiterOf = (bucket: string) => testEnv.RATE_LIMITER.get(testEnv.RATE_LIMITER.idFromName(shardOf(bucket))) as unknown as Limiter;

  it("named buckets: the units answered before the restart plus those after never pass the limit", async () => {
    // 30 an hour: the bucket drains 0.5 a minute, so within this test the decision is exact.
    const bucket = `api_key:drill${Date.now()}`;
    const stub = limiterOf(bucket);
    const burst = Array.from({ length: 12 }, () => settle(stub.take(bucket, 30, 3600, 1, 2)));
    await burst[0];
    const restarting = restart(stub);
    const more = Array.from({ length: 12 }, () => settle(stub.take(bucket, 30, 3600, 1, 2)));
    await restarting;
    // Calls the restart cut (if any, by timing) rejected: their callers were told nothing.
    const results = await Promise.all([...burst, ...more]);
    // Units a caller was told it has: the request's own unit and the units leased to it.
    const units = (rs: typeof results) => rs.reduce((n, r) => n + (r.ok && r.value.allowed ? 1 + r.value.leased : 0), 0);
    const before = units(results);
    expect(before).toBeGreaterThan(0);
    const fresh = limiterOf(bucket);
    const after: { allowed: boolean; leased: number }[] = [];
    for (let i = 0; i < 40; i++) after.push(await fresh.take(bucket, 30, 3600, 1, 2));
    const afterUnits = after.reduce((n, d) => n + (d.allowed ? 1 + d.leased : 0), 0);
    expect(before + afterUnits).toBeLessThanOrEqual(30);
    expect(after.at(-1)?.allowed).toBe(false);
  });

  it("through the isolate leases (what the API's per-key limit uses): a burst around a restart admits at most the limit plus the drain", async () => {
    forgetRateLeases();
    const bucket = `api_key:drilllease${Date.now()}`;
    const perMinute = 40; // leases of 2 units
    const started = Date.now();
    const first = await Promise.all(Array.from({ length: 25 }, () => settle(spendRate(testEnv.RATE_LIMITER, bucket, perMinute, 1))));
    await restart(limiterOf(bucket));
    // The isolate keeps its lease (units already charged in the object); the object kept the charges.
    const second: Awaited<ReturnType<typeof settle<{ allowed: boolean }>>>[] = [];
    for (let i = 0; i < 40; i++) second.push(await settle(spendRate(testEnv.RATE_LIMITER, bucket, perMinute, 1)));
    const allowed = [...first, ...second].filter((r) => r.ok && r.value.allowed).length;
    // The leaky bucket admits the limit plus what drained meanwhile (40 a minute: 1 per 1.5 s).
    const drained = Math.ceil(((Date.now() - started) * perMinute) / 60_000);
    expect(allowed).toBeLessThanOrEqual(perMinute + drained);
    expect(allowed).toBeGreaterThanOrEqual(perMinute - 2 * 2); // at most a lease or two forgotten with a broken call
    // After the restart the bucket is full again and refuses (not necessarily the very last call: on a loaded
    // machine a unit may drain just before it, and the drained units are bounded above).
    expect(second.some((r) => r.ok && !r.value.allowed)).toBe(true);
    forgetRateLeases();
  });
});

describe("audit chain restarted between and during appends", () => {
  type Chain = DurableObjectStub & { append(tenantId: string, drafts: readonly AuditDraft[]): Promise<void> };
  const chainOf = (tenantId: string) => testEnv.AUDIT_CHAIN.get(testEnv.AUDIT_CHAIN.idFromName(`audit:${tenantId}`)) as unknown as Chain;
  const draft = (caller: number, part: number): AuditDraft => ({
    action: "campaign.drill",
    outcome: "succeeded",
    actorKind: "service",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: null,
    targetId: null,
    statusCode: null,
    detail: { caller, part },
  });
  const entries = async (tenantId: string) =>
    (
      await testEnv.DB.prepare("SELECT seq, detail FROM audit_events WHERE tenant_id = ? ORDER BY seq")
        .bind(tenantId)
        .all<{ seq: number; detail: string }>()
    ).results.map((r) => ({ seq: r.seq, ...(JSON.parse(r.detail) as { caller: number; part: number }) }));

  it("a restart between two appends: one chain, linked, the witness matching", async () => {
    const { tenantId } = await createTenant();
    await chainOf(tenantId).append(tenantId, [draft(1, 0), draft(1, 1)]);
    await restart(chainOf(tenantId));
    await chainOf(tenantId).append(tenantId, [draft(2, 0)]);
    expect(await verifyTenantChain(testEnv, tenantId)).toMatchObject({ intact: true, entries: 3, lastSeq: 3, witness: "matches" });
  });

  it("a restart among concurrent appends: no fork, no gap; each caller's entries all or none; every resolved append is there", async () => {
    const { tenantId } = await createTenant();
    const stub = chainOf(tenantId);
    const calls = Array.from({ length: 16 }, (_, caller) => settle(stub.append(tenantId, [draft(caller, 0), draft(caller, 1)])));
    await calls[0];
    const restarting = restart(stub);
    const late = Array.from({ length: 4 }, (_, i) => settle(stub.append(tenantId, [draft(100 + i, 0), draft(100 + i, 1)])));
    await restarting;
    const results = await Promise.all([...calls, ...late]);
    expect(results.some((r) => r.ok) && results.some((r) => !r.ok)).toBe(true); // the restart landed among them
    // After the restart, appends continue on the fresh instance (it re-reads D1's head).
    for (let caller = 200; caller < 203; caller++) await chainOf(tenantId).append(tenantId, [draft(caller, 0), draft(caller, 1)]);
    const verification = await verifyTenantChain(testEnv, tenantId);
    expect(verification).toMatchObject({ intact: true, witness: "matches" });
    const rows = await entries(tenantId);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const byCaller = new Map<number, number[]>();
    for (const r of rows) byCaller.set(r.caller, [...(byCaller.get(r.caller) ?? []), r.part]);
    for (const parts of byCaller.values()) expect(parts).toEqual([0, 1]); // all or none, in order, never twice
    results.forEach((r, i) => {
      const caller = i < 16 ? i : 100 + (i - 16);
      if (r.ok) expect(byCaller.has(caller)).toBe(true);
    });
    for (let caller = 200; caller < 203; caller++) expect(byCaller.has(caller)).toBe(true);
  });
});
