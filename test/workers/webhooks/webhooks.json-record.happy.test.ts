import { describe, expect, it } from "vitest";
import { newId } from "../../../src/platform/ids";
import { type AttemptRecord, loadDeliveries, recordAttempts } from "../../../src/webhooks/repo/attempts";
import { createTenant, testEnv } from "../support/helpers";
import { claimedDeliveries, createEndpoint } from "../support/webhooks.helpers";

/*
 * #19: a run's acknowledged attempts are recorded from one JSON parameter per statement (repo/attempts.ts
 * acknowledgedStatements) instead of a parameter per value. The stored rows must be what a bound record stores:
 * the same values with the same SQL types (integers stay integers, a missing Retry-After stays NULL), each
 * delivery moved only by its own claim, and more rows than one statement takes all recorded, each once. The
 * batch's read takes its ids as JSON lists too (500 a statement). Any other attempt's row is inserted by the same
 * JSON statement (one form of the attempt insert), with its own outcome and error.
 */

function acknowledged(
  tenantId: string,
  endpointId: string,
  deliveryId: string,
  finishedAt: number,
  over: Partial<AttemptRecord> = {},
): AttemptRecord {
  return {
    deliveryId,
    tenantId,
    endpointId,
    attemptNumber: 1,
    startedAt: finishedAt - 11,
    finishedAt,
    responseCode: 200,
    responseBodySha256: "c".repeat(64),
    outcome: "acknowledged",
    error: null,
    retryAfterSeconds: null,
    signatureCount: 2,
    gateMs: 4,
    status: "delivered",
    nextAttemptAt: null,
    terminalReason: null,
    failed: false,
    ...over,
  };
}

