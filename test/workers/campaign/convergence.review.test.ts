import { describe, expect, it } from "vitest";
import { signJobId } from "../../../src/jobs/admission";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { createBody, createRaw } from "../support/webhooks.helpers";

/*
 * #22 review (convergence only for the same request): a retry under an Idempotency-Key converges on what its earlier
 * attempt made, but the same key with another body, from another creator, or after the replay window never reaches
 * another request's resource or rotates a secret somebody holds.
 */
describe("convergence is for the same request only", () => {
  it("a sign job id names the key and the request: another body under the same key names another job", async () => {
    const pepper = testEnv.SVC_KEY_PEPPER!;
    const a = await signJobId(pepper, "ten_aaaaaaaaaaaaaaaa", "K", { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" });
    const b = await signJobId(pepper, "ten_aaaaaaaaaaaaaaaa", "K", { asset_id: "ast_bbbbbbbbbbbbbbbb", recipe_id: "rcp_system_sign_only" });
    const again = await signJobId(pepper, "ten_aaaaaaaaaaaaaaaa", "K", {
      asset_id: "ast_aaaaaaaaaaaaaaaa",
      recipe_id: "rcp_system_sign_only",
    });
    expect(a).not.toBe(b);
    expect(a).toBe(again);
  });

  it("an API key created under a key whose record expired is a new key: the earlier key's secret keeps working", async () => {
    const { key, tenantId } = await createTenant();
    const idem = crypto.randomUUID();
    const body = { name: "ci", scopes: ["identity:read"] };
    const first = await json(await api("/v1/api-keys", { method: "POST", key, body, headers: { "idempotency-key": idem } }));
    expect(first.secret).toBeTruthy();
    // The replay window passes: the record and the key's creation are more than 24 h old.
    await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ?").bind(tenantId).run();
    await testEnv.DB.prepare("UPDATE api_keys SET created_at = created_at - 90000000 WHERE id = ?").bind(first.api_key.api_key_id).run();
    const second = await api("/v1/api-keys", { method: "POST", key, body, headers: { "idempotency-key": idem } });
    expect(second.status).toBe(201);
    const created = await json(second);
    expect(created.api_key.api_key_id).not.toBe(first.api_key.api_key_id);
    expect((await api("/v1/me", { key: first.secret })).status).toBe(200);
  });

  it("a webhook endpoint that was delivered to is never resealed by a retry under its key", async () => {
    const { key, tenantId } = await createTenant();
    const idem = crypto.randomUUID();
    const body = createBody();
    const first = await json(await createRaw(key, body, { "idempotency-key": idem }));
    const endpointId = first.endpoint.endpoint_id;
    expect(endpointId).toBeTruthy();
    const before = await testEnv.DB.prepare("SELECT secret_ciphertext FROM webhook_endpoints WHERE id = ?")
      .bind(endpointId)
      .first<{ secret_ciphertext: string }>();
    // A delivery was attempted, and the answer's record is gone (a lapsed lease taken over, or a 5xx released it).
    await testEnv.DB.prepare(
      "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'delivered', 1, ?, ?)",
    )
      .bind(`dlv_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`, tenantId, endpointId, "evt_review", Date.now(), Date.now())
      .run();
    await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ?").bind(tenantId).run();
    await createRaw(key, body, { "idempotency-key": idem });
    const after = await testEnv.DB.prepare("SELECT secret_ciphertext FROM webhook_endpoints WHERE id = ?")
      .bind(endpointId)
      .first<{ secret_ciphertext: string }>();
    const attempted = await testEnv.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND attempt_count > 0")
      .bind(endpointId)
      .first<{ n: number }>();
    expect(attempted!.n).toBe(1);
    expect(after!.secret_ciphertext).toBe(before!.secret_ciphertext);
  });
});
