import { describe, expect, it } from "vitest";
import { drainAuditOutbox } from "../../../src/governance/audit/service";
import { newId } from "../../../src/platform/ids";
import { appendLandedThenCrashed, count, request, send, sweep, table } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, finishedDelivery, insertCustomerEvent } from "../support/webhooks.helpers";

/*
 * #19: an event replay with an Idempotency-Key completes its key in the replay's own D1 batch (platform/idempotency
 * completionInBatch), its answer computed there. The stored answer must be exactly the answer given, whatever the
 * deliveries' states, and a crash after the batch must leave the key completed with that answer: a retry is told
 * what the replay did (not a second replay that finds every delivery in progress and answers 0).
 */

type Status = "pending" | "delivering" | "delivered" | "failed" | "dead";

/** An event with endpoints in every state a replay meets: finished, in progress, none yet, and one disabled. */
async function scene() {
  const tenant = await createTenant();
  const [delivered, pending, delivering, failed, dead, none, disabled] = await activeEndpoints(tenant.tenantId, 7);
  await testEnv.DB.prepare("UPDATE webhook_endpoints SET state = 'disabled' WHERE id = ?").bind(disabled).run();
  const eventId = newId("webhookEvent");
  await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
  const now = Date.now();
  const deliveries = new Map<string, string>();
  const rows: [string, Status][] = [
    [delivered!, "delivered"],
    [pending!, "pending"],
    [delivering!, "delivering"],
    [failed!, "failed"],
    [dead!, "dead"],
    [disabled!, "delivered"],
  ];
  await testEnv.DB.batch(
    rows.map(([endpointId, status]) => {
      const id = newId("webhookDelivery");
      deliveries.set(endpointId, id);
      return testEnv.DB.prepare(
        `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, lease_until, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'asset.signed', ?, 1, 0, 0, ?, ?, ?, ?)`,
      ).bind(
        id,
        tenant.tenantId,
        endpointId,
        eventId,
        status,
        status === "pending" ? now + 60_000 : null,
        status === "delivering" ? now + 60_000 : null,
        now,
        now,
      );
    }),
  );
  // Queued by a replay: the three finished deliveries of active endpoints, and a new one for `none`.
  return {
    ...tenant,
    eventId,
    idem: crypto.randomUUID(),
    deliveries,
    restarted: [delivered!, failed!, dead!],
    leftAlone: [pending!, delivering!, disabled!],
    none: none!,
  };
}

type Scene = Awaited<ReturnType<typeof scene>>;

const replay = (s: Scene) =>
  request(`/v1/webhook-events/${s.eventId}/replay`, { method: "POST", key: s.key, headers: { "idempotency-key": s.idem } });

async function replayCounts(s: Scene): Promise<Map<string, { status: string; replay_count: number }>> {
  const rows = await testEnv.DB.prepare("SELECT endpoint_id, status, replay_count FROM webhook_deliveries WHERE event_id = ?")
    .bind(s.eventId)
    .all<{ endpoint_id: string; status: string; replay_count: number }>();
  return new Map(rows.results.map((r) => [r.endpoint_id, r]));
}

/** The replay happened once: each finished delivery of an active endpoint restarted once, one new delivery, the rest untouched. */
async function expectReplayedOnce(s: Scene) {
  const after = await replayCounts(s);
  for (const endpointId of s.restarted) expect(after.get(endpointId), "restarted once").toMatchObject({ replay_count: 1 });
  for (const endpointId of s.leftAlone) expect(after.get(endpointId), "left alone").toMatchObject({ replay_count: 0 });
  expect(after.get(s.none), "a new delivery (the consumer may have attempted it since)").toMatchObject({ replay_count: 0 });
  expect(after.size).toBe(7);
}

describe("#19: an event replay's key completed in the replay's own batch", () => {
  it("stores exactly the answer given (every delivery state), and the same key answers it again without replaying", async () => {
    const s = await scene();
    const first = await send(testEnv, replay(s));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ event_id: s.eventId, delivery_count: 4 });
    const record = await testEnv.DB.prepare(
      "SELECT state, response_status, response_content_type, response_body, secret_withheld FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?",
    )
      .bind(s.tenantId, s.idem)
      .first();
    expect(record).toEqual({
      state: "completed",
      response_status: 200,
      response_content_type: first.headers.get("content-type"),
      response_body: first.text,
      secret_withheld: 0,
    });
    await expectReplayedOnce(s);
    // Its audit entry appended by the request, and the row its batch kept dropped with that append.
    expect(await count("audit_events", "tenant_id = ? AND action = 'POST /v1/webhook-events/{event_id}/replay'", s.tenantId)).toBe(1);
    expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);

    const again = await send(testEnv, replay(s));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    await expectReplayedOnce(s);
  });

  it("an unknown event is answered 404 and that answer stored, as any keyed refusal", async () => {
    const s = await scene();
    const unknown = newId("webhookEvent");
    const req = () =>
      request(`/v1/webhook-events/${unknown}/replay`, { method: "POST", key: s.key, headers: { "idempotency-key": s.idem } });
    const first = await send(testEnv, req());
    expect(first.status).toBe(404);
    const again = await send(testEnv, req());
    expect(again.status).toBe(404);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("faults at every I/O site: the retry with the same key is told what the one replay did", async () => {
    const result = await sweep<Scene>({
      name: "POST /v1/webhook-events/{event_id}/replay",
      setup: scene,
      request: replay,
      success: [200],
      check: async (s, retried, _faulted, site, mode) => {
        // Before the batch the retry runs the replay; after it, the key holds the replay's answer (the fix: it
        // used to be completed after the batch, so a crash between left it claimed and the retry replayed again,
        // finding every delivery in progress: delivery_count 0).
        expect(retried.body).toEqual({ event_id: s.eventId, delivery_count: 4 });
        await expectReplayedOnce(s);
        // The one replay's audit entry: appended by the request, or kept by its batch for the sweep (a crash after
        // the batch: the retry is answered the stored answer and audits nothing) — once either way.
        await drainAuditOutbox(testEnv, Date.now() + 10 * 60_000);
        expect(
          await count("audit_events", "tenant_id = ? AND action = 'POST /v1/webhook-events/{event_id}/replay'", s.tenantId),
          `one audit entry for the one replay (${site.detail.slice(0, 60)} ${mode}${appendLandedThenCrashed(site, mode) ? ", the append landed" : ""})`,
        ).toBe(1);
        expect(await count("audit_outbox", "tenant_id = ?", s.tenantId), "no kept entry left").toBe(0);
      },
    });
    console.log(table("POST /v1/webhook-events/{event_id}/replay", result));
    // The replay's batch was among the sites, and crashing after it was tried.
    expect(result.outcomes.some((o) => o.mode === "crash-after" && /webhook_deliveries/.test(o.site.detail))).toBe(true);
  });
});

