import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { governanceExports, objects } from "../../../src/db/schema";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { expireExportsForDeletion, runExport, sweepExports } from "../../../src/governance/exports/seal";
import { archiveKey, exportPrefix } from "../../../src/governance/exports/service";
import { installAuditSink } from "../../../src/platform/audit";
import { newId } from "../../../src/platform/ids";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { downloadArchive, exportAndWait } from "./exports.support";

async function sourceKeyOf(tenantId: string) {
  const rows = await database(testEnv.DB).select().from(objects).where(eq(objects.tenantId, tenantId));
  return rows[0]!.r2Key;
}

async function expectFailedWithoutArchive(key: string, tenantId: string, record: any) {
  expect(record, JSON.stringify(record)).toMatchObject({
    state: "failed",
    error_code: "svc.governance.export_object_unavailable",
    download: null,
    archive_sha256: null,
    signature: null,
  });
  // Nothing half-sealed: no archive object (of any attempt) exists.
  expect((await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, record.export_id) })).objects).toEqual([]);
  const events = await json(await api(`/v1/governance/audit?target_id=${record.export_id}`, { key }));
  expect(events.items[0]).toMatchObject({
    action: "export.failed",
    outcome: "failed",
    actor: { kind: "service", id: null },
    detail: { error_code: "svc.governance.export_object_unavailable" },
  });
}

function insertExport(tenantId: string, fields: Partial<typeof governanceExports.$inferInsert> = {}) {
  const id = newId("governanceExport");
  const now = Date.now();
  return database(testEnv.DB)
    .insert(governanceExports)
    .values({
      id,
      tenantId,
      state: "queued",
      requestedByKind: "api_key",
      requestedById: null,
      asOf: now,
      r2Key: archiveKey(tenantId, id, 1),
      createdAt: now,
      updatedAt: now,
      ...fields,
    })
    .returning()
    .then((rows) => rows[0]!);
}

