import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WebhookEndpointGate } from "../../../src/durable-objects/webhook-endpoint-gate";
import { replayEvent } from "../../../src/webhooks/deliveries";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { type AttemptRecord, recordAttempt, recordAttempts } from "../../../src/webhooks/repo/attempts";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, claimedDeliveries, createEndpoint, sleep, unfannedEvent } from "../support/webhooks.helpers";

/*
 * #19: the webhook writes made set-wise (a round's acknowledged attempts, one event's deliveries to many
 * endpoints) and the gate's one state write per acquireMany. Each set-wise form must leave exactly the state its
 * one-by-one form leaves.
 */

/** The record of a first attempt: acknowledged (200) or a 503 that schedules a retry. */
function recordOf(tenantId: string, endpointId: string, deliveryId: string, ok: boolean, finishedAt: number): AttemptRecord {
  return {
    deliveryId,
    tenantId,
    endpointId,
    attemptNumber: 1,
    startedAt: finishedAt - 7,
    finishedAt,
    responseCode: ok ? 200 : 503,
    responseBodySha256: ok ? "a".repeat(64) : "b".repeat(64),
    outcome: ok ? "acknowledged" : "retry_scheduled",
    error: null,
    retryAfterSeconds: null,
    signatureCount: 1,
    gateMs: 3,
    status: ok ? "delivered" : "pending",
    nextAttemptAt: ok ? null : finishedAt + 5_000,
    terminalReason: null,
    failed: !ok,
  };
}

/** What recording left: the endpoint, and per delivery (in order) its state and attempt row, times left out. */
async function outcome(endpointId: string, ids: string[]) {
  const endpoint = await testEnv.DB.prepare("SELECT state, disabled_reason, consecutive_failures FROM webhook_endpoints WHERE id = ?")
    .bind(endpointId)
    .first();
  const rows = [];
  for (const id of ids) {
    const delivery = await testEnv.DB.prepare(
      "SELECT status, attempt_count, lease_until IS NULL AS released, next_attempt_at IS NOT NULL AS scheduled, response_code, response_body_sha256, terminal_reason FROM webhook_deliveries WHERE id = ?",
    )
      .bind(id)
      .first();
    const attempt = await testEnv.DB.prepare(
      "SELECT attempt_number, duration_ms, response_code, response_body_sha256, outcome, error, signature_count, gate_ms FROM webhook_attempts WHERE delivery_id = ?",
    )
      .bind(id)
      .all();
    rows.push({ delivery, attempts: attempt.results });
  }
  return { endpoint, rows };
}

