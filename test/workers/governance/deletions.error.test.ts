import { describe, expect, it, vi } from "vitest";
import { database } from "../../../src/db/client";
import { requestDeletion, runDeletion, STALE_DELETION_MS, sweepDeletions } from "../../../src/governance/deletions/service";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset } from "../support/helpers";
import { auditCount, deletionRow, placeHold, quietEnv, waitForDeletion } from "./governance-helpers";

async function assetWithJob(tenantId: string, assetId: string, jobId: string, state: string) {
  const now = Date.now();
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES (?, ?, 'image', 'processing', ?, ?)",
    ).bind(assetId, tenantId, now, now),
    testEnv.DB.prepare(
      "INSERT INTO jobs (id, tenant_id, asset_id, recipe_id, recipe_version, policy_version, active_plan_revision, kind, mode, state, admitted, attempts, lease_expires_at, created_at, updated_at) VALUES (?, ?, ?, 'rcp_system_sign_only', 1, 'p1', 1, 'sign_only', 'standard', ?, '{}', 1, ?, ?, ?)",
    ).bind(jobId, tenantId, assetId, state, now + 600_000, now, now),
  ]);
}

const jobState = async (jobId: string) =>
  (await testEnv.DB.prepare("SELECT state, cancel_requested_at FROM jobs WHERE id = ?")
    .bind(jobId)
    .first<{ state: string; cancel_requested_at: number | null }>()) ?? null;

describe("deletions: jobs in flight and holds placed while running", () => {
  it("cancels a queued job at once and removes it with the asset", async () => {
    const { key, tenantId } = await createTenant();
    await assetWithJob(tenantId, "ast_queuedqueuedqueu", "job_queuedqueuedqueu", "queued");
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: "ast_queuedqueuedqueu" } });
    expect(res.status).toBe(202);
    const done = await waitForDeletion(key, (await json(res)).deletion_id);
    expect(done).toMatchObject({ state: "completed", removed: { assets: 1, jobs: 1 } });
    expect(await jobState("job_queuedqueuedqueu")).toBeNull();
  });

  it("asks a running job to stop and waits for it before removing anything", async () => {
    const { key, tenantId } = await createTenant();
    await assetWithJob(tenantId, "ast_runningrunningru", "job_runningrunningru", "running");
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: "ast_runningrunningru" } });
    const { deletion_id } = await json(res);
    // The runner has not stopped yet: the job is marked (by the deletion's queue run, whenever a loaded machine gets
    // to it), the asset is still there, the deletion keeps waiting.
    await vi.waitFor(async () => expect(await jobState("job_runningrunningru")).toMatchObject({ state: "cancel_requested" }), {
      timeout: 60_000,
      interval: 200,
    });
    expect((await api(`/v1/assets/ast_runningrunningru`, { key })).status).toBe(200);
    expect((await json(await api(`/v1/governance/deletions/${deletion_id}`, { key }))).state).toBe("running");
    const page = await json(await api("/v1/assets", { key }));
    expect(page.workspace_governance.deletion_pending).toBe(false);
    // The runner stops (as it does before its next step): the deletion proceeds.
    await testEnv.DB.prepare("UPDATE jobs SET state = 'canceled', terminal_at = ? WHERE id = 'job_runningrunningru'")
      .bind(Date.now())
      .run();
    expect(await waitForDeletion(key, deletion_id)).toMatchObject({ state: "completed", removed: { assets: 1, jobs: 1 } });
    expect((await api(`/v1/assets/ast_runningrunningru`, { key })).status).toBe(404);
  });

  it("a hold placed while a deletion waits stops it as refused, and the asset stays", async () => {
    const { key, tenantId } = await createTenant();
    await assetWithJob(tenantId, "ast_lateholdlatehold", "job_lateholdlatehold", "running");
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: "ast_lateholdlatehold" } });
    const { deletion_id } = await json(res);
    const holdId = await placeHold(tenantId, "ast_lateholdlatehold");
    const done = await waitForDeletion(key, deletion_id, 30_000);
    expect(done).toMatchObject({ state: "refused", legal_hold_id: holdId, reason_code: "svc.governance.legal_hold_active" });
    expect((await api(`/v1/assets/ast_lateholdlatehold`, { key })).status).toBe(200);
    const audit = await json(await api("/v1/governance/audit?action=deletion.refused", { key }));
    expect(audit.items[0]).toMatchObject({ actor: { kind: "service" }, outcome: "denied", target: { id: deletion_id } });
  });

  it("asset list and detail report a pending account deletion and an account hold", async () => {
    const { key, tenantId } = await createTenant();
    await assetWithJob(tenantId, "ast_workspaceworkspa", "job_workspaceworkspa", "completed");
    const now = Date.now();
    // Recorded as queued with no message sent: it stays pending for this test.
    await testEnv.DB.prepare(
      "INSERT INTO governance_deletions (id, tenant_id, scope, target, state, removed, created_at, updated_at) VALUES ('gdl_workspaceworkspa', ?, 'account', 'account', 'queued', '{}', ?, ?)",
    )
      .bind(tenantId, now, now)
      .run();
    await placeHold(tenantId);
    const expected = { legal_hold: true, deletion_pending: true, delivery_allowed: true };
    expect((await json(await api("/v1/assets", { key }))).workspace_governance).toEqual(expected);
    expect((await json(await api("/v1/assets/ast_workspaceworkspa/detail", { key }))).workspace_governance).toEqual(expected);
  });

  it("aborts a multipart upload still open for the asset: its parts can no longer be completed", async () => {
    const { key, tenantId } = await createTenant();
    const bytes = fixture("sample.jpg");
    const created = await api("/v1/uploads", {
      method: "POST",
      key,
      body: {
        byte_length: bytes.length,
        declared_media_type: "image/jpeg",
        mode: "multipart",
        sha256: await sha256HexOf(bytes),
        parts: [{ part_number: 1, byte_length: bytes.length }],
      },
    });
    expect(created.status).toBe(201);
    const upload = await json(created);
    const put = await callUrl(upload.parts[0].url, { method: "PUT", headers: upload.parts[0].headers, body: bytes });
    expect(put.status).toBe(200);
    const row = await testEnv.DB.prepare("SELECT r2_key, multipart_upload_id FROM uploads WHERE id = ?")
      .bind(upload.upload_id)
      .first<{ r2_key: string; multipart_upload_id: string }>();
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: upload.asset_id } });
    expect(await waitForDeletion(key, (await json(res)).deletion_id)).toMatchObject({
      state: "completed",
      removed: { assets: 1, uploads: 1 },
    });
    const etag = put.headers.get("etag")!.replaceAll('"', "");
    await expect(
      testEnv.OBJECTS.resumeMultipartUpload(row!.r2_key, row!.multipart_upload_id).complete([{ partNumber: 1, etag }]),
    ).rejects.toThrow();
    expect(await testEnv.OBJECTS.get(row!.r2_key)).toBeNull();
    expect(await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE tenant_id = ?").bind(tenantId).first()).toEqual({ n: 0 });
  });

  it("an unknown asset or deletion answers 404", async () => {
    const { key } = await createTenant();
    expect(
      (await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: "ast_abcdefghij234567" } })).status,
    ).toBe(404);
    expect((await api("/v1/governance/deletions/gdl_abcdefghij234567", { key })).status).toBe(404);
  });
});

