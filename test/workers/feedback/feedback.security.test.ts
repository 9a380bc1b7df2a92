import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant, testEnv } from "../support/helpers";

describe("feedback security", () => {
  it("needs a credential and feedback:write", async () => {
    expect((await api("/v1/feedback", { method: "POST", body: { kind: "bug", message: "x" } })).status).toBe(401);
    const narrow = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "feedback:write") });
    expect((await api("/v1/feedback", { method: "POST", key: narrow.key, body: { kind: "bug", message: "x" } })).status).toBe(403);
    const only = await createTenant({ scopes: ["feedback:write"] });
    expect((await api("/v1/feedback", { method: "POST", key: only.key, body: { kind: "bug", message: "x" } })).status).toBe(201);
  });

  it("stores feedback under the caller's tenant, sealed with that tenant's data key only", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await api("/v1/feedback", { method: "POST", key: a.key, body: { kind: "bug", message: "from a" } });
    const rows = await testEnv.DB.prepare(
      "SELECT f.tenant_id, k.tenant_id AS key_tenant FROM feedback f JOIN tenant_data_keys k ON k.id = f.data_key_id WHERE f.tenant_id IN (?, ?)",
    )
      .bind(a.tenantId, b.tenantId)
      .all<{ tenant_id: string; key_tenant: string }>();
    expect(rows.results).toEqual([{ tenant_id: a.tenantId, key_tenant: a.tenantId }]);
  });
});
