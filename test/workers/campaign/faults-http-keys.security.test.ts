import { describe, expect, it } from "vitest";
import { drainAuditOutbox } from "../../../src/governance/audit/service";
import { createTenant, testEnv } from "../support/helpers";
import { appendLandedThenCrashed, count, request, send, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults over HTTP: API key authentication (every authenticated call) and the key operations. Each D1 call the
 * request makes fails in turn (and each write lands and then the isolate dies): the answer is a success or a clean,
 * retryable envelope, and the same request retried on the healthy env yields one logical result.
 */
describe("faults over HTTP: API keys", () => {
  it("authentication: a failing key lookup answers a retryable 503, never a 401 or a 500", async () => {
    const result = await sweep({
      name: "GET /v1/me",
      setup: async () => createTenant(),
      request: (s) => request("/v1/me", { key: s.key }),
      success: [200],
      check: async (_s, retried) => {
        expect(retried.body.tenant?.tenant_id ?? retried.body.tenant_id ?? retried.text).toBeTruthy();
      },
    });
    console.log(table("GET /v1/me", result));
    expect(result.sites.length).toBeGreaterThan(0);
  });

  it("POST /v1/api-keys: one key and its audit record, whatever failed", async () => {
    const result = await sweep({
      name: "POST /v1/api-keys",
      setup: async () => ({ ...(await createTenant()), idem: crypto.randomUUID() }),
      request: (s) =>
        request("/v1/api-keys", {
          method: "POST",
          key: s.key,
          body: { name: "CI", scopes: ["capabilities:read"] },
          headers: { "idempotency-key": s.idem },
        }),
      // 409 secret_not_replayable: the first request completed (the key exists) and its secret is never stored.
      success: [201, 409],
      check: async (s, retried, _faulted, site, mode) => {
        if (retried.status === 409) expect(retried.body.code).toBe("secret_not_replayable");
        const keys = await count("api_keys", "tenant_id = ? AND name = 'CI'", s.tenantId);
        expect(keys, "one key").toBe(1);
        const audits = await count("audit_events", "tenant_id = ? AND action = 'POST /v1/api-keys' AND outcome = 'succeeded'", s.tenantId);
        // Every secret issued is audited: the isolate that died right after its entry landed issued one nobody saw,
        // and the retry issues the key's secret again (a second entry for the one key).
        expect(audits, "its audit record").toBe(appendLandedThenCrashed(site, mode) ? 2 : 1);
      },
    });
    console.log(table("POST /v1/api-keys", result));
  });

  it("DELETE /v1/api-keys/{id}: revoked once, with its audit record", async () => {
    const result = await sweep({
      name: "DELETE /v1/api-keys/{id}",
      setup: async () => {
        const tenant = await createTenant();
        const made = await send(
          testEnv,
          request("/v1/api-keys", { method: "POST", key: tenant.key, body: { name: "tmp", scopes: ["identity:read"] } }),
        );
        expect(made.status).toBe(201);
        return { ...tenant, target: made.body.api_key.api_key_id as string };
      },
      request: (s) => request(`/v1/api-keys/${s.target}`, { method: "DELETE", key: s.key }),
      // 409 already_revoked: the faulted request's revoke landed (no Idempotency-Key was sent, so no replay).
      success: [200, 409],
      check: async (s, retried) => {
        if (retried.status === 409) expect(retried.body.code).toBe("svc.api_keys.already_revoked");
        const revoked = await count("api_keys", "id = ? AND status = 'revoked'", s.target);
        expect(revoked).toBe(1);
        // An entry the chain could not take was kept for the sweep (audit_outbox): the sweep runs first.
        await drainAuditOutbox(testEnv, Date.now());
        const audits = await count(
          "audit_events",
          "tenant_id = ? AND action = 'DELETE /v1/api-keys/{api_key_id}' AND outcome = 'succeeded'",
          s.tenantId,
        );
        expect(audits, "one audit record of the revoke").toBe(1);
      },
    });
    console.log(table("DELETE /v1/api-keys/{id}", result));
  });
});
