import { describe, expect, it } from "vitest";
import { sealPending } from "../../../src/anchoring/log";
import { verifyTenantChain } from "../../../src/governance/audit/service";
import { enrolled } from "../creators/helpers";
import { signIn } from "../identity/session-support";
import { addKey, api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import { createEndpoint } from "../support/webhooks.helpers";
import { exportAndWait } from "./exports.support";
import { countRows, fingerprintedAsset, placeHold, releaseHold, waitForDeletion, waitForDeletionRow } from "./governance-helpers";

async function objectKeys(tenantId: string, assetId: string): Promise<string[]> {
  const rows = await testEnv.DB.prepare("SELECT r2_key FROM objects WHERE tenant_id = ? AND asset_id = ?")
    .bind(tenantId, assetId)
    .all<{ r2_key: string }>();
  return rows.results.map((r) => r.r2_key);
}

const deleteAsset = (key: string, assetId: string) =>
  api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: assetId } });

describe("asset deletion", () => {
  it("removes bytes, rows and index entries: the asset answers 404 and a stripped copy is no longer recovered", async () => {
    const { key, tenantId } = await createTenant();
    const signed = await fingerprintedAsset(key);
    const { assetId } = signed;
    const publicationId = signed.job.result.publication_id as string;
    // Before: the stripped copy is recovered through the fingerprint index.
    const before = await json(await verifyFile(signed.stripped));
    expect(before.status, before.developer_explanation).toBe("fingerprint_match_only");
    const keys = await objectKeys(tenantId, assetId);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(await countRows("soft_bindings", tenantId, assetId)).toBeGreaterThan(0);

    // The publication is sealed into the transparency log before the deletion.
    expect(await sealPending(testEnv)).toMatchObject({ status: "sealed" });

    const res = await deleteAsset(key, assetId);
    expect(res.status, await res.clone().text()).toBe(202);
    const accepted = await json(res);
    expect(accepted).toMatchObject({ scope: "asset", asset_id: assetId, state: "queued", completed_at: null });
    expect(accepted.retained.map((r: { kind: string }) => r.kind)).toEqual(
      expect.arrayContaining(["audit_log", "billing_records", "transparency_log_entries"]),
    );

    const done = await waitForDeletion(key, accepted.deletion_id);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    expect(done.removed).toMatchObject({ assets: 1, jobs: 1, receipts: 1, objects: 2, uploads: 1, verifications: 1 });
    expect(done.removed.soft_bindings).toBeGreaterThan(0);
    expect(done.removed.stored_objects).toBeGreaterThanOrEqual(keys.length);

    for (const k of keys) expect(await testEnv.OBJECTS.get(k), k).toBeNull();
    expect((await testEnv.OBJECTS.list({ prefix: `t/${tenantId}/jobs/${signed.job.job_id}/` })).objects).toEqual([]);
    for (const table of ["objects", "jobs", "receipts", "soft_bindings", "verifications", "uploads"])
      expect(await countRows(table, tenantId, assetId), table).toBe(0);
    const bands = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM pdq_bands WHERE publication_id = ?")
      .bind(publicationId)
      .first<{ n: number }>();
    expect(bands?.n).toBe(0);
    expect((await api(`/v1/assets/${assetId}`, { key })).status).toBe(404);
    expect((await api(`/v1/jobs/${signed.job.job_id}`, { key })).status).toBe(404);

    const after = await json(await verifyFile(signed.stripped));
    expect(after.status).not.toBe("fingerprint_match_only");
    expect(after.matches ?? []).toHaveLength(0);

    // The transparency-log entry stays; the publication is recorded as deleted.
    const entry = await testEnv.DB.prepare("SELECT publication_id FROM anchor_entries WHERE publication_id = ?")
      .bind(publicationId)
      .first();
    expect(entry).not.toBeNull();
    const gone = await testEnv.DB.prepare("SELECT deletion_id FROM deleted_publications WHERE publication_id = ?")
      .bind(publicationId)
      .first();
    expect(gone).toEqual({ deletion_id: accepted.deletion_id });
    // The signed file itself stays provable through the log, which resolves its publication to "deleted".
    const original = await json(await verifyFile(signed.bytes));
    expect(original.signals?.anchor_match, JSON.stringify(original.signals)).toBe(true);
    expect(original.warnings.join(" ")).toContain(`publication (${publicationId}) was deleted by its owner`);

    const audit = await json(await api(`/v1/governance/audit?action=deletion.completed`, { key }));
    expect(audit.items[0]).toMatchObject({ actor: { kind: "service" }, target: { type: "governance_deletion", id: accepted.deletion_id } });
    expect(audit.items[0].detail.removed.assets).toBe(1);
    const list = await json(await api("/v1/governance/deletions", { key }));
    expect(list.items.map((d: { deletion_id: string }) => d.deletion_id)).toEqual([accepted.deletion_id]);
  });

  it("refuses a held asset's deletion (409) and removes nothing; after release it proceeds", async () => {
    const { key, tenantId } = await createTenant();
    const signed = await fingerprintedAsset(key);
    const holdId = await placeHold(tenantId, signed.assetId);
    const refused = await deleteAsset(key, signed.assetId);
    expect(refused.status).toBe(409);
    const body = await json(refused);
    expect(body.code ?? body.error?.code).toBe("svc.governance.legal_hold_active");
    expect((await api(`/v1/assets/${signed.assetId}`, { key })).status).toBe(200);
    for (const k of await objectKeys(tenantId, signed.assetId)) expect(await testEnv.OBJECTS.get(k)).not.toBeNull();
    const listed = await json(await api("/v1/governance/deletions?state=refused", { key }));
    expect(listed.items[0]).toMatchObject({ state: "refused", legal_hold_id: holdId, reason_code: "svc.governance.legal_hold_active" });
    const audit = await json(await api("/v1/governance/audit?action=deletion.refused", { key }));
    expect(audit.items[0]).toMatchObject({ outcome: "denied", detail: { legal_hold_id: holdId } });
    const holds = await json(await api("/v1/governance/legal-holds?status=active", { key }));
    expect(holds.items).toEqual([
      expect.objectContaining({ legal_hold_id: holdId, scope: "asset", asset_id: signed.assetId, active: true }),
    ]);

    // An account hold covers every asset too.
    await releaseHold(holdId);
    const accountHold = await placeHold(tenantId);
    expect((await deleteAsset(key, signed.assetId)).status).toBe(409);
    const page = await json(await api("/v1/assets", { key }));
    expect(page.workspace_governance).toEqual({ legal_hold: true, deletion_pending: false, delivery_allowed: true });
    await releaseHold(accountHold);

    const res = await deleteAsset(key, signed.assetId);
    expect(res.status).toBe(202);
    expect((await waitForDeletion(key, (await json(res)).deletion_id)).state).toBe("completed");
    expect((await api(`/v1/assets/${signed.assetId}`, { key })).status).toBe(404);
    const released = await json(await api("/v1/governance/legal-holds?status=released", { key }));
    expect(released.items).toHaveLength(2);
    expect(released.items[0]).toMatchObject({ active: false, released_by: "ops.bob" });
  });

  it("a repeated request for a target in progress answers the same deletion", async () => {
    const { key, tenantId } = await createTenant();
    await testEnv.DB.prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES ('ast_repeatrepeatrepe', ?, 'image', 'awaiting_upload', 0, 0)",
    )
      .bind(tenantId)
      .run();
    const [a, b] = await Promise.all([deleteAsset(key, "ast_repeatrepeatrepe"), deleteAsset(key, "ast_repeatrepeatrepe")]);
    const [da, db] = [await json(a), await json(b)];
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(da.deletion_id).toBe(db.deletion_id);
    expect((await waitForDeletion(key, da.deletion_id)).removed).toMatchObject({ assets: 1 });
  });
});

