import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { requestFingerprint } from "../../../src/platform/idempotency";
import { newId } from "../../../src/platform/ids";
import { count, request, send } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, claimTakenOverBeforeBatch, insertCustomerEvent } from "../support/webhooks.helpers";
import { keyTakenBeforeBatch } from "./key-taken.helpers";

/*
 * #19 review: a keyed write that completes its key in its own batch (platform/idempotency completionInBatch) makes
 * its change only while it still holds its claim. The claim guard fails the whole batch (one transaction), also the
 * statements before it (a test event's inserts come first), and the request answers 409 request_in_progress.
 * An event replay claims its key in that batch (#19, claimKeyInBatch): a key another request claimed first fails it
 * the same way.
 */

/** An env whose every batch completing a key first moves every in-flight claim of the tenant on (a retry took it over). */
const takenOver = (base: Bindings, tenantId: string) => claimTakenOverBeforeBatch(base, tenantId);

describe("#19 review: a batch completing a key the request no longer holds writes nothing", () => {
  it("a test event whose claim was taken over inserts neither its event nor its delivery, and answers 409 request_in_progress", async () => {
    const tenant = await createTenant();
    const [endpointId] = await activeEndpoints(tenant.tenantId, 1);
    const res = await send(
      takenOver(testEnv, tenant.tenantId),
      request(`/v1/webhook-endpoints/${endpointId}/test`, {
        method: "POST",
        key: tenant.key,
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    expect(res.status, res.text).toBe(409);
    expect(JSON.parse(res.text).code).toBe("svc.idempotency.request_in_progress");
    expect(await count("webhook_deliveries", "endpoint_id = ?", endpointId)).toBe(0);
    expect(await count("webhook_events", "tenant_id = ?", tenant.tenantId)).toBe(0);
    expect(await count("audit_outbox", "tenant_id = ?", tenant.tenantId)).toBe(0);
  });

  it("an event replay whose claim was taken over answers 409 request_in_progress and leaves the holder's claim in flight", async () => {
    const tenant = await createTenant();
    await activeEndpoints(tenant.tenantId, 2);
    const eventId = newId("webhookEvent");
    await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
    const idem = crypto.randomUUID();
    const path = `/v1/webhook-events/${eventId}/replay`;
    const requestSha256 = await requestFingerprint("POST", new URL(`http://x${path}`), new Uint8Array(), testEnv.SVC_KEY_PEPPER!);
    const res = await send(
      keyTakenBeforeBatch(testEnv, {
        tenantId: tenant.tenantId,
        operation: "POST /v1/webhook-events/{event_id}/replay",
        key: idem,
        requestSha256,
      }),
      request(path, { method: "POST", key: tenant.key, headers: { "idempotency-key": idem } }),
    );
    expect(res.status, res.text).toBe(409);
    const body = JSON.parse(res.text);
    expect(body.code).toBe("svc.idempotency.request_in_progress");
    expect(body.retryable).toBe(true);
    expect(await count("idempotency_records", "tenant_id = ? AND idempotency_key = ? AND state = 'in_flight'", tenant.tenantId, idem)).toBe(
      1,
    );
    expect(await count("audit_outbox", "tenant_id = ?", tenant.tenantId)).toBe(0);
  });
});
