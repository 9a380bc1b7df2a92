import { expect, it } from "vitest";
import { faultyEnv } from "../support/faults";
import { createTenant, testEnv } from "../support/helpers";
import { createBody } from "../support/webhooks.helpers";
import { count, request, send } from "./faults-http.helpers";

/*
 * Review of the withdrawal of unaudited one-time secrets (d7f8bb4..892c05b). A KEYED webhook-endpoint create whose
 * audit append fails answers 503 and is deliberately left live "for its retry, which converges on the same resource
 * and re-issues its secret" (platform/audit). But the convergence (webhooks/service createEndpoint →
 * resealUnshownSecret) refuses once any delivery was attempted to the endpoint, and deliveries go out on their own
 * (any event of the tenant) while the client waits to retry. The retry then makes a second endpoint and the first
 * stays active for good, receiving every event signed with a secret nobody holds (and taking a slot of the limit).
 */
it("keyed webhook create withheld (audit down), a delivery attempted meanwhile: the retry leaves no live endpoint nobody holds", async () => {
  const { tenantId, key } = await createTenant();
  const idempotencyKey = crypto.randomUUID();
  const create = () =>
    request("/v1/webhook-endpoints", { method: "POST", key, body: createBody(), headers: { "idempotency-key": idempotencyKey } });
  // Where the audit append falls among the DO calls of a (keyed) create, found on another tenant.
  const probe = faultyEnv(testEnv);
  const probed = await send(
    probe.env,
    request("/v1/webhook-endpoints", {
      method: "POST",
      key: (await createTenant()).key,
      body: createBody(),
      headers: { "idempotency-key": crypto.randomUUID() },
    }),
  );
  expect(probed.status, probed.text).toBe(201);
  const at = probe.log.filter((s) => s.kind === "do").findIndex((s) => s.detail === "AUDIT_CHAIN.append") + 1;
  expect(at).toBeGreaterThan(0);

  const faulty = faultyEnv(testEnv, { at, kinds: ["do"] });
  const faulted = await send(faulty.env, create());
  expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
  expect(faulted.status, faulted.text).toBe(503);
  expect(faulted.text).not.toMatch(/whsec_/);
  // The withheld endpoint is deleted at once, keyed or not (a keyed retry could re-seal it only while no delivery
  // was attempted): nothing live is left whose secret nobody holds, whatever happens before the retry.
  expect(await count("webhook_endpoints", "tenant_id = ? AND state = 'active'", tenantId), "live endpoints after the 503").toBe(0);

  const retried = await send(testEnv, create());
  expect(retried.status, retried.text).toBe(201);
  expect(retried.text).toMatch(/whsec_/);
  // The caller holds exactly one endpoint's secret: no other endpoint of the tenant may stay active.
  expect(await count("webhook_endpoints", "tenant_id = ? AND state = 'active'", tenantId), "live endpoints").toBe(1);
});
