import { describe, expect, it } from "vitest";
import { faultyEnv } from "../support/faults";
import { addKey, createTenant, testEnv } from "../support/helpers";
import { createEndpoint } from "../support/webhooks.helpers";
import { request, send } from "./faults-http.helpers";

/*
 * Review of the Durable Object fault work (#22) (platform/idempotency: "A one-time secret issued unaudited ... not shown, the key released,
 * 503. The retry re-issues the secret to the same resource (ids derived from the key)"). Only POST /v1/api-keys
 * and POST /v1/webhook-endpoints derive their ids from the Idempotency-Key (idFor). The other one-time-secret
 * operations' first attempt stays written: the retry the 503 asks for ("Retry with the same Idempotency-Key")
 * meets that write and is refused, so the secret is lost for good and a live credential nobody holds remains.
 */
describe("review: the retry a withheld one-time secret asks for must get the secret", () => {
  it("POST /v1/api-keys/{id}/rotate: audit append fails → 503; the retry with the same key issues the successor's secret", async () => {
    const { tenantId, key } = await createTenant();
    const target = await addKey(tenantId);
    const idem = crypto.randomUUID();
    const rotate = () =>
      request(`/v1/api-keys/${target.keyId}/rotate`, {
        method: "POST",
        key,
        body: { overlap_seconds: 3600 },
        headers: { "idempotency-key": idem },
      });
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const faulted = await send(faulty.env, rotate());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/svc_live_/);
    const retried = await send(testEnv, rotate());
    // The finding: 409 svc.api_keys.rotation_in_progress; the successor is active and its secret was never shown.
    expect(retried.body?.code, retried.text).not.toBe("svc.api_keys.rotation_in_progress");
    expect(retried.status, retried.text).toBe(201);
  });

  it("POST /v1/webhook-endpoints/{id}/rotate-secret: audit append fails → 503; the retry with the same key issues the secret", async () => {
    const { key } = await createTenant();
    const endpoint = await createEndpoint(key);
    const idem = crypto.randomUUID();
    const rotate = () =>
      request(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST", key, headers: { "idempotency-key": idem } });
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const faulted = await send(faulty.env, rotate());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/whsec_/);
    const retried = await send(testEnv, rotate());
    expect(retried.body?.code, retried.text).not.toBe("svc.webhooks.rotation_in_progress");
    // rotate-secret's documented success is 200 (it changes an existing endpoint; the create is the 201).
    expect(retried.status, retried.text).toBe(200);
  });
});
