import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";

describe("API keys", () => {
  it("creates a key whose secret is shown once, works at once, and is never listed", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", { method: "POST", key, body: { name: "CI", scopes: ["capabilities:read"] } });
    expect(res.status).toBe(201);
    const issued = await json(res);
    expect(issued.secret).toMatch(/^svc_live_[a-z2-7]{52}$/);
    expect(issued.api_key).toMatchObject({ name: "CI", scopes: ["capabilities:read"], status: "active", revoked_at: null });
    expect(issued.api_key.api_key_id).toMatch(/^key_[a-z2-7]{16}$/);
    expect(issued.secret.startsWith(issued.api_key.display_prefix)).toBe(true);

    expect((await api("/v1/capabilities", { key: issued.secret })).status).toBe(200);
    expect((await api("/v1/me", { key: issued.secret })).status).toBe(403);

    const list = await api("/v1/api-keys", { key });
    const text = await list.text();
    expect(text).not.toContain(issued.secret);
    expect(text).toContain(issued.api_key.api_key_id);
    const one = await api(`/v1/api-keys/${issued.api_key.api_key_id}`, { key });
    expect(await one.text()).not.toContain(issued.secret);
  });

  it("lists the scope vocabulary", async () => {
    const { key } = await createTenant();
    const body = await json(await api("/v1/api-keys/scopes", { key }));
    const names = body.scopes.map((s: { scope: string }) => s.scope);
    for (const s of [
      "capabilities:read",
      "identity:read",
      "jobs:read",
      "uploads:write",
      "sign:write",
      "assets:read",
      "verify:write",
      "recovery:read",
      "webhooks:write",
      "billing:read",
      "billing:write",
      "creators:disclose",
    ]) {
      expect(names).toContain(s);
    }
  });

  it("revokes a key; revoking again is a conflict", async () => {
    const { key } = await createTenant();
    const issued = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "tmp", scopes: ["identity:read"] } }));
    const id = issued.api_key.api_key_id;
    const revoked = await api(`/v1/api-keys/${id}`, { method: "DELETE", key });
    expect(revoked.status).toBe(200);
    expect((await json(revoked)).status).toBe("revoked");
    expect((await api("/v1/me", { key: issued.secret })).status).toBe(401);
    const again = await api(`/v1/api-keys/${id}`, { method: "DELETE", key });
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe("svc.api_keys.already_revoked");
  });
});