describe("#19 webhook writes made set-wise", () => {
  it("a round's attempts recorded in one batch leave exactly what recording them one by one leaves, auto-disable included", async () => {
    const { key, tenantId } = await createTenant();
    // Acknowledged runs between failures: the streak is reset, grows, is reset, then reaches 2 and disables the endpoint.
    const pattern = [true, true, false, true, true, true, false, false, true, true];
    const a = await createEndpoint(key, { auto_disable_after_failures: 2 });
    const b = await createEndpoint(key, { auto_disable_after_failures: 2 });
    const idsA = await claimedDeliveries(tenantId, a.id, pattern.length);
    const idsB = await claimedDeliveries(tenantId, b.id, pattern.length);
    const t = Date.now();
    await recordAttempts(
      testEnv.DB,
      pattern.map((ok, i) => recordOf(tenantId, a.id, idsA[i]!, ok, t + i)),
    );
    for (const [i, ok] of pattern.entries()) await recordAttempt(testEnv.DB, recordOf(tenantId, b.id, idsB[i]!, ok, t + i));
    const setwise = await outcome(a.id, idsA);
    expect(setwise).toEqual(await outcome(b.id, idsB));
    // And that state is the one the rules say: disabled at the 8th attempt; the auto-disable fences the retries
    // waiting (3rd, 7th, 8th) and the two claimed after it, whose acknowledgements are then not recorded.
    expect(setwise.endpoint).toMatchObject({ state: "disabled", disabled_reason: "consecutive_failures", consecutive_failures: 2 });
    expect(setwise.rows.map((r) => (r.delivery as { status: string }).status)).toEqual([
      "delivered",
      "delivered",
      "dead",
      "delivered",
      "delivered",
      "delivered",
      "dead",
      "dead",
      "dead",
      "dead",
    ]);
    expect(setwise.rows.map((r) => r.attempts.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("more than a statement's worth of acknowledged attempts (40) are all recorded, each once, and reset the streak", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET consecutive_failures = 3 WHERE id = ?").bind(endpointId).run();
    const ids = await claimedDeliveries(tenantId, endpointId, 40);
    const t = Date.now();
    const records = ids.map((id, i) => recordOf(tenantId, endpointId, id, true, t + i));
    await recordAttempts(testEnv.DB, records);
    // Recording the same attempts again (a redelivered message) changes nothing: one row per attempt.
    await recordAttempts(testEnv.DB, records);
    const { rows, endpoint } = await outcome(endpointId, ids);
    expect(endpoint).toMatchObject({ state: "active", consecutive_failures: 0 });
    for (const row of rows) {
      expect(row.delivery).toMatchObject({ status: "delivered", attempt_count: 1, released: 1, scheduled: 0, response_code: 200 });
      expect(row.attempts).toEqual([expect.objectContaining({ attempt_number: 1, outcome: "acknowledged", duration_ms: 7, gate_ms: 3 })]);
    }
  });

  it("an event replayed to more endpoints than one statement takes (48) queues one delivery each, and the event is marked fanned out", async () => {
    const { key, tenantId } = await createTenant();
    const now = Date.now();
    const endpoints = await activeEndpoints(tenantId, 48);
    // Not recipients: one disabled, one subscribed to another event.
    const disabled = await createEndpoint(key);
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'manual' WHERE id = ?")
      .bind(disabled.id)
      .run();
    const eventId = await unfannedEvent(tenantId, now);

    const first = await replayEvent(testEnv, tenantId, eventId);
    expect(first).toEqual({ status: "replayed", eventId, deliveryCount: 48 });
    const deliveries = await testEnv.DB.prepare(
      "SELECT endpoint_id, status, attempt_count, replay_count FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id",
    )
      .bind(eventId)
      .all<{ endpoint_id: string; status: string; replay_count: number }>();
    expect(deliveries.results.map((d) => d.endpoint_id)).toEqual([...endpoints].sort());
    expect(deliveries.results.every((d) => d.status === "pending" && d.replay_count === 0)).toBe(true);
    const event = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?")
      .bind(eventId)
      .first<{ fanned_out_at: number }>();
    expect(event!.fanned_out_at).toBeGreaterThanOrEqual(now);

    // Two finished, the rest still pending: a second replay restarts exactly the two and leaves the rest alone.
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = ? AND endpoint_id IN (?, ?)")
      .bind(eventId, endpoints[0], endpoints[47])
      .run();
    const second = await replayEvent(testEnv, tenantId, eventId);
    expect(second).toEqual({ status: "replayed", eventId, deliveryCount: 2 });
    const replayed = await testEnv.DB.prepare(
      "SELECT endpoint_id FROM webhook_deliveries WHERE event_id = ? AND replay_count = 1 ORDER BY endpoint_id",
    )
      .bind(eventId)
      .all<{ endpoint_id: string }>();
    expect(replayed.results.map((r) => r.endpoint_id)).toEqual([endpoints[0], endpoints[47]].sort());
    // Another tenant's replay of the same event finds nothing.
    const other = await createTenant();
    expect(await replayEvent(testEnv, other.tenantId, eventId)).toEqual({ status: "not_found" });
  });

  it("an event replayed to more active endpoints than the ids one statement is given (57 > 50) queues one delivery each, with distinct ids", async () => {
    const { tenantId } = await createTenant();
    const endpoints = await activeEndpoints(tenantId, 57);
    const eventId = await unfannedEvent(tenantId);
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 57 });
    const deliveries = await testEnv.DB.prepare(
      "SELECT id, endpoint_id, status FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id",
    )
      .bind(eventId)
      .all<{ id: string; endpoint_id: string; status: string }>();
    expect(deliveries.results.map((d) => d.endpoint_id)).toEqual([...endpoints].sort());
    expect(new Set(deliveries.results.map((d) => d.id)).size).toBe(57);
    for (const d of deliveries.results) expect(d.id).toMatch(/^whd_[a-z2-7]{16}$/);
    expect(deliveries.results.every((d) => d.status === "pending")).toBe(true);
    // All still pending: a second replay queues none.
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 0 });
  });

  it("a batch naming more deliveries than one read takes (2 × 110) reads them in one round trip and sends each exactly once, within each endpoint's concurrency", async () => {
    const { key, tenantId } = await createTenant();
    const endpoints = [
      await createEndpoint(key, { max_concurrency: 20, rate_limit_per_minute: 600 }),
      await createEndpoint(key, { max_concurrency: 7, rate_limit_per_minute: 600 }),
    ];
    const ids: string[][] = [];
    for (const e of endpoints) {
      const claimed = await claimedDeliveries(tenantId, e.id, 110);
      // Pending and due (claimedDeliveries leaves them claimed): what a fan-out leaves.
      await testEnv.DB.batch(
        claimed.map((id) =>
          testEnv.DB.prepare(
            "UPDATE webhook_deliveries SET status = 'pending', attempt_count = 0, lease_until = NULL, next_attempt_at = ? WHERE id = ?",
          ).bind(Date.now(), id),
        ),
      );
      ids.push(claimed);
    }
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const sent: string[] = [];
    const fetcher: typeof fetch = async (_input, init) => {
      const headers = new Headers(init?.headers);
      const endpoint = headers.get("svc-endpoint-id")!;
      inFlight.set(endpoint, (inFlight.get(endpoint) ?? 0) + 1);
      most.set(endpoint, Math.max(most.get(endpoint) ?? 0, inFlight.get(endpoint)!));
      sent.push(headers.get("svc-delivery-id")!);
      await sleep(1);
      inFlight.set(endpoint, inFlight.get(endpoint)! - 1);
      return new Response("ok", { status: 200, headers: { "content-length": "2" } });
    };
    // Interleaved as messages of a fan-out name them.
    const all = ids[0]!.flatMap((id, i) => [id, ids[1]![i]!]);
    const outcomes = await deliverBatch(testEnv, all, { fetcher, random: () => 0.5 });
    expect(outcomes.every((e) => e === null)).toBe(true);
    expect([...sent].sort()).toEqual([...all].sort());
    expect(most.get(endpoints[0]!.id)).toBeLessThanOrEqual(20);
    expect(most.get(endpoints[1]!.id)).toBeLessThanOrEqual(7);
    const delivered = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id IN (?, ?) AND status = 'delivered' AND attempt_count = 1",
    )
      .bind(endpoints[0]!.id, endpoints[1]!.id)
      .first<{ n: number }>();
    expect(delivered!.n).toBe(220);
  });

  it("acquireMany stores every lease and grant it makes (what a restarted gate reads back), in its one write", async () => {
    const stub = testEnv.WEBHOOK_GATE.get(testEnv.WEBHOOK_GATE.idFromName(`whe_setwise${Date.now()}`));
    const config = { maxConcurrency: 5, ratePerMinute: 7, leaseMs: 60_000 };
    const grant = await stub.acquireMany(config, 10);
    expect(grant.granted && grant.leases.length).toBe(5);
    const stored = await runInDurableObject(stub, (_: WebhookEndpointGate, state: DurableObjectState) =>
      state.storage.get<{ grants: number[]; leases: Record<string, number> }>("state"),
    );
    expect(Object.keys(stored!.leases).sort()).toEqual(grant.granted ? grant.leases.map((l) => l.leaseId).sort() : []);
    expect(stored!.grants).toHaveLength(5);
  });
});
