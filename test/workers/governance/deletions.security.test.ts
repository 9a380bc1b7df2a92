import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { requestDeletion, runDeletion } from "../../../src/governance/deletions/service";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { enrolled } from "../creators/helpers";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { createEndpoint } from "../support/webhooks.helpers";
import { auditCount, bucketWith, countRows, deletionRow, placeHold, quietEnv, releaseHold, waitForDeletion } from "./governance-helpers";

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

describe("deletions and legal holds placed while a deletion runs", () => {
  it("a hold placed on an asset while an account deletion's batch runs keeps that asset: the deletion is refused", async () => {
    const { key, tenantId } = await createTenant();
    const a = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await new Promise((r) => setTimeout(r, 5));
    const b = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "b.jpg");
    let holdId: string | null = null;
    // The operator places a hold on asset B while asset A's bytes are being removed.
    const objects = bucketWith("delete", async () => {
      holdId ??= await placeHold(tenantId, b.assetId);
    });
    const { env } = quietEnv({ OBJECTS: objects });
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "account", confirm: tenantId }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    await runDeletion(env, tenantId, req.deletion.id, 1);
    expect(holdId).not.toBeNull();
    expect(await deletionRow(req.deletion.id)).toMatchObject({ state: "refused", legal_hold_id: holdId });
    expect(await countRows("assets", tenantId)).toBe(1);
    expect((await api(`/v1/assets/${b.assetId}`, { key })).status).toBe(200);
    expect(await testEnv.OBJECTS.head(`t/${tenantId}/o/${b.objectId}`)).not.toBeNull();
    expect((await api(`/v1/assets/${a.assetId}`, { key })).status).toBe(404);
    expect(await auditCount(tenantId, "deletion.refused")).toBe(1);
  });

  it("a hold placed after the last check keeps the asset's rows: their removal is conditional on no hold", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    let holdId: string | null = null;
    // Placed while the asset's own bytes go, after the hold was re-checked for it.
    const objects = bucketWith("delete", async () => {
      holdId ??= await placeHold(tenantId, assetId);
    });
    const { env } = quietEnv({ OBJECTS: objects });
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "asset", assetId }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    await runDeletion(env, tenantId, req.deletion.id, 1);
    expect(await deletionRow(req.deletion.id)).toMatchObject({ state: "refused", legal_hold_id: holdId });
    expect(await countRows("assets", tenantId)).toBe(1);
    expect(await countRows("objects", tenantId, assetId)).toBeGreaterThan(0);
    expect(await countRows("uploads", tenantId, assetId)).toBeGreaterThan(0);
  });

  it("past the point of no return (the account closed) a late hold does not strand it: the deletion finishes and names it", async () => {
    const { key, tenantId } = await createTenant();
    await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await enrolled(key, "ada.lovelace@example.test", "Ada Lovelace");
    await createEndpoint(key);
    await testEnv.OBJECTS.put(`t/${tenantId}/exports/gex_aaaaaaaaaaaaaaaa/archive.tar`, "an earlier export archive");
    let listFails = true;
    // A transient R2 error during the tenant-phase sweep (after the tenant was closed).
    const objects = bucketWith("list", async (args) => {
      if (listFails && (args[0] as { prefix?: string } | undefined)?.prefix === `t/${tenantId}/`) {
        listFails = false;
        throw new Error("R2 503");
      }
    });
    const { env } = quietEnv({ OBJECTS: objects });
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "account", confirm: tenantId }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    const id = req.deletion.id;
    await runDeletion(env, tenantId, id, 1); // the assets phase: the one asset
    await expect(runDeletion(env, tenantId, id, 1)).rejects.toThrow("R2 503"); // closes the tenant, then R2 fails
    const tenant = await testEnv.DB.prepare("SELECT status FROM tenants WHERE id = ?").bind(tenantId).first<{ status: string }>();
    expect(tenant?.status).toBe("deleted");

    // The operator places a hold before the queue retries the message.
    const holdId = await placeHold(tenantId);
    await runDeletion(env, tenantId, id, 2);
    expect(await deletionRow(id)).toMatchObject({ state: "completed", legal_hold_id: holdId, reason_code: null });
    expect(await countRows("tenant_data_keys", tenantId)).toBe(0);
    expect(await countRows("webhook_endpoints", tenantId)).toBe(0);
    const creatorsLeft = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM creator_identities WHERE tenant_id = ? AND status <> 'erased'")
      .bind(tenantId)
      .first<{ n: number }>();
    expect(creatorsLeft?.n).toBe(0);
    expect((await testEnv.OBJECTS.list({ prefix: `t/${tenantId}/` })).objects).toEqual([]);
    const entry = await testEnv.DB.prepare("SELECT detail FROM audit_events WHERE tenant_id = ? AND action = 'deletion.completed'")
      .bind(tenantId)
      .first<{ detail: string }>();
    expect(JSON.parse(entry!.detail)).toMatchObject({ late_legal_hold_id: holdId, scope: "account" });
    await releaseHold(holdId);
  });

  it("a hold placed before the account is closed refuses it and the account stays open", async () => {
    const { tenantId } = await createTenant();
    const { env } = quietEnv();
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "account", confirm: tenantId }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    const holdId = await placeHold(tenantId);
    await runDeletion(env, tenantId, req.deletion.id, 1);
    expect(await deletionRow(req.deletion.id)).toMatchObject({ state: "refused", legal_hold_id: holdId });
    const tenant = await testEnv.DB.prepare("SELECT status FROM tenants WHERE id = ?").bind(tenantId).first<{ status: string }>();
    expect(tenant?.status).toBe("active");
  });
});
