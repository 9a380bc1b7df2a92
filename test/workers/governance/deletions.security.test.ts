import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { placeHold, waitForDeletion } from "./governance-helpers";

async function bareAsset(tenantId: string, id: string) {
  await testEnv.DB.prepare(
    "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES (?, ?, 'image', 'awaiting_upload', 0, 0)",
  )
    .bind(id, tenantId)
    .run();
}

describe("deletions and legal holds: tenant isolation and scopes", () => {
  it("B can neither delete A's asset nor see A's deletions or holds", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await bareAsset(a.tenantId, "ast_isolationisolati");
    const holdId = await placeHold(a.tenantId, "ast_isolationisolati");
    const refused = await api("/v1/governance/deletions", {
      method: "POST",
      key: a.key,
      body: { scope: "asset", asset_id: "ast_isolationisolati" },
    });
    expect(refused.status).toBe(409);

    // B's attempt on A's asset: not found, and A's asset is untouched.
    const bDelete = await api("/v1/governance/deletions", {
      method: "POST",
      key: b.key,
      body: { scope: "asset", asset_id: "ast_isolationisolati" },
    });
    expect(bDelete.status).toBe(404);
    expect((await json(await api("/v1/governance/deletions", { key: b.key }))).items).toEqual([]);
    expect((await json(await api("/v1/governance/legal-holds", { key: b.key }))).items).toEqual([]);
    const aList = await json(await api("/v1/governance/deletions", { key: a.key }));
    const aDeletion = aList.items[0].deletion_id as string;
    expect((await api(`/v1/governance/deletions/${aDeletion}`, { key: b.key })).status).toBe(404);
    expect((await api(`/v1/governance/deletions/${aDeletion}`, { key: a.key })).status).toBe(200);
    expect((await json(await api("/v1/governance/legal-holds", { key: a.key }))).items[0].legal_hold_id).toBe(holdId);

    // B's account deletion confirmed with A's id is refused (422), and nothing of A or B is removed.
    const cross = await api("/v1/governance/deletions", { method: "POST", key: b.key, body: { scope: "account", confirm: a.tenantId } });
    expect(cross.status).toBe(422);
    expect((await json(cross)).code).toBe("svc.governance.confirmation_mismatch");
    expect((await api("/v1/me", { key: b.key })).status).toBe(200);

    // B deleting its own asset never touches A's rows.
    await bareAsset(b.tenantId, "ast_bbbbbbbbbbbbbbbb");
    const own = await api("/v1/governance/deletions", {
      method: "POST",
      key: b.key,
      body: { scope: "asset", asset_id: "ast_bbbbbbbbbbbbbbbb" },
    });
    expect(own.status).toBe(202);
    expect((await waitForDeletion(b.key, (await json(own)).deletion_id)).state).toBe("completed");
    const stillThere = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM assets WHERE id = 'ast_isolationisolati'").first<{
      n: number;
    }>();
    expect(stillThere?.n).toBe(1);
  });

  it("needs governance:delete to delete (governance:write, which exports, is not enough) and governance:read to read", async () => {
    const noWrite = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "governance:delete") });
    await bareAsset(noWrite.tenantId, "ast_scopescopescopes");
    const post = await api("/v1/governance/deletions", {
      method: "POST",
      key: noWrite.key,
      body: { scope: "asset", asset_id: "ast_scopescopescopes" },
    });
    expect(post.status).toBe(403);
    expect((await api("/v1/governance/deletions", { key: noWrite.key })).status).toBe(200);

    const noRead = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "governance:read") });
    for (const path of ["/v1/governance/deletions", "/v1/governance/deletions/gdl_abcdefghij234567", "/v1/governance/legal-holds"])
      expect((await api(path, { key: noRead.key })).status, path).toBe(403);
    for (const path of ["/v1/governance/deletions", "/v1/governance/legal-holds"]) expect((await api(path)).status, path).toBe(401);
    expect((await api("/v1/governance/deletions", { method: "POST", body: { scope: "account", confirm: noRead.tenantId } })).status).toBe(
      401,
    );
  });

  it("refuses malformed requests with 422 and never removes anything", async () => {
    const { key, tenantId } = await createTenant();
    await bareAsset(tenantId, "ast_malformedmalform");
    for (const body of [
      {},
      { scope: "asset" },
      { scope: "asset", asset_id: "not-an-id" },
      { scope: "account" },
      { scope: "account", confirm: tenantId, asset_id: "ast_malformedmalform" },
      { scope: "tenant", confirm: tenantId },
    ]) {
      const res = await api("/v1/governance/deletions", { method: "POST", key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api("/v1/governance/deletions?state=done", { key })).status).toBe(422);
    expect((await api("/v1/governance/legal-holds?limit=0", { key })).status).toBe(422);
    expect((await api("/v1/governance/deletions/ast_malformedmalform", { key })).status).toBe(422);
    expect((await json(await api("/v1/governance/deletions", { key }))).items).toEqual([]);
    expect((await api("/v1/me", { key })).status).toBe(200);
  });
});
