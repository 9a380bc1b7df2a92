import { describe, expect, it } from "vitest";
import { faultyEnv } from "../support/faults";
import { addKey, createTenant, fixture, testEnv } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import { createBody, createEndpoint } from "../support/webhooks.helpers";
import { count, request, send } from "./faults-http.helpers";

/*
 * A one-time secret whose issue cannot be audited is withheld (503), and what it would open is undone where no retry
 * can re-issue it (platform/audit auditWrites → withdrawSecret): a rotation is canceled, a create without an
 * Idempotency-Key revoked (a key) or deleted (an endpoint). No live credential nobody holds is left, and the retry
 * (here without a key) ends with the caller holding a working secret whose issue is audited.
 */
const faultAppend = () => faultyEnv(testEnv, { at: 1, kinds: ["do"] }); // the first DO call is the audit append

async function sealedSecrets(endpointId: string) {
  return (await testEnv.DB.prepare(
    "SELECT secret_ciphertext AS current, previous_secret_ciphertext AS previous FROM webhook_endpoints WHERE id = ?",
  )
    .bind(endpointId)
    .first<{ current: string | null; previous: string | null }>())!;
}

describe("an unaudited one-time secret is withdrawn, not left live", () => {
  it("api-key rotate without Idempotency-Key: 503, the successor revoked, the old key still works; the retry rotates and is audited", async () => {
    const { tenantId, key } = await createTenant();
    const target = await addKey(tenantId);
    const rotate = () => request(`/v1/api-keys/${target.keyId}/rotate`, { method: "POST", key, body: { overlap_seconds: 3600 } });
    const faulty = faultAppend();
    const faulted = await send(faulty.env, rotate());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/svc_live_/);
    expect(await count("api_keys", "predecessor_key_id = ? AND status = 'active'", target.keyId), "no live successor").toBe(0);
    expect((await send(testEnv, request("/v1/me", { key: target.key }))).status).toBe(200);
    const retried = await send(testEnv, rotate());
    expect(retried.status, retried.text).toBe(201);
    expect((await send(testEnv, request("/v1/me", { key: retried.body.secret }))).status).toBe(200);
    expect(await count("api_keys", "predecessor_key_id = ? AND status = 'active'", target.keyId)).toBe(1);
    expect(
      await count("audit_events", "tenant_id = ? AND action = 'POST /v1/api-keys/{api_key_id}/rotate' AND outcome = 'succeeded'", tenantId),
    ).toBe(1);
  });

  it("webhook rotate-secret without Idempotency-Key: 503, the outgoing secret signs alone again; the retry rotates from it", async () => {
    const { key } = await createTenant();
    const endpoint = await createEndpoint(key);
    const before = await sealedSecrets(endpoint.id);
    const rotate = () => request(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST", key });
    const faulty = faultAppend();
    const faulted = await send(faulty.env, rotate());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/whsec_/);
    expect(await sealedSecrets(endpoint.id)).toEqual({ current: before.current, previous: null });
    const retried = await send(testEnv, rotate());
    expect(retried.status, retried.text).toBe(200);
    expect(retried.text).toMatch(/whsec_/);
    const after = await sealedSecrets(endpoint.id);
    expect(after.previous, "the overlap is from the secret the caller already had").toBe(before.current);
    expect(after.current).not.toBe(before.current);
  });

  it("api-key create without Idempotency-Key: the key made is revoked (secret_withheld), and a DELETE of it is 409", async () => {
    const { tenantId, key } = await createTenant();
    const faulty = faultAppend();
    const faulted = await send(
      faulty.env,
      request("/v1/api-keys", { method: "POST", key, body: { name: "withdrawn", scopes: ["identity:read"] } }),
    );
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    const made = await testEnv.DB.prepare("SELECT id, status, revoked_by FROM api_keys WHERE tenant_id = ? AND name = 'withdrawn'")
      .bind(tenantId)
      .all<{ id: string; status: string; revoked_by: string | null }>();
    expect(made.results.map((r) => [r.status, r.revoked_by])).toEqual([["revoked", "secret_withheld"]]);
    const deleted = await send(testEnv, request(`/v1/api-keys/${made.results[0]!.id}`, { method: "DELETE", key }));
    expect(deleted.status, deleted.text).toBe(409);
  });

  it("webhook endpoint create without Idempotency-Key: the endpoint made is deleted (its secret wiped)", async () => {
    const { tenantId, key } = await createTenant();
    // The create's first DO call is not the audit append: find it on a probe tenant.
    const probe = faultyEnv(testEnv);
    expect(
      (await send(probe.env, request("/v1/webhook-endpoints", { method: "POST", key: (await createTenant()).key, body: createBody() })))
        .status,
    ).toBe(201);
    const at = probe.log.filter((s) => s.kind === "do").findIndex((s) => s.detail === "AUDIT_CHAIN.append") + 1;
    const faulty = faultyEnv(testEnv, { at, kinds: ["do"] });
    const faulted = await send(faulty.env, request("/v1/webhook-endpoints", { method: "POST", key, body: createBody() }));
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(await count("webhook_endpoints", "tenant_id = ? AND state != 'deleted'", tenantId)).toBe(0);
    expect(await count("webhook_endpoints", "tenant_id = ?", tenantId)).toBe(1);
  });

  it("capture enrolment without Idempotency-Key: the challenge made expires at once; the retry issues a live one", async () => {
    const { tenantId, key } = await createTenant();
    const enrol = () =>
      request("/v1/capture-identity-enrollments", {
        method: "POST",
        key,
        body: { attestation_kind: "app_attest", installation_id_sha256: "ab".repeat(32) },
      });
    const probe = faultyEnv(testEnv);
    const probed = await send(
      probe.env,
      request("/v1/capture-identity-enrollments", {
        method: "POST",
        key: (await createTenant()).key,
        body: { attestation_kind: "app_attest", installation_id_sha256: "cd".repeat(32) },
      }),
    );
    expect(probed.status, probed.text).toBe(201);
    const at = probe.log.filter((s) => s.kind === "do").findIndex((s) => s.detail === "AUDIT_CHAIN.append") + 1;
    const faulty = faultyEnv(testEnv, { at, kinds: ["do"] });
    const faulted = await send(faulty.env, enrol());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/challenge_secret/);
    // Live: not yet expired (an enrolment challenge lives ten minutes; the withdrawn one expired when withheld).
    expect(await count("capture_identity_enrollments", "tenant_id = ? AND expires_at > ?", tenantId, Date.now()), "none live").toBe(0);
    expect(await count("capture_identity_enrollments", "tenant_id = ?", tenantId)).toBe(1);
    const retried = await send(testEnv, enrol());
    expect(retried.status, retried.text).toBe(201);
    expect(await count("capture_identity_enrollments", "tenant_id = ? AND expires_at > ?", tenantId, Date.now())).toBe(1);
  });

  it("verification share (keyed): withheld when unaudited, the share made is closed; the retry under the same key issues a working one", async () => {
    const { tenantId, key } = await createTenant();
    const verified = await verifyFile(fixture("sample.jpg"), { key });
    const verificationId = ((await verified.json()) as { verification_id: string }).verification_id;
    expect(verificationId, "the verify call made a record").toMatch(/^\w+_/);
    const idem = crypto.randomUUID();
    const share = (headers: Record<string, string> = { "idempotency-key": idem }) =>
      request(`/v1/verification-evidence/${verificationId}/shares`, { method: "POST", key, headers });
    const probe = faultyEnv(testEnv);
    const probed = await send(probe.env, share({ "idempotency-key": crypto.randomUUID() }));
    expect(probed.status, probed.text).toBe(201);
    const at = probe.log.filter((s) => s.kind === "do").findIndex((s) => s.detail === "AUDIT_CHAIN.append") + 1;
    const faulty = faultyEnv(testEnv, { at, kinds: ["do"] });
    const faulted = await send(faulty.env, share());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/"token"/);
    const open = "tenant_id = ? AND closed_at IS NULL";
    expect(await count("verification_shares", open, tenantId), "only the probe's share is open").toBe(1);
    const retried = await send(testEnv, share());
    expect(retried.status, retried.text).toBe(201);
    expect((await send(testEnv, request(`/v1/shared-verifications/${retried.body.token}`))).status).toBe(200);
    expect(await count("verification_shares", open, tenantId)).toBe(2);
  });

  it("api-key rotate (keyed) whose idempotency completion fails: 503, the rotation is canceled, a later rotation works", async () => {
    const { tenantId, key } = await createTenant();
    const target = await addKey(tenantId);
    // Every write completing an idempotency record fails (the completion is written twice before giving up).
    const failing = (stmt: D1PreparedStatement): D1PreparedStatement => {
      const refuse = () => Promise.reject(new Error("injected: completion refused"));
      return new Proxy(stmt, {
        get(real, name) {
          if (name === "run" || name === "all" || name === "raw" || name === "first") return refuse;
          if (name === "bind") return (...values: unknown[]) => failing(real.bind(...values));
          const value = Reflect.get(real, name);
          return typeof value === "function" ? value.bind(real) : value;
        },
      });
    };
    const db = new Proxy(testEnv.DB, {
      get(real, name) {
        if (name === "prepare")
          return (query: string) =>
            /^update "idempotency_records".*"secret_withheld"/is.test(query) ? failing(real.prepare(query)) : real.prepare(query);
        const value = Reflect.get(real, name);
        return typeof value === "function" ? value.bind(real) : value;
      },
    });
    const env = { ...testEnv, DB: db };
    const rotate = (idem: string) =>
      request(`/v1/api-keys/${target.keyId}/rotate`, {
        method: "POST",
        key,
        body: { overlap_seconds: 3600 },
        headers: { "idempotency-key": idem },
      });
    const faulted = await send(env, rotate(crypto.randomUUID()));
    expect(faulted.status, faulted.text).toBe(503);
    expect(faulted.text).not.toMatch(/svc_live_/);
    expect(await count("api_keys", "predecessor_key_id = ? AND status = 'active'", target.keyId), "no live successor").toBe(0);
    const again = await send(testEnv, rotate(crypto.randomUUID()));
    expect(again.status, again.text).toBe(201);
    expect((await send(testEnv, request("/v1/me", { key: again.body.secret }))).status).toBe(200);
  });
});
