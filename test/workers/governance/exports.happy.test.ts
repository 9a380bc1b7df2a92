import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyNote } from "../../../src/anchoring/checkpoint";
import { sealPending } from "../../../src/anchoring/log";
import { database } from "../../../src/db/client";
import { apiKeys, webhookEndpoints } from "../../../src/db/schema";
import { expireExportsForDeletion, sweepExports } from "../../../src/governance/exports/seal";
import { archiveKey, exportPrefix } from "../../../src/governance/exports/service";
import { readTar } from "../../../src/governance/exports/tar";
import { newId } from "../../../src/platform/ids";
import { enrolled } from "../creators/helpers";
import { api, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { createEndpoint } from "../support/webhooks.helpers";
import { downloadArchive, exportAndWait, spkiOfVerifierKey } from "./exports.support";
import { placeHold } from "./governance-helpers";

async function signed(key: string, name: string) {
  const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", name);
  const started = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  expect(started.status, await started.clone().text()).toBe(202);
  const done = await waitForJob(key, (await json(started)).job_id);
  expect(done.state).toBe("completed");
  return assetId;
}

describe("governance exports", () => {
  it("seals a tenant with signed assets into an archive whose hashes, manifest and signature all check, and which holds no secret", async () => {
    const { key, tenantId } = await createTenant();
    const email = "ada.lovelace@example.test";
    await enrolled(key, email, "Ada Lovelace");
    const hook = await createEndpoint(key);
    const child = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "CI", scopes: ["identity:read"] } }));
    const assets = [await signed(key, "a.jpg"), await signed(key, "b.jpg")];

    const record = await exportAndWait(key);
    expect(record, JSON.stringify(record)).toMatchObject({ state: "completed", error_code: null, attempts: 1 });
    expect(record.counts).toMatchObject({ assets: 2, jobs: 2, receipts: 2, publications: 2, creator_identities: 1, webhook_endpoints: 1 });
    expect(record.counts.objects).toBeGreaterThanOrEqual(4);
    expect(record.download).toMatchObject({ method: "GET", media_type: "application/x-tar", filename: `${record.export_id}.tar` });

    // The archive: its length and SHA-256 are the record's.
    const archive = await downloadArchive(record);
    expect(archive.length).toBe(record.bytes);
    expect(await sha256HexOf(archive)).toBe(record.archive_sha256);

    // Every member the manifest lists is there with that SHA-256 and size, and nothing else is (but the manifest and its signature).
    const members = readTar(archive);
    const byName = new Map(members.map((m) => [m.name, m.bytes]));
    expect(members.length).toBe(record.file_count);
    const manifestBytes = byName.get("manifest.json")!;
    expect(await sha256HexOf(manifestBytes)).toBe(record.manifest_sha256);
    const manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
    expect(manifest).toMatchObject({
      format: "svc.governance-export.v1",
      export_id: record.export_id,
      tenant_id: tenantId,
      counts: record.counts,
    });
    for (const file of manifest.files) {
      const bytes = byName.get(file.path);
      expect(bytes, file.path).toBeDefined();
      expect(bytes!.length, file.path).toBe(file.size);
      expect(await sha256HexOf(bytes!), file.path).toBe(file.sha256);
    }
    expect(new Set([...manifest.files.map((f: any) => f.path), "manifest.json", "manifest.sig"])).toEqual(new Set(byName.keys()));

    // The signature: a signed note by the transparency log's key over the manifest's SHA-256.
    const note = new TextDecoder().decode(byName.get("manifest.sig")!);
    expect(note).toBe(record.signature.note);
    const verified = await verifyNote(note, {
      name: record.signature.key_name,
      publicKey: spkiOfVerifierKey(record.signature.verifier_key),
    });
    expect(verified).toEqual({
      status: "valid",
      text: `svc-governance-export/v1\n${record.export_id}\n${tenantId}\n${record.manifest_sha256}\n`,
    });
    const tampered = note.replace(record.manifest_sha256, "0".repeat(64));
    expect(
      (await verifyNote(tampered, { name: record.signature.key_name, publicKey: spkiOfVerifierKey(record.signature.verifier_key) })).status,
    ).toBe("invalid");
    // …the key the transparency log's checkpoints publish.
    await sealPending(testEnv, Date.now());
    const checkpoint = await api("/v1/anchor/checkpoint", { key });
    expect(checkpoint.status).toBe(200);
    expect((await json(checkpoint)).verifier_key).toBe(record.signature.verifier_key);

    // Records: the published bytes are the asset's download; the audit chain ends at the recorded head.
    const lines = (prefix: string) =>
      members
        .filter((m) => m.name.startsWith(prefix))
        .flatMap((m) => new TextDecoder().decode(m.bytes).trim().split("\n"))
        .map((l) => JSON.parse(l));
    const assetRows = lines("records/assets/");
    expect(assetRows.map((a) => a.id).sort()).toEqual([...assets].sort());
    for (const asset of assetRows) {
      const published = byName.get(`objects/${asset.published_object_id}`)!;
      const download = await json(await api(`/v1/assets/${asset.id}/download`, { method: "POST", key }));
      expect(await sha256HexOf(published)).toBe(download.sha256);
    }
    const auditRows = lines("records/audit/");
    expect(auditRows.at(-1)).toMatchObject({ seq: record.audit_head.seq, hash: record.audit_head.hash });

    // No secret: no key secret or hash, no webhook secret or its ciphertext, no creator e-mail.
    const text = new TextDecoder("latin1").decode(archive);
    const db = database(testEnv.DB);
    const keyRow = (await db.select().from(apiKeys).where(eq(apiKeys.id, child.api_key.api_key_id)))[0]!;
    const hookRow = (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id)))[0]!;
    for (const secret of [key, child.secret, keyRow.secretHash, hook.secret, hookRow.secretCiphertext, email, "Ada Lovelace"])
      expect(text.includes(secret), `archive holds ${secret.slice(0, 6)}…`).toBe(false);
    for (const column of ["secret_hash", "secret_ciphertext", "email_sealed", "name_sealed", "salt_sealed", "email_lookup"])
      expect(text.includes(`"${column}"`), column).toBe(false);
    expect(lines("records/api_keys/").map((k) => k.id)).toContain(child.api_key.api_key_id);

    // Audited: the request, and its completion by the service.
    const events = await json(await api(`/v1/governance/audit?target_id=${record.export_id}`, { key }));
    expect(events.items.map((e: any) => [e.action, e.actor.kind, e.outcome])).toEqual([
      ["export.completed", "service", "succeeded"],
      ["POST /v1/governance/exports", "api_key", "succeeded"],
    ]);

    // Listed; and after its expiry the sweep deletes the archive.
    const list = await json(await api("/v1/governance/exports?state=completed", { key }));
    expect(list.items.map((e: any) => e.export_id)).toEqual([record.export_id]);
    // R2 holds the archive alone (the manifest streamed aside was deleted once it joined the archive).
    const stored = await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, record.export_id) });
    expect(stored.objects.map((o) => o.key)).toEqual([archiveKey(tenantId, record.export_id, 1)]);
    await sweepExports(testEnv, Date.parse(record.expires_at) + 1);
    const expired = await json(await api(`/v1/governance/exports/${record.export_id}`, { key }));
    expect(expired).toMatchObject({ state: "expired", download: null, expires_at: null });
    expect((await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, record.export_id) })).objects).toEqual([]);
  });

  it("exports an empty tenant: its own record and the audit of the request only", async () => {
    const { key } = await createTenant();
    const record = await exportAndWait(key);
    expect(record.state).toBe("completed");
    expect(record.counts).toMatchObject({ tenant: 1, api_keys: 1, assets: 0, objects: 0, audit: 0 });
    expect(record.audit_head).toBeNull();
    const members = readTar(await downloadArchive(record));
    // (the request log may hold the POST itself, which began before as_of)
    expect(
      members
        .map((m) => m.name)
        .filter((n) => !n.startsWith("records/api_request_logs/"))
        .sort(),
    ).toEqual([
      "manifest.json",
      "manifest.sig",
      "records/api_keys/000001.jsonl",
      "records/governance_exports/000001.jsonl",
      "records/tenant/000001.jsonl",
    ]);
  });

  it("claims every record: console users (without e-mail fields), legal holds, deletions, exports and feedback (without the sealed message)", async () => {
    const { key, tenantId } = await createTenant();
    await testEnv.DB.prepare("UPDATE tenants SET contact_email = 'operator.contact@example.test' WHERE id = ?").bind(tenantId).run();
    const now = Date.now() - 1000;
    const userId = newId("user");
    await testEnv.DB.prepare(
      "INSERT INTO users (id, tenant_id, issuer, subject, email_sealed, email_data_key_id, email_index, status, created_at, updated_at) VALUES (?, ?, 'https://idp.example', 'sub-1', 'SEALED-EMAIL', 'dk_1', 'BLIND-INDEX', 'active', ?, ?)",
    )
      .bind(userId, tenantId, now, now)
      .run();
    const feedbackId = newId("feedback");
    await testEnv.DB.prepare(
      "INSERT INTO feedback (id, tenant_id, kind, data_key_id, message_sealed, message_length, actor_kind, actor_id, created_at) VALUES (?, ?, 'idea', 'dk_1', 'SEALED-MESSAGE', 42, 'api_key', NULL, ?)",
    )
      .bind(feedbackId, tenantId, now)
      .run();
    const holdId = await placeHold(tenantId);
    const earlier = await exportAndWait(key);
    const record = await exportAndWait(key);
    expect(record.counts).toMatchObject({ users: 1, legal_holds: 1, governance_exports: 2, feedback: 1, governance_deletions: 0 });
    const members = readTar(await downloadArchive(record));
    const text = members.map((m) => new TextDecoder().decode(m.bytes)).join("\n");
    for (const secret of ["SEALED-EMAIL", "BLIND-INDEX", "SEALED-MESSAGE", "operator.contact@example.test"])
      expect(text).not.toContain(secret);
    const rows = (prefix: string) =>
      members
        .filter((m) => m.name.startsWith(prefix))
        .flatMap((m) => new TextDecoder().decode(m.bytes).trim().split("\n"))
        .map((l) => JSON.parse(l));
    expect(rows("records/users/")).toEqual([expect.objectContaining({ id: userId, subject: "sub-1" })]);
    expect(Object.keys(rows("records/users/")[0])).not.toContain("email_index");
    expect(rows("records/tenant/")).toEqual([expect.not.objectContaining({ contact_email: expect.anything() })]);
    expect(Object.keys(rows("records/tenant/")[0])).not.toContain("contact_email");
    expect(rows("records/feedback/")).toEqual([expect.objectContaining({ id: feedbackId, message_length: 42 })]);
    expect(rows("records/legal_holds/").map((h) => h.id)).toEqual([holdId]);
    expect(rows("records/governance_exports/").map((e) => e.id)).toContain(earlier.export_id);
  });

  it("a completed deletion ends the tenant's exports: the archive is deleted from R2 and no download is offered", async () => {
    const { key, tenantId } = await createTenant();
    const record = await exportAndWait(key);
    expect(record.state).toBe("completed");
    await expireExportsForDeletion(testEnv, tenantId);
    const after = await json(await api(`/v1/governance/exports/${record.export_id}`, { key }));
    expect(after).toMatchObject({ state: "expired", download: null, error_code: "svc.governance.export_ended_by_deletion" });
    expect((await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, record.export_id) })).objects).toEqual([]);
    // Idempotent.
    await expireExportsForDeletion(testEnv, tenantId);
    expect((await json(await api(`/v1/governance/exports/${record.export_id}`, { key }))).state).toBe("expired");
  });
});
