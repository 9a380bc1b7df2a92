import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, requestFingerprint } from "../../../src/platform/idempotency";
import { newId } from "../../../src/platform/ids";
import { count, request, send } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { finishedDelivery } from "../support/webhooks.helpers";

/*
 * Hostile review of #19's claim in the write's batch, for the delivery replay (the event replay has its own tests in
 * webhooks.claim-in-batch.security.test.ts). These are checks that held on the reviewed code (no finding): kept as
 * regression cover for the paths the author's tests did not reach — another tenant's delivery, a refusal answered
 * before any batch while another request holds the key, a retryable refusal after a claim-only batch, a storage
 * failure of the batch, a key freed between the failed batch and its recovery, and many requests at once.
 */

const OPERATION = "POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay";
const pathOf = (deliveryId: string) => `/v1/webhook-endpoints/deliveries/${deliveryId}/replay`;
const fingerprintOf = (path: string) => requestFingerprint("POST", new URL(`http://x${path}`), new Uint8Array(), testEnv.SVC_KEY_PEPPER!);
const replay = (path: string, key: string, idem: string) => request(path, { method: "POST", key, headers: { "idempotency-key": idem } });

async function putInFlight(tenantId: string, idem: string, requestSha256: string, lockedUntil: number) {
  await testEnv.DB.prepare(
    `INSERT INTO idempotency_records (tenant_id, operation, idempotency_key, request_sha256, state, locked_until, secret_withheld, created_at, expires_at)
     VALUES (?, ?, ?, ?, 'in_flight', ?, 0, ?, ?)`,
  )
    .bind(tenantId, OPERATION, idem, requestSha256, lockedUntil, Date.now() - 1_000, Date.now() + IDEMPOTENCY_TTL_MS)
    .run();
}

const keyRows = async (tenantId: string, idem: string) =>
  (
    await testEnv.DB.prepare(
      "SELECT state, locked_until, request_sha256, response_status FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?",
    )
      .bind(tenantId, idem)
      .all<{ state: string; locked_until: number; request_sha256: string; response_status: number | null }>()
  ).results;

const replayCount = async (deliveryId: string) =>
  (await testEnv.DB.prepare("SELECT replay_count FROM webhook_deliveries WHERE id = ?").bind(deliveryId).first<{ replay_count: number }>())
    ?.replay_count;

/** An env whose D1 batches go through `around` (the real batch passed in). */
function aroundBatch(around: (statements: D1PreparedStatement[], run: () => Promise<D1Result[]>) => Promise<D1Result[]>): Bindings {
  const real = testEnv.DB;
  const db = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => around(statements, () => Reflect.apply(value, target, [statements]));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...testEnv, DB: db } as Bindings;
}
const claimsKey = (statements: D1PreparedStatement[]) =>
  statements.some((s) => String((s as unknown as { statement?: string }).statement ?? "").includes("INSERT INTO idempotency_records"));

