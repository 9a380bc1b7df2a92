import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant, json } from "../support/helpers";

describe("audit log security", () => {
  it("shows a tenant only its own entries, and needs governance:read", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await api("/v1/api-keys", { method: "POST", key: a.key, body: { name: "a", scopes: ["identity:read"] } });
    const bPage = await json(await api("/v1/governance/audit", { key: b.key }));
    expect(bPage.items).toEqual([]);
    expect(bPage.head).toBeNull();
    const narrow = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "governance:read") });
    expect((await api("/v1/governance/audit", { key: narrow.key })).status).toBe(403);
    expect((await api("/v1/governance/audit")).status).toBe(401);
  });

  it("records a refused write as denied with its error code, and an unauthenticated one not at all", async () => {
    const { key } = await createTenant();
    const narrow = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "n", scopes: ["api_keys:write"] } }));
    // A key may not grant a scope it does not hold.
    const escalate = await api("/v1/api-keys", { method: "POST", key: narrow.secret, body: { name: "x", scopes: ["billing:write"] } });
    expect(escalate.status).toBe(403);
    await api("/v1/api-keys", { method: "POST", body: { name: "anon", scopes: ["identity:read"] } });
    const page = await json(await api("/v1/governance/audit", { key }));
    expect(page.items[0]).toMatchObject({ outcome: "denied", actor: { id: narrow.api_key.api_key_id }, status_code: 403 });
    expect(page.items[0].detail.error_code).toMatch(/^svc\./);
    expect(page.items).toHaveLength(2);
  });

  it("records a request refused for a missing scope or a disallowed network, read or write, as denied with the reason", async () => {
    const { key } = await createTenant();
    const narrow = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "n", scopes: ["identity:read"] } }));
    const narrowId = narrow.api_key.api_key_id;
    expect(
      (await api("/v1/webhook-endpoints", { method: "POST", key: narrow.secret, body: { url: "https://hooks.example.com/x" } })).status,
    ).toBe(403);
    expect((await api("/v1/governance/audit", { key: narrow.secret })).status).toBe(403);
    const restricted = await api(`/v1/api-keys/${narrowId}/restrictions`, {
      method: "PUT",
      key,
      body: { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: null, expected_version: 0 },
    });
    expect(restricted.status, await restricted.clone().text()).toBe(200);
    expect((await api("/v1/me", { key: narrow.secret, headers: { "cf-connecting-ip": "198.51.100.7" } })).status).toBe(403);
    const denied = await json(await api(`/v1/governance/audit?actor_id=${narrowId}&outcome=denied`, { key }));
    expect(denied.items.map((e: any) => [e.action, e.detail.reason])).toEqual([
      ["GET /v1/me", "ip_not_allowed"],
      ["GET /v1/governance/audit", "scope_missing"],
      ["POST /v1/webhook-endpoints", "scope_missing"],
    ]);
    expect(denied.items[0]).toMatchObject({ actor: { kind: "api_key" }, credential_id: narrowId, status_code: 403 });
  });
});
