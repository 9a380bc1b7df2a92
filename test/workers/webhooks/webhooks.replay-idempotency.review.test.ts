import { describe, expect, it } from "vitest";
import { requestFingerprint } from "../../../src/platform/idempotency";
import { newId } from "../../../src/platform/ids";
import { count, request, send } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, finishedDelivery, insertCustomerEvent } from "../support/webhooks.helpers";
import { keyTakenBeforeBatch } from "./key-taken.helpers";

/*
 * Review of #19's completion in the operation's own batch (platform/idempotency completionInBatch). The batch
 * completes the key only for the request still holding its claim (its lease), but makes the change whether or
 * not it does: a request whose lease lapsed and was taken over by the client's retry still replays, and its retry
 * (the holder) then finds every delivery in progress and stores `delivery_count: 0` for an operation that queued
 * them — the very answer #19 set out to prevent for a crash after the batch. The batch that already carries the
 * claim check could carry it for the change too (a guard first in the batch), so the change is made only by the
 * holder. Both replays now claim their key in that very batch (#19, claimKeyInBatch): there, the client's retry is
 * first to claim the key, which the batch then finds taken (keyTakenBeforeBatch).
 */

describe("#19 review: a request that no longer holds its key makes no change", () => {
  it("an event replay whose lease was taken over before its batch does not replay (the holder does, once)", async () => {
    const tenant = await createTenant();
    await activeEndpoints(tenant.tenantId, 3);
    const eventId = newId("webhookEvent");
    await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
    const idem = crypto.randomUUID();
    const replay = () =>
      request(`/v1/webhook-events/${eventId}/replay`, { method: "POST", key: tenant.key, headers: { "idempotency-key": idem } });

    const path = `/v1/webhook-events/${eventId}/replay`;
    const requestSha256 = await requestFingerprint("POST", new URL(`http://x${path}`), new Uint8Array(), testEnv.SVC_KEY_PEPPER!);
    const stale = await send(
      keyTakenBeforeBatch(testEnv, {
        tenantId: tenant.tenantId,
        operation: "POST /v1/webhook-events/{event_id}/replay",
        key: idem,
        requestSha256,
      }),
      replay(),
    );
    const held = await testEnv.DB.prepare("SELECT state FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?")
      .bind(tenant.tenantId, idem)
      .first<{ state: string }>();
    expect(held?.state, "the key is still the new holder's claim").toBe("in_flight");
    expect(
      await count("webhook_deliveries", "event_id = ?", eventId),
      `the request that lost its claim queued nothing (it answered ${stale.status} ${stale.text.slice(0, 120)})`,
    ).toBe(0);
  });

  it("a delivery replay whose lease was taken over before its batch does not restart the delivery", async () => {
    const { deliveryId, ...tenant } = await finishedDelivery();
    const path = `/v1/webhook-endpoints/deliveries/${deliveryId}/replay`;
    const idem = crypto.randomUUID();
    const requestSha256 = await requestFingerprint("POST", new URL(`http://x${path}`), new Uint8Array(), testEnv.SVC_KEY_PEPPER!);
    const stale = await send(
      keyTakenBeforeBatch(testEnv, {
        tenantId: tenant.tenantId,
        operation: "POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay",
        key: idem,
        requestSha256,
      }),
      request(path, { method: "POST", key: tenant.key, headers: { "idempotency-key": idem } }),
    );
    const row = await testEnv.DB.prepare("SELECT replay_count FROM webhook_deliveries WHERE id = ?")
      .bind(deliveryId)
      .first<{ replay_count: number }>();
    // Else the holder (the client's retry) finds it pending: 409 in progress until it finishes, then restarts it again.
    expect(row?.replay_count, `the request that lost its claim restarted nothing (it answered ${stale.status})`).toBe(0);
  });
});