describe("#19 acknowledged attempts recorded from JSON rows", () => {
  it("stores each value with its SQL type, as a bound record does (integers, text, NULL)", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    const [a, b] = await claimedDeliveries(tenantId, endpointId, 2);
    const t = Date.now();
    await recordAttempts(testEnv.DB, [
      acknowledged(tenantId, endpointId, a!, t),
      acknowledged(tenantId, endpointId, b!, t + 1, { responseCode: 204, responseBodySha256: "d".repeat(64), retryAfterSeconds: 30 }),
    ]);
    const rows = (
      await testEnv.DB.prepare(
        `SELECT delivery_id, attempt_number, tenant_id, started_at, duration_ms, response_code, response_body_sha256, outcome, error,
                retry_after_seconds, signature_count, gate_ms,
                typeof(attempt_number) AS t_attempt, typeof(started_at) AS t_started, typeof(duration_ms) AS t_duration,
                typeof(response_code) AS t_code, typeof(response_body_sha256) AS t_sha, typeof(retry_after_seconds) AS t_retry,
                typeof(signature_count) AS t_sigs, typeof(gate_ms) AS t_gate, typeof(tenant_id) AS t_tenant
           FROM webhook_attempts WHERE delivery_id IN (?, ?) ORDER BY started_at`,
      )
        .bind(a, b)
        .all()
    ).results;
    expect(rows).toEqual([
      {
        delivery_id: a,
        attempt_number: 1,
        tenant_id: tenantId,
        started_at: t - 11,
        duration_ms: 11,
        response_code: 200,
        response_body_sha256: "c".repeat(64),
        outcome: "acknowledged",
        error: null,
        retry_after_seconds: null,
        signature_count: 2,
        gate_ms: 4,
        t_attempt: "integer",
        t_started: "integer",
        t_duration: "integer",
        t_code: "integer",
        t_sha: "text",
        t_retry: "null",
        t_sigs: "integer",
        t_gate: "integer",
        t_tenant: "text",
      },
      expect.objectContaining({
        delivery_id: b,
        response_code: 204,
        response_body_sha256: "d".repeat(64),
        retry_after_seconds: 30,
        t_retry: "integer",
      }),
    ]);
    const deliveries = (
      await testEnv.DB.prepare(
        "SELECT id, status, response_code, typeof(response_code) AS t_code, response_body_sha256, lease_until FROM webhook_deliveries WHERE id IN (?, ?) ORDER BY response_code",
      )
        .bind(a, b)
        .all()
    ).results;
    expect(deliveries).toEqual([
      { id: a, status: "delivered", response_code: 200, t_code: "integer", response_body_sha256: "c".repeat(64), lease_until: null },
      { id: b, status: "delivered", response_code: 204, t_code: "integer", response_body_sha256: "d".repeat(64), lease_until: null },
    ]);
  });

  it("moves a delivery only under its own claim, and records more rows than one statement takes (130), each once", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET consecutive_failures = 4 WHERE id = ?").bind(endpointId).run();
    const ids = await claimedDeliveries(tenantId, endpointId, 130);
    // Claimed again elsewhere (attempt 2) after this attempt's claim lapsed: the attempt row is kept, the state is not ours.
    const [stale] = await claimedDeliveries(tenantId, endpointId, 1, 2);
    const t = Date.now();
    const records = [...ids, stale!].map((id, i) => acknowledged(tenantId, endpointId, id, t + i));
    await recordAttempts(testEnv.DB, records);
    await recordAttempts(testEnv.DB, records); // a redelivered message: nothing more
    const counts = (await testEnv.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM webhook_attempts WHERE tenant_id = ?1) AS attempts,
                (SELECT COUNT(DISTINCT delivery_id) FROM webhook_attempts WHERE tenant_id = ?1) AS delivered_to,
                (SELECT COUNT(*) FROM webhook_deliveries WHERE tenant_id = ?1 AND status = 'delivered' AND lease_until IS NULL) AS delivered,
                (SELECT status FROM webhook_deliveries WHERE id = ?2) AS stale_status,
                (SELECT consecutive_failures FROM webhook_endpoints WHERE id = ?3) AS streak`,
    )
      .bind(tenantId, stale, endpointId)
      .first())!;
    expect(counts).toEqual({ attempts: 131, delivered_to: 131, delivered: 130, stale_status: "delivering", streak: 0 });
  });

  it("leaves the streak alone when no delivery of the segment was recorded by its own claim", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET consecutive_failures = 4 WHERE id = ?").bind(endpointId).run();
    const ids = await claimedDeliveries(tenantId, endpointId, 3, 2);
    const t = Date.now();
    await recordAttempts(
      testEnv.DB,
      ids.map((id, i) => acknowledged(tenantId, endpointId, id, t + i)),
    );
    const endpoint = await testEnv.DB.prepare("SELECT consecutive_failures FROM webhook_endpoints WHERE id = ?").bind(endpointId).first();
    expect(endpoint).toEqual({ consecutive_failures: 4 });
  });

  it("records a failed attempt with the same insert: its own outcome and error, typed as a bound row (a retry, a refusal, an answer-less failure)", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    const [a, b, c] = await claimedDeliveries(tenantId, endpointId, 3);
    const t = Date.now();
    const failed = { failed: true, status: "pending" as const, nextAttemptAt: t + 5_000 };
    await recordAttempts(testEnv.DB, [
      acknowledged(tenantId, endpointId, a!, t, { ...failed, responseCode: 503, outcome: "retry_scheduled", retryAfterSeconds: 7 }),
      acknowledged(tenantId, endpointId, b!, t + 1, {
        ...failed,
        responseCode: null,
        responseBodySha256: null,
        outcome: "retry_scheduled",
        error: "network_error",
      }),
      acknowledged(tenantId, endpointId, c!, t + 2, {
        responseCode: 410,
        outcome: "ended",
        failed: true,
        status: "failed",
        terminalReason: "receiver_rejected",
      }),
    ]);
    const rows = (
      await testEnv.DB.prepare(
        `SELECT delivery_id, response_code, typeof(response_code) AS t_code, response_body_sha256, outcome, error, retry_after_seconds,
                typeof(retry_after_seconds) AS t_retry, duration_ms, typeof(duration_ms) AS t_duration, signature_count, gate_ms
           FROM webhook_attempts WHERE delivery_id IN (?, ?, ?) ORDER BY started_at`,
      )
        .bind(a, b, c)
        .all()
    ).results;
    expect(rows).toEqual([
      {
        delivery_id: a,
        response_code: 503,
        t_code: "integer",
        response_body_sha256: "c".repeat(64),
        outcome: "retry_scheduled",
        error: null,
        retry_after_seconds: 7,
        t_retry: "integer",
        duration_ms: 11,
        t_duration: "integer",
        signature_count: 2,
        gate_ms: 4,
      },
      expect.objectContaining({ delivery_id: b, response_code: null, t_code: "null", response_body_sha256: null, error: "network_error" }),
      expect.objectContaining({ delivery_id: c, response_code: 410, outcome: "ended", error: null, t_retry: "null" }),
    ]);
    const streak = await testEnv.DB.prepare("SELECT consecutive_failures FROM webhook_endpoints WHERE id = ?").bind(endpointId).first();
    expect(streak).toEqual({ consecutive_failures: 3 });
  });

  it("reads a queue batch's deliveries named by more ids than one list takes (1,101, some unknown), with the bodies of the unfinished only", async () => {
    const { key, tenantId } = await createTenant();
    const { id: endpointId } = await createEndpoint(key, { max_concurrency: 20 });
    const ids = await claimedDeliveries(tenantId, endpointId, 1_100);
    const finished = ids.slice(0, 10);
    await testEnv.DB.prepare(
      `UPDATE webhook_deliveries SET status = 'delivered', lease_until = NULL WHERE id IN (SELECT value FROM json_each(?))`,
    )
      .bind(JSON.stringify(finished))
      .run();
    const unknown = newId("webhookDelivery");
    const { rows, bodies } = await loadDeliveries(testEnv.DB, [...ids.slice(0, 600), unknown, ...ids.slice(600)]);
    expect(rows.size).toBe(1_100);
    expect(rows.has(unknown)).toBe(false);
    expect(rows.get(ids[700]!)).toMatchObject({
      endpoint_id: endpointId,
      status: "delivering",
      endpoint_state: "active",
      max_concurrency: 20,
    });
    expect(bodies.size).toBe(1_090);
    expect(bodies.has(rows.get(finished[0]!)!.event_id)).toBe(false);
    expect(bodies.get(rows.get(ids[1_099]!)!.event_id)).toBe("{}");
  });
});