/** An env whose queue refuses every send (the message of a deletion is lost). */
const brokenQueue = () => quietEnv({ JOBS_QUEUE: { send: async () => Promise.reject(new Error("queue unavailable")) } }).env;
/** An env whose audit chain cannot be reached (the outcome's audit append fails). */
const noAudit = (base: ReturnType<typeof quietEnv>["env"]): typeof base =>
  quietEnv({
    ...base,
    AUDIT_CHAIN: {
      idFromName: () => ({}),
      get: () => {
        throw new Error("Durable Object overloaded");
      },
    },
  }).env;
const backdate = (id: string, by: number) =>
  testEnv.DB.prepare("UPDATE governance_deletions SET updated_at = updated_at - ? WHERE id = ?").bind(by, id).run();

describe("deletions: lost messages and lost audits", () => {
  it("a deletion whose message was never sent is sent again by a repeated request once stale, and completes", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await expect(requestDeletion(brokenQueue(), database(testEnv.DB), tenantId, { scope: "asset", assetId }, null)).rejects.toThrow();
    const [stuck] = (await json(await api("/v1/governance/deletions", { key }))).items;
    expect(stuck.state).toBe("queued");
    // The record is old enough to be sure its message is lost: the client's retry answers it and sends it again.
    await backdate(stuck.deletion_id, STALE_DELETION_MS + 1000);
    const res = await api("/v1/governance/deletions", { method: "POST", key, body: { scope: "asset", asset_id: assetId } });
    expect(res.status).toBe(202);
    expect((await json(res)).deletion_id).toBe(stuck.deletion_id);
    expect(await waitForDeletion(key, stuck.deletion_id)).toMatchObject({ state: "completed", removed: { assets: 1 } });
  });

  it("the sweep sends a stale queued or running deletion again (once per stale period), and it completes", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await expect(requestDeletion(brokenQueue(), database(testEnv.DB), tenantId, { scope: "asset", assetId }, null)).rejects.toThrow();
    const [stuck] = (await json(await api("/v1/governance/deletions", { key }))).items;
    // As if a consumer had started it and the queue then gave its message up.
    await testEnv.DB.prepare("UPDATE governance_deletions SET state = 'running', attempts = 1 WHERE id = ?").bind(stuck.deletion_id).run();
    await backdate(stuck.deletion_id, STALE_DELETION_MS + 1000);
    const { env, sent } = quietEnv();
    const first = await sweepDeletions(env);
    expect(first.resent).toBeGreaterThanOrEqual(1);
    expect(sent).toContainEqual(expect.objectContaining({ deletion_id: stuck.deletion_id }));
    // Touched when sent: a second sweep right after sends nothing for it.
    const before = sent.length;
    await sweepDeletions(env);
    expect(sent.slice(before)).not.toContainEqual(expect.objectContaining({ deletion_id: stuck.deletion_id }));
    await runDeletion(env, tenantId, stuck.deletion_id, 1);
    expect((await deletionRow(stuck.deletion_id))?.state).toBe("completed");
    expect((await api(`/v1/assets/${assetId}`, { key })).status).toBe(404);
  });

  it("an audit append failing after a deletion finished is appended by the queue's retry, once", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    const { env } = quietEnv();
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "asset", assetId }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    const id = req.deletion.id;
    await expect(runDeletion(noAudit(env), tenantId, id, 1)).rejects.toThrow("overloaded");
    expect(await deletionRow(id)).toMatchObject({ state: "completed", audited_at: null });
    await runDeletion(env, tenantId, id, 2); // the queue's retry of the same message
    expect(await auditCount(tenantId, "deletion.completed")).toBe(1);
    expect((await deletionRow(id))?.audited_at).not.toBeNull();
    await runDeletion(env, tenantId, id, 3);
    await sweepDeletions(env, Date.now() + 10 * 60_000);
    expect(await auditCount(tenantId, "deletion.completed")).toBe(1);
  });

  it("an owed outcome audit (a refusal here) is appended by the sweep once the queue gave up, and never twice", async () => {
    const { tenantId } = await createTenant();
    await testEnv.DB.prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES ('ast_owedauditowedaud', ?, 'image', 'awaiting_upload', 0, 0)",
    )
      .bind(tenantId)
      .run();
    const { env } = quietEnv();
    const req = await requestDeletion(env, database(testEnv.DB), tenantId, { scope: "asset", assetId: "ast_owedauditowedaud" }, null);
    if (req.status !== "accepted") throw new Error(req.status);
    const holdId = await placeHold(tenantId, "ast_owedauditowedaud");
    await expect(runDeletion(noAudit(env), tenantId, req.deletion.id, 1)).rejects.toThrow("overloaded");
    expect(await deletionRow(req.deletion.id)).toMatchObject({ state: "refused", legal_hold_id: holdId, audited_at: null });
    // Just finished: left to the consumer's retries for now.
    expect(await auditCount(tenantId, "deletion.refused")).toBe(0);
    await sweepDeletions(env, Date.now() + 10 * 60_000);
    await sweepDeletions(env, Date.now() + 10 * 60_000);
    expect(await auditCount(tenantId, "deletion.refused")).toBe(1);
  });

  it("a request that loses the insert race to a deletion which finished at once answers a deletion that exists", async () => {
    const { tenantId } = await createTenant();
    await testEnv.DB.prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES ('ast_raceraceraceracer', ?, 'image', 'awaiting_upload', 0, 0)",
    )
      .bind(tenantId)
      .run();
    const db = database(testEnv.DB);
    let raced = false;
    // A concurrent request's deletion is inserted just before ours, and finishes just after ours lost to it.
    const racing = new Proxy(db, {
      get(target, prop) {
        if (prop !== "insert" || raced) return Reflect.get(target, prop);
        raced = true;
        return (table: Parameters<typeof db.insert>[0]) => ({
          values: (row: Record<string, unknown>) => ({
            onConflictDoNothing: () => ({
              returning: async (fields: Record<string, unknown>) => {
                const now = Date.now();
                await testEnv.DB.prepare(
                  "INSERT INTO governance_deletions (id, tenant_id, scope, asset_id, target, state, removed, created_at, updated_at) VALUES ('gdl_otherotherotheroo', ?, 'asset', 'ast_raceraceraceracer', 'ast_raceraceraceracer', 'queued', '{}', ?, ?)",
                )
                  .bind(tenantId, now, now)
                  .run();
                const result = await target
                  .insert(table)
                  .values(row as never)
                  .onConflictDoNothing()
                  .returning(fields as never);
                await testEnv.DB.prepare(
                  "UPDATE governance_deletions SET state = 'completed', completed_at = ? WHERE id = 'gdl_otherotherotheroo'",
                )
                  .bind(now)
                  .run();
                return result;
              },
            }),
          }),
        });
      },
    }) as typeof db;
    const { env } = quietEnv();
    const req = await requestDeletion(env, racing, tenantId, { scope: "asset", assetId: "ast_raceraceraceracer" }, null);
    expect(raced).toBe(true);
    if (req.status !== "accepted") throw new Error(req.status);
    expect(await deletionRow(req.deletion.id)).not.toBeNull();
  });
});
