import { describe, expect, it } from "vitest";
import { OPERATION_POLICIES } from "../../../src/platform/auth/policy";
import { UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json } from "../support/helpers";

describe("authentication", () => {
  it("answers one byte-identical 401 body for every kind of bad credential", async () => {
    const { tenantId } = await createTenant();
    const revoked = await addKey(tenantId, { status: "revoked" });
    const expired = await addKey(tenantId, { expiresAt: Date.now() - 1000 });
    const unknown = `svc_live_${"a".repeat(52)}`;
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: { authorization: "Bearer not-a-key" },
      "wrong scheme": { authorization: `Basic ${btoa("user:pass")}` },
      unknown: { authorization: `Bearer ${unknown}` },
      revoked: { authorization: `Bearer ${revoked.key}` },
      expired: { authorization: `Bearer ${expired.key}` },
      "key with trailing garbage": { authorization: `Bearer ${revoked.key}x` },
    };
    const bodies = new Map<string, string>();
    for (const [kind, headers] of Object.entries(cases)) {
      const res = await api("/v1/capabilities", { headers });
      expect(res.status, kind).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="svc"');
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      bodies.set(kind, await res.text());
    }
    expect(new Set(bodies.values()).size).toBe(1);
    expect(JSON.parse([...bodies.values()][0]!)).toEqual({ detail: UNAUTHORIZED_DETAIL });
  });

  it("a valid key reaches the operation", async () => {
    const { key } = await createTenant();
    expect((await api("/v1/capabilities", { key })).status).toBe(200);
  });

  it("a key without the operation's scope gets 403 with only a detail", async () => {
    const { key } = await createTenant({ scopes: ["identity:read"] });
    const res = await api("/v1/capabilities", { key });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ detail: "The API key lacks the scope this operation requires." });
    expect((await api("/v1/me", { key })).status).toBe(200);
  });

  it("every bearer operation refuses a key that lacks its scope", async () => {
    for (const [operation, policy] of Object.entries(OPERATION_POLICIES)) {
      if (policy.auth !== "bearer") continue;
      const others = (["capabilities:read", "identity:read", "jobs:read", "api_keys:read", "api_keys:write"] as const).filter(
        (s) => s !== policy.scope,
      );
      const { key } = await createTenant({ scopes: [...others] });
      const [method, path] = operation.split(" ") as [string, string];
      const concrete = path.replace("{recipe_id}", "rcp_system_sign_only").replace("{api_key_id}", "key_abcdefghij234567");
      const res = await api(concrete, { method, key, body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(res.status, operation).toBe(403);
    }
  });

  it("a deactivated tenant's key gets 403", async () => {
    const { key } = await createTenant({ status: "deactivated" });
    const res = await api("/v1/me", { key });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ detail: "The identity behind this credential is deleted or deactivated." });
  });

  it("a revoked key stops working at once", async () => {
    const { key, keyId } = await createTenant();
    const other = await createTenant();
    expect((await api("/v1/me", { key })).status).toBe(200);
    // Revoke it with another key of the same tenant.
    const tenantKey = await addKey(((await (await api("/v1/me", { key })).json()) as { public_id: string }).public_id);
    expect((await api(`/v1/api-keys/${keyId}`, { method: "DELETE", key: tenantKey.key })).status).toBe(200);
    expect((await api("/v1/me", { key })).status).toBe(401);
    expect((await api("/v1/me", { key: other.key })).status).toBe(200);
  });

  it("anonymous operations need no credential", async () => {
    for (const path of ["/healthz", "/healthz/db", "/readyz", "/v1/connect-catalog", "/openapi.json", "/docs", "/docs/errors"]) {
      const res = await api(path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.status, path).not.toBe(401);
    }
  });
});
