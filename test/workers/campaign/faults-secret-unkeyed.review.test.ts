import { describe, expect, it } from "vitest";
import { faultyEnv } from "../support/faults";
import { createTenant, testEnv } from "../support/helpers";
import { createBody } from "../support/webhooks.helpers";
import { count, request, send } from "./faults-http.helpers";

/*
 * Review of the Durable Object fault work (#22) ("secret-issuing writes withhold the secret if the audit append fails"). The withholding
 * lives in the idempotency middleware, which a write without an Idempotency-Key never enters, and the key is
 * optional on POST /v1/api-keys (policy oneTimeSecret(..., "optional")). Without the header the audit middleware
 * awaits its own append, logs the failure and lets the answer through: the key's secret is shown while no audit
 * entry of its issue exists.
 */
describe("review: one-time secret issued without an Idempotency-Key while the audit chain fails", () => {
  it("POST /v1/api-keys without Idempotency-Key: an audit append that fails must not show the secret", async () => {
    const tenant = await createTenant();
    const create = () =>
      request("/v1/api-keys", { method: "POST", key: tenant.key, body: { name: "unkeyed-unaudited", scopes: ["identity:read"] } });
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const faulted = await send(faulty.env, create());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    const audited = await count("audit_events", "tenant_id = ? AND action = 'POST /v1/api-keys'", tenant.tenantId);
    expect(audited, "the issue was not audited").toBe(0);
    // The finding: 201 with a working secret and no audit entry of it.
    expect(faulted.text, `status ${faulted.status}`).not.toMatch(/svc_live_/);
    expect(faulted.status).toBe(503);
  });

  it("POST /v1/webhook-endpoints without Idempotency-Key: an audit append that fails must not show the signing secret", async () => {
    const tenant = await createTenant();
    const create = () => request("/v1/webhook-endpoints", { method: "POST", key: tenant.key, body: createBody() });
    // Which Durable Object call of the create is the audit append (a probe on a tenant of its own).
    const probe = faultyEnv(testEnv);
    const probed = await send(
      probe.env,
      request("/v1/webhook-endpoints", { method: "POST", key: (await createTenant()).key, body: createBody() }),
    );
    expect(probed.status, probed.text).toBe(201);
    const at = probe.log.filter((s) => s.kind === "do").findIndex((s) => s.detail === "AUDIT_CHAIN.append") + 1;
    expect(at, "the create appends to the audit chain").toBeGreaterThan(0);
    const faulty = faultyEnv(testEnv, { at, kinds: ["do"] });
    const faulted = await send(faulty.env, create());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(await count("audit_events", "tenant_id = ? AND action = 'POST /v1/webhook-endpoints'", tenant.tenantId)).toBe(0);
    expect(faulted.text, `status ${faulted.status}`).not.toMatch(/whsec_/);
    expect(faulted.status).toBe(503);
  });
});
