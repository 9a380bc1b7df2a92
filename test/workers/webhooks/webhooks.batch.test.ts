import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dispatchBatch } from "../../../src/queues/dispatch";
import { WEBHOOK_HANDLERS } from "../../../src/queues/index";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { createTenant, testEnv } from "../support/helpers";
import { createEndpoint, pendingDeliveries, sleep } from "../support/webhooks.helpers";

/*
 * #19: deliveries claimed and recorded in runs per endpoint (src/webhooks/delivery-run.ts). The receiver here is
 * a fake fetcher that records what it was sent and how many requests were in flight at once.
 */

function receiver(delayMs = 5) {
  const sent: { delivery: string; attempt: string }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetcher: typeof fetch = async (_input, init) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const headers = new Headers(init?.headers);
    sent.push({ delivery: headers.get("svc-delivery-id")!, attempt: headers.get("svc-attempt")! });
    await sleep(delayMs);
    inFlight--;
    return new Response("ok", { status: 200 });
  };
  return { sent, fetcher, maxInFlight: () => maxInFlight, deps: { fetcher, random: () => 0.5 } };
}

const statusOf = async (ids: string[]) =>
  (
    await testEnv.DB.prepare(
      `SELECT id, status, attempt_count FROM webhook_deliveries WHERE id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`,
    )
      .bind(...ids)
      .all<{ id: string; status: string; attempt_count: number }>()
  ).results;

describe("#19 deliveries in runs per endpoint", () => {
  it("the gate grants several leases in one call, never beyond max_concurrency or the rate, and frees them with the next call", async () => {
    const gate = testEnv.WEBHOOK_GATE.get(testEnv.WEBHOOK_GATE.idFromName("whe_batchgate"));
    const config = { maxConcurrency: 3, ratePerMinute: 5, leaseMs: 60_000 };
    const first = await gate.acquireMany(config, 10);
    expect(first.granted && first.leases.length).toBe(3);
    expect(await gate.inFlight()).toBe(3);
    expect((await gate.acquireMany(config, 1)).granted).toBe(false);
    // Freed by the next call: only two grants of the rate remain (5 a minute, 3 used).
    const second = await gate.acquireMany(config, 10, 0, { leaseIds: first.granted ? first.leases.map((l) => l.leaseId) : [] });
    expect(second.granted && second.leases.length).toBe(2);
    const refused = await gate.acquireMany(config, 1);
    expect(refused).toMatchObject({ granted: false, reason: "rate" });
    // A lease released unsent gives its grant back to the rate log.
    await gate.releaseMany(second.granted ? [second.leases[0]!.leaseId] : [], second.granted ? [second.leases[0]!.leaseId] : []);
    expect((await gate.acquireMany(config, 5)).granted).toBe(true);
  });

  it("two consumers given the same deliveries at once send each exactly once, within the endpoint's concurrency", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 4, rate_limit_per_minute: 600 });
    const ids = await pendingDeliveries(tenantId, endpointId, 12);
    const r = receiver();
    const [a, b] = await Promise.all([deliverBatch(testEnv, ids, r.deps), deliverBatch(testEnv, [...ids].reverse(), r.deps)]);
    expect([...a!, ...b!].every((e) => e === null)).toBe(true);
    expect(r.sent.map((s) => s.delivery).sort()).toEqual([...ids].sort());
    expect(r.maxInFlight()).toBeLessThanOrEqual(4);
    for (const row of await statusOf(ids)) expect(row).toMatchObject({ status: "delivered", attempt_count: 1 });
    const attempts = await testEnv.DB.prepare(
      `SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id IN (${ids.map(() => "?").join(", ")})`,
    )
      .bind(...ids)
      .first<{ n: number }>();
    expect(attempts!.n).toBe(12);
  });

  it("after a crash mid-batch, the redelivered batch sends only the deliveries whose attempt was never recorded", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 10 });
    const ids = await pendingDeliveries(tenantId, endpointId, 6);
    const first = receiver();
    // The first consumer attempted and recorded three; it had claimed the other three when it died.
    await deliverBatch(testEnv, ids.slice(0, 3), first.deps);
    const lapsed = Date.now() - 1;
    await testEnv.DB.prepare(
      `UPDATE webhook_deliveries SET status = 'delivering', attempt_count = 1, lease_until = ? WHERE id IN (?, ?, ?)`,
    )
      .bind(lapsed, ...ids.slice(3))
      .run();
    // The queue redelivers all six messages once the claims have lapsed.
    const again = receiver();
    const outcomes = await deliverBatch(testEnv, ids, again.deps);
    expect(outcomes.every((e) => e === null)).toBe(true);
    expect(again.sent.map((s) => s.delivery).sort()).toEqual(ids.slice(3).sort());
    expect(again.sent.every((s) => s.attempt === "2")).toBe(true);
    for (const row of await statusOf(ids)) expect(row.status).toBe("delivered");
  });

  it("a claim still live elsewhere is not sent again: its message waits for the claim to lapse", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key);
    const ids = await pendingDeliveries(tenantId, endpointId, 2);
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivering', attempt_count = 1, lease_until = ? WHERE id = ?")
      .bind(Date.now() + 60_000, ids[0])
      .run();
    const r = receiver();
    await deliverBatch(testEnv, ids, r.deps);
    expect(r.sent.map((s) => s.delivery)).toEqual([ids[1]]);
    expect((await statusOf([ids[0]!]))[0]).toMatchObject({ status: "delivering", attempt_count: 1 });
  });

  it("a deliver message naming several deliveries is acknowledged; one naming none is acknowledged and does nothing", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { url: "https://hooks.example.com/unreachable-in-tests" });
    const ids = await pendingDeliveries(tenantId, endpointId, 3);
    const batch = createMessageBatch("svc-webhooks", [
      { id: "many", timestamp: new Date(), attempts: 1, body: { type: "webhook.deliver", delivery_ids: ids } },
      { id: "none", timestamp: new Date(), attempts: 1, body: { type: "webhook.deliver", delivery_ids: [] } },
    ]);
    const ctx = createExecutionContext();
    await dispatchBatch(batch, testEnv, WEBHOOK_HANDLERS, { concurrent: true });
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["many", "none"]);
    // Each was attempted once by this message (the destination is not reachable from tests: a failed attempt, retried
    // on the schedule). On a loaded machine the schedule's first retry, 5 s on, can already have run through the queue
    // by now: any later attempt must be that retry (numbered after the first and started well after it ended), never
    // a second send of the first.
    for (const row of await statusOf(ids)) expect(row.attempt_count).toBeGreaterThanOrEqual(1);
    for (const id of ids) {
      const { results } = await testEnv.DB.prepare(
        "SELECT attempt_number, started_at, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt_number",
      )
        .bind(id)
        .all<{ attempt_number: number; started_at: number; duration_ms: number }>();
      expect(results.length).toBeGreaterThanOrEqual(1);
      expect(results.map((r) => r.attempt_number)).toEqual(results.map((_, i) => i + 1));
      for (let i = 1; i < results.length; i++)
        expect(results[i]!.started_at - (results[i - 1]!.started_at + results[i - 1]!.duration_ms)).toBeGreaterThanOrEqual(1_000);
    }
  });
});