describe("account deletion", () => {
  it("removes everything but the audit (which still verifies) and billing records; keys are refused afterwards", async () => {
    const { key, tenantId } = await createTenant();
    const other = await addKey(tenantId);
    const signed = await fingerprintedAsset(key);
    await createEndpoint(key);
    const creator = await enrolled(key, "ada@example.com", "Ada");
    expect((await json(await verifyFile(signed.stripped))).status).toBe("fingerprint_match_only");

    const mismatch = await api("/v1/governance/deletions", {
      method: "POST",
      key,
      body: { scope: "account", confirm: "ten_abcdefghij234567" },
    });
    expect(mismatch.status).toBe(422);

    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "account", confirm: tenantId } });
    expect(res.status, await res.clone().text()).toBe(202);
    const { deletion_id } = await json(res);
    const row = await waitForDeletionRow(deletion_id, 90_000);
    expect(row.state).toBe("completed");
    const removed = JSON.parse(row.removed);
    expect(removed).toMatchObject({ assets: 1, api_keys_revoked: 2, webhook_endpoints: 1 });

    expect((await api("/v1/me", { key })).status).toBe(401);
    expect((await api("/v1/me", { key: other.key })).status).toBe(401);
    expect((await testEnv.OBJECTS.list({ prefix: `t/${tenantId}/` })).objects).toEqual([]);
    for (const table of ["assets", "objects", "jobs", "receipts", "soft_bindings", "webhook_endpoints", "uploads", "verifications"])
      expect(await countRows(table, tenantId), table).toBe(0);
    const tenant = await testEnv.DB.prepare("SELECT status, name, contact_email FROM tenants WHERE id = ?").bind(tenantId).first();
    expect(tenant).toEqual({ status: "deleted", name: "deleted", contact_email: null });
    expect((await json(await verifyFile(signed.stripped))).matches ?? []).toHaveLength(0);
    // Creators are erased through #10's rule: personal fields and the salt gone, the opaque reference kept.
    const erased = await testEnv.DB.prepare(
      "SELECT status, email_sealed, name_sealed, salt_sealed, email_lookup FROM creator_identities WHERE id = ?",
    )
      .bind(creator.creator_id)
      .first();
    expect(erased).toEqual({ status: "erased", email_sealed: null, name_sealed: null, salt_sealed: null, email_lookup: null });
    expect(removed.creators_erased).toBe(1);
    expect(await countRows("tenant_data_keys", tenantId)).toBe(0);

    // The audit stays and still verifies, ending with the deletion's own entry.
    expect(await countRows("audit_events", tenantId)).toBeGreaterThan(0);
    const chain = await verifyTenantChain(testEnv, tenantId);
    expect(chain).toMatchObject({ intact: true, witness: "matches" });
    const last = await testEnv.DB.prepare("SELECT action, actor_kind FROM audit_events WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1")
      .bind(tenantId)
      .first();
    expect(last).toEqual({ action: "deletion.completed", actor_kind: "service" });
  });

  it("is refused while any hold is active", async () => {
    const { key, tenantId } = await createTenant();
    await testEnv.DB.prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES ('ast_heldheldheldheld', ?, 'image', 'awaiting_upload', 0, 0)",
    )
      .bind(tenantId)
      .run();
    await placeHold(tenantId, "ast_heldheldheldheld");
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "account", confirm: tenantId } });
    expect(res.status).toBe(409);
    expect((await api("/v1/me", { key })).status).toBe(200);
    expect(await countRows("assets", tenantId)).toBe(1);
  });
});

