import { describe, expect, it } from "vitest";
import { newId } from "../../src/platform/ids";
import { sweepWebhooks } from "../../src/webhooks/delivery";
import { api, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "./helpers";

/** The outbox: events commit with the publication, and the sweep fans out what a dead Worker never did. */
describe("webhook outbox", () => {
  async function endpoint(key: string, events: string[]) {
    const res = await api("/v1/webhook-endpoints", { method: "POST", key, body: { url: "https://hooks.example.com/outbox", event_catalog_version: "svc.customer-events.v1", events } });
    expect(res.status).toBe(201);
    return (await json(res)).endpoint.endpoint_id as string;
  }

  it("a publication writes its asset.signed event in the same transaction, and the fan-out creates one delivery per subscribed endpoint", async () => {
    const { key, tenantId } = await createTenant();
    const subscribed = await endpoint(key, ["asset.signed"]);
    const other = await endpoint(key, ["asset.watermarked"]);
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "outbox.jpg");
    const started = await json(await api("/v1/sign", { method: "POST", key, body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" }, headers: { "idempotency-key": crypto.randomUUID() } }));
    const job = await waitForJob(key, started.job_id);
    expect(job.state).toBe("completed");

    const events = await testEnv.DB.prepare("SELECT id, type, body FROM webhook_events WHERE tenant_id = ?").bind(tenantId).all<{ id: string; type: string; body: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["asset.signed"]);
    const body = JSON.parse(events.results[0]!.body);
    expect(body).toMatchObject({ id: events.results[0]!.id, type: "asset.signed", event_catalog_version: "svc.customer-events.v1", test: false });
    expect(body.data).toMatchObject({ asset_id: assetId, job_id: started.job_id, publication_id: job.result.publication_id, recipe_id: "rcp_system_sign_only", watermark_algorithm: null });

    // The nudge after the commit fans out at once: one delivery, to the subscribed endpoint only.
    let deliveries: any[] = [];
    for (let i = 0; i < 50 && deliveries.length === 0; i++) {
      deliveries = (await json(await api(`/v1/webhook-endpoints/${subscribed}/deliveries`, { key }))).data;
      if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event_id: body.id, event_type: "asset.signed" });
    expect((await json(await api(`/v1/webhook-endpoints/${other}/deliveries`, { key }))).data).toHaveLength(0);
  });

  it("an event committed without its fan-out (the Worker died) is fanned out by the cron sweep, once", async () => {
    const { key, tenantId } = await createTenant();
    const subscribed = await endpoint(key, ["asset.watermarked"]);
    const eventId = newId("webhookEvent");
    const twoMinutesAgo = Date.now() - 120_000;
    await testEnv.DB.prepare("INSERT INTO webhook_events (id, tenant_id, type, body, test, created_at) VALUES (?, ?, 'asset.watermarked', ?, 0, ?)")
      .bind(eventId, tenantId, JSON.stringify({ id: eventId, type: "asset.watermarked" }), twoMinutesAgo)
      .run();
    const swept = await sweepWebhooks(testEnv);
    expect(swept.events).toBeGreaterThanOrEqual(1);
    let deliveries: any[] = [];
    for (let i = 0; i < 50 && deliveries.length === 0; i++) {
      deliveries = (await json(await api(`/v1/webhook-endpoints/${subscribed}/deliveries`, { key }))).data;
      if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(deliveries.map((d) => d.event_id)).toEqual([eventId]);
    const row = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?").bind(eventId).first<{ fanned_out_at: number | null }>();
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
      testEnv.DB.prepare("INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', '{}', 0, ?, ?)").bind(eventId, tenantId, old, old),
      testEnv.DB.prepare(
        "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'pending', 0, 0, ?, ?, ?)",
      ).bind(deliveryId, tenantId, subscribed, eventId, old, old, old),
    ]);
    expect((await sweepWebhooks(testEnv)).deliveries).toBeGreaterThanOrEqual(1);
    // The re-sent message makes the attempt (to an unreachable host here: a recorded network error, retry scheduled).
    let delivery: any = null;
    for (let i = 0; i < 50; i++) {
      delivery = await json(await api(`/v1/webhook-endpoints/deliveries/${deliveryId}`, { key }));
      if (delivery.attempt_count >= 1 && delivery.status !== "delivering") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivery).toMatchObject({ attempt_count: 1, status: "pending" });
  });
});
