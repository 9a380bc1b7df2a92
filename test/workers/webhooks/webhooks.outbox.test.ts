import { describe, expect, it, vi } from "vitest";
import { newId } from "../../../src/platform/ids";
import { deliverOnce } from "../../../src/webhooks/delivery";
import { sweepWebhooks } from "../../../src/webhooks/sweep";
import { api, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { insertDelivery } from "../support/webhooks.helpers";

/** The outbox: events commit with the publication, and the sweep fans out what a dead Worker never did. */
describe("webhook outbox", () => {
  async function endpoint(key: string, events: string[]) {
    const res = await api("/v1/webhook-endpoints", {
      method: "POST",
      key,
      body: { url: "https://hooks.example.com/outbox", event_catalog_version: "svc.customer-events.v1", events },
    });
    expect(res.status).toBe(201);
    return (await json(res)).endpoint.endpoint_id as string;
  }

  it("a publication writes its asset.signed event in the same transaction, and the fan-out creates one delivery per subscribed endpoint", async () => {
    const { key, tenantId } = await createTenant();
    const subscribed = await endpoint(key, ["asset.signed"]);
    const other = await endpoint(key, ["asset.watermarked"]);
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "outbox.jpg");
    const started = await json(
      await api("/v1/sign", {
        method: "POST",
        key,
        body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    const job = await waitForJob(key, started.job_id);
    expect(job.state).toBe("completed");

    const events = await testEnv.DB.prepare("SELECT id, type, body FROM webhook_events WHERE tenant_id = ?")
      .bind(tenantId)
      .all<{ id: string; type: string; body: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["asset.signed"]);
    const body = JSON.parse(events.results[0]!.body);
    expect(body).toMatchObject({
      id: events.results[0]!.id,
      type: "asset.signed",
      event_catalog_version: "svc.customer-events.v1",
      test: false,
    });
    expect(body.data).toMatchObject({
      asset_id: assetId,
      job_id: started.job_id,
      publication_id: job.result.publication_id,
      recipe_id: "rcp_system_sign_only",
      watermark_algorithm: null,
    });

    // The nudge after the commit fans out at once: one delivery, to the subscribed endpoint only.
    const deliveries: any[] = await vi.waitFor(
      async () => {
        const { data } = await json(await api(`/v1/webhook-endpoints/${subscribed}/deliveries`, { key }));
        expect(data).not.toHaveLength(0);
        return data;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event_id: body.id, event_type: "asset.signed" });
    expect((await json(await api(`/v1/webhook-endpoints/${other}/deliveries`, { key }))).data).toHaveLength(0);
  });

  it("an event committed without its fan-out (the Worker died) is fanned out by the cron sweep, once", async () => {
    const { key, tenantId } = await createTenant();
    const subscribed = await endpoint(key, ["asset.watermarked"]);
    const eventId = newId("webhookEvent");
    const twoMinutesAgo = Date.now() - 120_000;
    await testEnv.DB.prepare(
      "INSERT INTO webhook_events (id, tenant_id, type, body, test, created_at) VALUES (?, ?, 'asset.watermarked', ?, 0, ?)",
    )
      .bind(eventId, tenantId, JSON.stringify({ id: eventId, type: "asset.watermarked" }), twoMinutesAgo)
      .run();
    const swept = await sweepWebhooks(testEnv);
    expect(swept.events).toBeGreaterThanOrEqual(1);
    const deliveries: any[] = await vi.waitFor(
      async () => {
        const { data } = await json(await api(`/v1/webhook-endpoints/${subscribed}/deliveries`, { key }));
        expect(data).not.toHaveLength(0);
        return data;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(deliveries.map((d) => d.event_id)).toEqual([eventId]);
    const row = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?")
      .bind(eventId)
      .first<{ fanned_out_at: number | null }>();
    expect(row?.fanned_out_at).not.toBeNull();
    // A second sweep finds nothing left to fan out for it, and no second delivery appears.
    await sweepWebhooks(testEnv);
    await new Promise((r) => setTimeout(r, 300));
    expect((await json(await api(`/v1/webhook-endpoints/${subscribed}/deliveries`, { key }))).data).toHaveLength(1);
  });

  it("a delivery whose message was lost (overdue by more than a minute) is sent again by the sweep", async () => {
    const { key, tenantId } = await createTenant();
    const subscribed = await endpoint(key, ["asset.signed"]);
    const eventId = newId("webhookEvent");
    const deliveryId = newId("webhookDelivery");
    const old = Date.now() - 180_000;
    await testEnv.DB.batch([
      testEnv.DB.prepare(
        "INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', '{}', 0, ?, ?)",
      ).bind(eventId, tenantId, old, old),
      testEnv.DB.prepare(
        "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'pending', 0, 0, ?, ?, ?)",
      ).bind(deliveryId, tenantId, subscribed, eventId, old, old, old),
    ]);
    expect((await sweepWebhooks(testEnv)).deliveries).toBeGreaterThanOrEqual(1);
    // The re-sent message makes the attempt (to an unreachable host here: a recorded network error, retry scheduled).
    const delivery = await vi.waitFor(
      async () => {
        const found = await json(await api(`/v1/webhook-endpoints/deliveries/${deliveryId}`, { key }));
        expect(found.attempt_count >= 1 && found.status !== "delivering", JSON.stringify(found)).toBe(true);
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(delivery).toMatchObject({ attempt_count: 1, status: "pending" });
  });
});

describe("webhook delivery recovery", () => {
  async function endpoint(key: string) {
    const res = await api("/v1/webhook-endpoints", {
      method: "POST",
      key,
      body: { url: "https://hooks.example.com/recovery", event_catalog_version: "svc.customer-events.v1", events: ["asset.signed"] },
    });
    expect(res.status).toBe(201);
    return (await json(res)).endpoint.endpoint_id as string;
  }
  const row = (id: string) =>
    testEnv.DB.prepare("SELECT status, terminal_reason, attempt_count FROM webhook_deliveries WHERE id = ?")
      .bind(id)
      .first<{ status: string; terminal_reason: string | null; attempt_count: number }>();

  it("a pending delivery whose endpoint was disabled meanwhile is fenced when its message arrives, not left pending", async () => {
    const { key, tenantId } = await createTenant();
    const endpointId = await endpoint(key);
    await api(`/v1/webhook-endpoints/${endpointId}/disable`, { method: "POST", key });
    const deliveryId = await insertDelivery(tenantId, endpointId);
    await deliverOnce(testEnv, deliveryId);
    expect(await row(deliveryId)).toMatchObject({ status: "dead", terminal_reason: "endpoint_disabled", attempt_count: 0 });
  });

  it("a delivery that has used its attempts since the last replay ends as retries_exhausted instead of trying again", async () => {
    const { key, tenantId } = await createTenant();
    const endpointId = await endpoint(key);
    const deliveryId = await insertDelivery(tenantId, endpointId, { attempts: 13, attemptBase: 3 });
    await deliverOnce(testEnv, deliveryId);
    expect(await row(deliveryId)).toMatchObject({ status: "dead", terminal_reason: "retries_exhausted", attempt_count: 13 });
  });

  it("an attempt the service cannot make (its secret will not open) is recorded and retried on the schedule, never looping silently", async () => {
    const { key, tenantId } = await createTenant();
    const endpointId = await endpoint(key);
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET secret_ciphertext = 'v1.AAAA.AAAA' WHERE id = ?").bind(endpointId).run();
    const deliveryId = await insertDelivery(tenantId, endpointId);
    await deliverOnce(testEnv, deliveryId);
    expect(await row(deliveryId)).toMatchObject({ status: "pending", attempt_count: 1 });
    const attempts = await json(await api(`/v1/webhook-endpoints/deliveries/${deliveryId}/attempts`, { key }));
    expect(attempts.data[0]).toMatchObject({ attempt_number: 1, outcome: "retry_scheduled", error: "internal_error", response_code: null });
  });

  it("a replay restarts the retry schedule: the first retry after it waits the first step, not a late one", async () => {
    const { key, tenantId } = await createTenant();
    const endpointId = await endpoint(key);
    const deliveryId = await insertDelivery(tenantId, endpointId, { attempts: 9, attemptBase: 9 });
    await deliverOnce(testEnv, deliveryId);
    const after = await testEnv.DB.prepare("SELECT status, attempt_count, next_attempt_at, updated_at FROM webhook_deliveries WHERE id = ?")
      .bind(deliveryId)
      .first<{ status: string; attempt_count: number; next_attempt_at: number; updated_at: number }>();
    expect(after).toMatchObject({ status: "pending", attempt_count: 10 });
    // Attempt 1 since the replay failed (no network here): the next waits the schedule's first step, 5 s ± 10%.
    expect(after!.next_attempt_at - after!.updated_at).toBeGreaterThanOrEqual(4_500);
    expect(after!.next_attempt_at - after!.updated_at).toBeLessThanOrEqual(5_500);
  });

  it("the sweep re-sends more than 100 stranded events (Queues take 100 per batch) and still re-sends stalled deliveries", async () => {
    const { key, tenantId } = await createTenant();
    await endpoint(key);
    const old = Date.now() - 300_000;
    const ids = Array.from({ length: 130 }, () => newId("webhookEvent"));
    await testEnv.DB.batch(
      ids.map((id) =>
        testEnv.DB.prepare(
          "INSERT INTO webhook_events (id, tenant_id, type, body, test, created_at) VALUES (?, ?, 'asset.watermarked', '{}', 0, ?)",
        ).bind(id, tenantId, old),
      ),
    );
    const swept = await sweepWebhooks(testEnv);
    expect(swept.events).toBeGreaterThanOrEqual(130);
    await vi.waitFor(
      async () => {
        const left = await testEnv.DB.prepare(`SELECT COUNT(*) AS n FROM webhook_events WHERE tenant_id = ? AND fanned_out_at IS NULL`)
          .bind(tenantId)
          .first<{ n: number }>();
        expect(left?.n).toBe(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(
      (
        await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM webhook_events WHERE tenant_id = ? AND fanned_out_at IS NULL")
          .bind(tenantId)
          .first<{ n: number }>()
      )?.n,
    ).toBe(0);
  });

  it("forgets delivery records past retention and deleted endpoints past theirs", async () => {
    const { key, tenantId } = await createTenant();
    const endpointId = await endpoint(key);
    const deliveryId = await insertDelivery(tenantId, endpointId);
    const longAgo = Date.now() - 31 * 86_400_000;
    await testEnv.DB.batch([
      testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered', created_at = ?, updated_at = ? WHERE id = ?").bind(
        longAgo,
        longAgo,
        deliveryId,
      ),
      testEnv.DB.prepare("UPDATE webhook_events SET created_at = ? WHERE id = (SELECT event_id FROM webhook_deliveries WHERE id = ?)").bind(
        longAgo,
        deliveryId,
      ),
      testEnv.DB.prepare("UPDATE webhook_endpoints SET state = 'deleted', deleted_at = ?, retain_until = ? WHERE id = ?").bind(
        longAgo,
        longAgo + 1,
        endpointId,
      ),
    ]);
    // A delivery created long ago but changed recently (a replay) is kept.
    const replayed = await insertDelivery(tenantId, endpointId);
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered', created_at = ? WHERE id = ?")
      .bind(longAgo, replayed)
      .run();
    await sweepWebhooks(testEnv);
    expect(await row(deliveryId)).toBeNull();
    expect(await row(replayed)).not.toBeNull();
    // The deleted endpoint past its retention goes once no delivery refers to it.
    expect(await testEnv.DB.prepare("SELECT id FROM webhook_endpoints WHERE id = ?").bind(endpointId).first()).not.toBeNull();
    await testEnv.DB.prepare("DELETE FROM webhook_deliveries WHERE id = ?").bind(replayed).run();
    await sweepWebhooks(testEnv);
    expect(await testEnv.DB.prepare("SELECT id FROM webhook_endpoints WHERE id = ?").bind(endpointId).first()).toBeNull();
  });
});