describe("account deletion of a console account", () => {
  it("closes the signed-in user too: the session is refused and the e-mail is erased (free for a new account)", async () => {
    const session = await signIn();
    const res = await api("/v1/governance/deletions", {
      method: "POST",
      key: session.token,
      body: { scope: "account", confirm: session.tenantId },
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const row = await waitForDeletionRow((await json(res)).deletion_id, 90_000);
    expect(row.state).toBe("completed");
    const user = await testEnv.DB.prepare("SELECT status, email_sealed, email_index FROM users WHERE id = ?").bind(session.userId).first();
    expect(user).toEqual({ status: "deleted", email_sealed: null, email_index: null });
    expect([401, 403]).toContain((await api("/v1/me", { key: session.token })).status);
    // The same e-mail under another subject provisions a new account: nothing of the old one holds it.
    const again = await signIn({ email: session.email });
    expect(again.tenantId).not.toBe(session.tenantId);
  });
});

describe("deletions and earlier exports", () => {
  it("an asset deletion ends the tenant's earlier exports: their archive (which holds the asset's bytes) is gone", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "private.jpg");
    const record = await exportAndWait(key);
    expect(record.state).toBe("completed");
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: assetId } });
    expect(res.status).toBe(202);
    expect((await waitForDeletion(key, (await json(res)).deletion_id)).state).toBe("completed");
    const after = await json(await api(`/v1/governance/exports/${record.export_id}`, { key }));
    expect(after).toMatchObject({ state: "expired", download: null, error_code: "svc.governance.export_ended_by_deletion" });
    expect((await testEnv.OBJECTS.list({ prefix: `t/${tenantId}/exports/` })).objects).toEqual([]);
  });
});