/** The key's stored record for a tenant's Idempotency-Key. */
function storedRecord(tenantId: string, key: string) {
  return testEnv.DB.prepare(
    "SELECT state, response_status, response_content_type, response_body, secret_withheld FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?",
  )
    .bind(tenantId, key)
    .first();
}

type Finished = Awaited<ReturnType<typeof finishedDelivery>>;

const replayOne = (s: Finished) =>
  request(`/v1/webhook-endpoints/deliveries/${s.deliveryId}/replay`, {
    method: "POST",
    key: s.key,
    headers: { "idempotency-key": s.idem },
  });

async function replayCountOf(deliveryId: string): Promise<number> {
  return (await testEnv.DB.prepare("SELECT replay_count FROM webhook_deliveries WHERE id = ?")
    .bind(deliveryId)
    .first<{ replay_count: number }>())!.replay_count;
}

describe("#19: a delivery replay's and a test event's keys completed in their own batches", () => {
  it("a delivery replay stores exactly its answer; the same key answers it again without restarting the delivery twice", async () => {
    const s = await finishedDelivery();
    const first = await send(testEnv, replayOne(s));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ event_id: s.eventId });
    expect(await storedRecord(s.tenantId, s.idem)).toEqual({
      state: "completed",
      response_status: 200,
      response_content_type: first.headers.get("content-type"),
      response_body: first.text,
      secret_withheld: 0,
    });
    const again = await send(testEnv, replayOne(s));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await replayCountOf(s.deliveryId)).toBe(1);
  });

  it("a delivery still in progress is refused 409 (retryable: the key is released) and nothing is completed in the batch", async () => {
    const s = await finishedDelivery();
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'pending' WHERE id = ?").bind(s.deliveryId).run();
    const first = await send(testEnv, replayOne(s));
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ code: "svc.webhooks.delivery_in_progress", retryable: true });
    expect(await storedRecord(s.tenantId, s.idem)).toBeNull();
    expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);
    expect(await replayCountOf(s.deliveryId)).toBe(0);
  });

  it("a test event stores exactly its 202 answer; the same key answers it again and queues no second event", async () => {
    const s = await finishedDelivery();
    const req = () =>
      request(`/v1/webhook-endpoints/${s.endpointId}/test`, { method: "POST", key: s.key, headers: { "idempotency-key": s.idem } });
    const first = await send(testEnv, req());
    expect(first.status).toBe(202);
    expect(await storedRecord(s.tenantId, s.idem)).toEqual({
      state: "completed",
      response_status: 202,
      response_content_type: first.headers.get("content-type"),
      response_body: first.text,
      secret_withheld: 0,
    });
    const again = await send(testEnv, req());
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await count("webhook_events", "tenant_id = ? AND test = 1", s.tenantId)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'POST /v1/webhook-endpoints/{endpoint_id}/test'", s.tenantId)).toBe(1);
  });

  it("faults at every I/O site of a delivery replay: the retry is told the one restart (not 409 in progress), audited once", async () => {
    const result = await sweep<Finished>({
      name: "POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay",
      setup: finishedDelivery,
      request: replayOne,
      success: [200],
      check: async (s, retried) => {
        expect(retried.body).toEqual({ event_id: s.eventId });
        expect(await replayCountOf(s.deliveryId)).toBe(1);
        await drainAuditOutbox(testEnv, Date.now() + 10 * 60_000);
        expect(
          await count(
            "audit_events",
            "tenant_id = ? AND action = 'POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay'",
            s.tenantId,
          ),
        ).toBe(1);
        expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);
      },
    });
    console.log(table("POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay", result));
    expect(result.outcomes.some((o) => o.mode === "crash-after" && /webhook_deliveries/.test(o.site.detail))).toBe(true);
  });
});