describe("#19 review checks: a delivery replay's key claimed in its batch", () => {
  it("another tenant's delivery: 404 envelope, the delivery untouched, the 404 stored under the caller's tenant only", async () => {
    const s = await finishedDelivery();
    const other = await createTenant();
    const res = await send(testEnv, replay(pathOf(s.deliveryId), other.key, s.idem));
    expect(res.status, res.text).toBe(404);
    expect(res.body.code).toBe("svc.resource.not_found");
    expect(await replayCount(s.deliveryId)).toBe(0);
    expect(await keyRows(s.tenantId, s.idem)).toEqual([]);
    expect(await keyRows(other.tenantId, s.idem)).toMatchObject([{ state: "completed", response_status: 404 }]);
  });

  it("an unknown delivery while the same request holds the key: 409 request_in_progress (envelope, Retry-After), the holder's claim untouched", async () => {
    const tenant = await createTenant();
    const path = pathOf(newId("webhookDelivery"));
    const idem = crypto.randomUUID();
    const lockedUntil = Date.now() + IDEMPOTENCY_LEASE_MS;
    await putInFlight(tenant.tenantId, idem, await fingerprintOf(path), lockedUntil);
    const res = await send(testEnv, replay(path, tenant.key, idem));
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("svc.idempotency.request_in_progress");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await keyRows(tenant.tenantId, idem)).toMatchObject([{ state: "in_flight", locked_until: lockedUntil }]);
  });

  it("a lapsed claim of another request under the key: 409 key_reused, nothing restarted, that claim untouched", async () => {
    const s = await finishedDelivery();
    const lockedUntil = Date.now() - 1;
    await putInFlight(s.tenantId, s.idem, "0".repeat(64), lockedUntil);
    const res = await send(testEnv, replay(pathOf(s.deliveryId), s.key, s.idem));
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("svc.idempotency.key_reused");
    expect(await replayCount(s.deliveryId)).toBe(0);
    expect(await keyRows(s.tenantId, s.idem)).toMatchObject([
      { state: "in_flight", locked_until: lockedUntil, request_sha256: "0".repeat(64) },
    ]);
    expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);
  });

  it("a delivery still in progress: the claim-only batch's key is released with the retryable 409", async () => {
    const s = await finishedDelivery();
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'pending' WHERE id = ?").bind(s.deliveryId).run();
    const res = await send(testEnv, replay(pathOf(s.deliveryId), s.key, s.idem));
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("svc.webhooks.delivery_in_progress");
    expect(await keyRows(s.tenantId, s.idem)).toEqual([]);
  });

  it("the batch fails in storage: 503 envelope, no claim left behind, and the retry restarts the delivery once", async () => {
    const s = await finishedDelivery();
    let failed = false;
    const env = aroundBatch(async (statements, run) => {
      if (!failed && claimsKey(statements)) {
        failed = true;
        throw new Error("D1_ERROR: Network connection lost.");
      }
      return await run();
    });
    const res = await send(env, replay(pathOf(s.deliveryId), s.key, s.idem));
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe("svc.dependency.unavailable");
    expect(await keyRows(s.tenantId, s.idem)).toEqual([]);
    expect(await replayCount(s.deliveryId)).toBe(0);
    const retry = await send(testEnv, replay(pathOf(s.deliveryId), s.key, s.idem));
    expect(retry.status, retry.text).toBe(200);
    expect(await replayCount(s.deliveryId)).toBe(1);
  });

  it("the key held when the batch ran and freed before the recovery: claimed then, restarted once, audited once, replayed after", async () => {
    const s = await finishedDelivery();
    const path = pathOf(s.deliveryId);
    const requestSha256 = await fingerprintOf(path);
    let held = false;
    const env = aroundBatch(async (statements, run) => {
      if (held || !claimsKey(statements)) return await run();
      held = true;
      await putInFlight(s.tenantId, s.idem, requestSha256, Date.now() + IDEMPOTENCY_LEASE_MS);
      try {
        return await run();
      } finally {
        // The holder released the key (its answer was a retryable refusal) before this request recovered.
        await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?")
          .bind(s.tenantId, s.idem)
          .run();
      }
    });
    const res = await send(env, replay(path, s.key, s.idem));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ event_id: s.eventId });
    expect(await replayCount(s.deliveryId)).toBe(1);
    expect(await keyRows(s.tenantId, s.idem)).toMatchObject([{ state: "completed", response_status: 200 }]);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", s.tenantId, OPERATION)).toBe(1);
    expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);
    const again = await send(testEnv, replay(path, s.key, s.idem));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(res.text);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", s.tenantId, OPERATION)).toBe(1);
  });

  it("many requests with one key at once: restarted once, audited once, every answer the holder's", async () => {
    const s = await finishedDelivery();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(testEnv, replay(pathOf(s.deliveryId), s.key, s.idem))));
    for (const a of answers) expect([200, 409], a.text).toContain(a.status);
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") !== "true");
    expect(fresh).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 200)) expect(a.text).toBe(fresh[0]!.text);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe("svc.idempotency.request_in_progress");
    expect(await replayCount(s.deliveryId)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", s.tenantId, OPERATION)).toBe(1);
  });
});