describe("governance export errors", () => {
  it("fails with a code, and seals nothing, when a stored object's bytes are missing", async () => {
    const { key, tenantId } = await createTenant();
    await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await testEnv.OBJECTS.delete(await sourceKeyOf(tenantId));
    await expectFailedWithoutArchive(key, tenantId, await exportAndWait(key));
  });

  it("fails the same way when a stored object's bytes were replaced (the pinned etag no longer matches)", async () => {
    const { key, tenantId } = await createTenant();
    await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    await testEnv.OBJECTS.put(await sourceKeyOf(tenantId), new Uint8Array([1, 2, 3]));
    await expectFailedWithoutArchive(key, tenantId, await exportAndWait(key));
  });

  it("answers 409 export_in_progress while one is queued or running, and takes a new one after", async () => {
    const { key, tenantId } = await createTenant();
    const running = await insertExport(tenantId, { state: "running", leaseUntil: Date.now() + 60_000, attempts: 1 });
    const refused = await api("/v1/governance/exports", { method: "POST", key });
    expect(refused.status).toBe(409);
    const body = await json(refused);
    expect(body.code).toBe("svc.governance.export_in_progress");
    expect(body.message).toContain(running.id);
    await database(testEnv.DB).update(governanceExports).set({ state: "failed" }).where(eq(governanceExports.id, running.id));
    const record = await exportAndWait(key);
    expect(record.state).toBe("completed");
  });

  it("restarts an attempt whose lease lapsed (aborting its partial upload), and a redelivered message changes nothing", async () => {
    const { key, tenantId } = await createTenant();
    const id = newId("governanceExport");
    const partial = await testEnv.OBJECTS.createMultipartUpload(archiveKey(tenantId, id, 1));
    await partial.uploadPart(1, new Uint8Array(1024));
    await insertExport(tenantId, {
      id,
      r2Key: archiveKey(tenantId, id, 1),
      state: "running",
      attempts: 1,
      leaseUntil: Date.now() - 1,
      multipartUploadId: partial.uploadId,
    });
    await runExport(testEnv, id);
    const record = await json(await api(`/v1/governance/exports/${id}`, { key }));
    expect(record).toMatchObject({ state: "completed", attempts: 2 });
    // The second attempt's archive is the one offered; the first's partial upload was aborted, never completed.
    const keys = (await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, id) })).objects.map((o) => o.key);
    expect(keys).toEqual([archiveKey(tenantId, id, 2)]);
    const archive = await downloadArchive(record);
    await runExport(testEnv, id);
    const again = await json(await api(`/v1/governance/exports/${id}`, { key }));
    expect(again).toMatchObject({ state: "completed", attempts: 2, archive_sha256: record.archive_sha256 });
    expect((await downloadArchive(again)).length).toBe(archive.length);
  });

  it("fails as interrupted once its attempts are spent", async () => {
    const { key, tenantId } = await createTenant();
    const row = await insertExport(tenantId, { state: "running", attempts: 3, leaseUntil: Date.now() - 1 });
    await runExport(testEnv, row.id);
    const record = await json(await api(`/v1/governance/exports/${row.id}`, { key }));
    expect(record).toMatchObject({ state: "failed", error_code: "svc.governance.export_interrupted", attempts: 4 });
  });

  it("validates ids and filters", async () => {
    const { key } = await createTenant();
    expect((await api("/v1/governance/exports/gex_nope", { key })).status).toBe(422);
    expect((await api("/v1/governance/exports?state=done", { key })).status).toBe(422);
    expect((await api(`/v1/governance/exports/${newId("governanceExport")}`, { key })).status).toBe(404);
  });

  it("a deletion fails a queued export: its message, delivered after, writes no archive", async () => {
    const { key, tenantId } = await createTenant();
    const row = await insertExport(tenantId);
    await expireExportsForDeletion(testEnv, tenantId);
    await runExport(testEnv, row.id);
    const record = await json(await api(`/v1/governance/exports/${row.id}`, { key }));
    expect(record).toMatchObject({ state: "failed", error_code: "svc.governance.export_ended_by_deletion", download: null });
    expect((await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, row.id) })).objects).toEqual([]);
    const events = await json(await api(`/v1/governance/audit?target_id=${row.id}`, { key }));
    expect(events.items.map((e: any) => e.action)).toEqual(["export.failed"]);
  });

  it("a deletion during a running attempt: the attempt checks before completing its upload and leaves no archive", async () => {
    const { key, tenantId } = await createTenant();
    await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    const row = await insertExport(tenantId);
    // The deletion completes while the attempt reads its streamed manifest back, just before sealing.
    const objectsStore = testEnv.OBJECTS;
    const racing = new Proxy(objectsStore, {
      get(target, prop) {
        if (prop === "get")
          return async (k: string, o?: R2GetOptions) => {
            if (k.endsWith(".manifest")) await expireExportsForDeletion(testEnv, tenantId);
            return target.get(k, o);
          };
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await runExport({ ...testEnv, OBJECTS: racing }, row.id);
    const record = await json(await api(`/v1/governance/exports/${row.id}`, { key }));
    expect(record).toMatchObject({ state: "failed", error_code: "svc.governance.export_ended_by_deletion", download: null });
    expect((await testEnv.OBJECTS.list({ prefix: exportPrefix(tenantId, row.id) })).objects).toEqual([]);
  });

  it("an export.completed whose audit append failed is appended by the redelivered message, once", async () => {
    const { key, tenantId } = await createTenant();
    await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "a.jpg");
    const row = await insertExport(tenantId);
    let calls = 0;
    installAuditSink({
      ...durableAuditSink,
      async append(env, t, drafts) {
        if (drafts.some((d) => d.action === "export.completed") && calls++ === 0) throw new Error("audit DO unavailable (transient)");
        return durableAuditSink.append(env, t, drafts);
      },
    });
    try {
      await expect(runExport(testEnv, row.id)).rejects.toThrow("transient");
      await runExport(testEnv, row.id);
      await runExport(testEnv, row.id);
    } finally {
      installAuditSink(durableAuditSink);
    }
    const record = await json(await api(`/v1/governance/exports/${row.id}`, { key }));
    expect(record.state).toBe("completed");
    expect((await downloadArchive(record)).length).toBe(record.bytes);
    const events = await json(await api(`/v1/governance/audit?target_id=${row.id}`, { key }));
    expect(events.items.map((e: any) => e.action)).toEqual(["export.completed"]);
  });

  it("the sweep appends an export end the audit log is missing (no redelivery), once", async () => {
    const { key, tenantId } = await createTenant();
    const finishedAt = Date.now() - 10 * 60 * 1000;
    const row = await insertExport(tenantId, { state: "failed", errorCode: "svc.governance.export_interrupted", completedAt: finishedAt });
    await sweepExports(testEnv, Date.now());
    await sweepExports(testEnv, Date.now());
    const events = await json(await api(`/v1/governance/audit?target_id=${row.id}`, { key }));
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({ action: "export.failed", detail: { error_code: "svc.governance.export_interrupted" } });
  });
});
