import { signNote } from "../../anchoring/checkpoint";
import { anchorOrigin, logKeys } from "../../anchoring/log";
import { type Database, database } from "../../db/client";
import type { Bindings } from "../../env";
import { recordAudit } from "../../platform/audit";
import { utf8 } from "../../platform/bytes";
import { log } from "../../platform/logger";
import { type ArchivedFile, ArchiveTooLarge, ArchiveWriter, MemberMismatch, PartSink } from "./archive";
import {
  claimExport,
  dueForExpiry,
  type ExportRow,
  exportById,
  liveExports,
  markAudited,
  markCompleted,
  markExpired,
  markExpiredEarly,
  markFailed,
  releaseAttempt,
  staleExports,
  unauditedExports,
  updateAttempt,
} from "./repo";
import { RECORD_KINDS, SNAPSHOT_START, type SnapshotScope, snapshotObjects, snapshotPage } from "./repo/snapshot";
import { EXPORT_FAILURES } from "./schemas";
import { archiveKey, EXPORT_RETENTION_MS, exportPrefix, signatureText } from "./service";
import { MAX_MEMBER_BYTES } from "./tar";

/*
 * The export job (queue message `governance.export`): seals one archive per attempt, from the beginning. An attempt
 * holds a lease; it is restartable rather than resumable (a partial multipart upload is aborted, never completed),
 * so the archive is either whole and signed or absent. At-least-once delivery is safe: a message for an export that
 * another live attempt holds, or that is finished, changes nothing.
 */

export const EXPORT_MESSAGE = "governance.export";
/** A running attempt's lease, renewed as it goes; past it the sweep restarts the export. */
const LEASE_MS = 10 * 60 * 1000;
/** The lease is renewed by time (one D1 query a minute), not per page: pages must stay within the query budget. */
const RENEW_EVERY_MS = 60 * 1000;
/** Attempts before an export fails as interrupted. */
export const MAX_EXPORT_ATTEMPTS = 3;
/** Rows per records file (one D1 page; bounds memory: one JSONL text of this many rows at a time). */
export const RECORDS_PER_FILE = 1000;
const OBJECTS_PER_PAGE = 1000;
/**
 * D1 queries one attempt may spend on pages and lease renewals. Workers allow 1,000 D1 queries per invocation; the
 * rest is kept for the claim, the bookkeeping writes and the end. A tenant needing more pages fails `too_large`
 * at once (deterministic) rather than three times as interrupted. Ceiling: about 900,000 records per export
 * (rows of every kind plus stored objects, 1,000 per query) — stated in the OpenAPI description.
 */
export const PAGE_QUERY_BUDGET = 900;

/** A queued export untouched this long is sent again by the sweep (its message may have been lost). */
const QUIET_MS = 5 * 60 * 1000;

export async function enqueueExport(env: Bindings, row: { id: string; tenantId: string }) {
  await env.JOBS_QUEUE.send({ type: EXPORT_MESSAGE, export_id: row.id, tenant_id: row.tenantId });
}

/** The attempt no longer holds the export (a newer attempt took it, or a deletion failed it): it stops quietly. */
class LeaseLost extends Error {
  constructor() {
    super("lease lost");
  }
}

/** A definite failure of the export (not of the attempt): it ends `failed` with this code. */
class ExportFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** The queue handler. */
export async function runExport(env: Bindings, exportId: string): Promise<void> {
  const db = database(env.DB);
  const now = Date.now();
  const row = await claimExport(db, exportId, now, now + LEASE_MS);
  if (!row) {
    // Finished, or another attempt holds it. A redelivery after the end's audit append failed appends it now.
    const current = await exportById(db, exportId);
    if (current) await auditEnd(env, current);
    return;
  }
  const attempt = row.attempts;
  // The previous attempt's partial uploads: never completed, so abort them.
  await abortUploads(env, archiveKey(row.tenantId, row.id, attempt - 1), row.multipartUploadId, row.manifestUploadId);
  if (attempt > MAX_EXPORT_ATTEMPTS) return finishFailed(env, row, attempt, EXPORT_FAILURES.interrupted);
  const key = archiveKey(row.tenantId, row.id, attempt);
  const uploads: { archive?: R2MultipartUpload; manifest?: R2MultipartUpload } = {};
  let completed: ExportRow | null = null;
  try {
    uploads.archive = await env.OBJECTS.createMultipartUpload(key, { httpMetadata: { contentType: "application/x-tar" } });
    uploads.manifest = await env.OBJECTS.createMultipartUpload(manifestKey(key), { httpMetadata: { contentType: "application/json" } });
    const recorded = await updateAttempt(
      db,
      row.id,
      attempt,
      { multipartUploadId: uploads.archive.uploadId, manifestUploadId: uploads.manifest.uploadId, leaseUntil: Date.now() + LEASE_MS },
      Date.now(),
    );
    if (!recorded) throw new LeaseLost();
    const sealed = await sealArchive(env, row, attempt, key, uploads.archive, uploads.manifest);
    const done = Date.now();
    const fields = { ...sealed, r2Key: key, expiresAt: done + EXPORT_RETENTION_MS };
    if (!(await markCompleted(db, row.id, attempt, fields, done))) {
      // Lost between the last check and now (a newer attempt, or a deletion failed it): this archive is nobody's.
      await env.OBJECTS.delete(key);
      return;
    }
    completed = { ...row, ...fields, state: "completed", completedAt: done, audited: false };
  } catch (error) {
    await abortUploads(env, key, uploads.archive?.uploadId ?? null, uploads.manifest?.uploadId ?? null);
    if (error instanceof LeaseLost || !(await stillHeld(db, row.id, attempt))) {
      // Its archive, if this attempt completed the upload before finding out, is nobody's either.
      await env.OBJECTS.delete(key).catch(() => undefined);
      return;
    }
    if (error instanceof ExportFailure) return finishFailed(env, row, attempt, error.code);
    if (error instanceof ArchiveTooLarge) return finishFailed(env, row, attempt, EXPORT_FAILURES.tooLarge);
    log.error("export attempt failed; retried", { export_id: row.id, attempt, error: String(error) });
    if (attempt >= MAX_EXPORT_ATTEMPTS) return finishFailed(env, row, attempt, EXPORT_FAILURES.interrupted);
    await releaseAttempt(db, row.id, attempt, Date.now());
    throw error; // the message is retried with backoff
  }
  // Outside the try: the export is completed whatever happens to the append; a failed append throws, and the
  // redelivered message (or the sweep) appends it.
  await auditEnd(env, completed);
}

/**
 * Appends a finished export's end (export.completed or export.failed) to the audit log unless the row says it is
 * there, then says so. At least once: the flag is set only after the append, so a failed append is retried by the
 * redelivery or the sweep; appended twice only if two of those run for the same export at the same instant.
 */
async function auditEnd(env: Bindings, row: ExportRow): Promise<void> {
  if (row.audited) return;
  // An export a deletion expired early still completed: its end is export.completed.
  const succeeded = row.state === "completed" || row.state === "expired";
  if (!succeeded && row.state !== "failed") return;
  await recordAudit(env, row.tenantId, {
    action: succeeded ? "export.completed" : "export.failed",
    outcome: succeeded ? "succeeded" : "failed",
    actorKind: "service",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: "governance_export",
    targetId: row.id,
    statusCode: null,
    detail: succeeded ? { bytes: row.byteLength, files: row.fileCount, archive_sha256: row.archiveSha256 } : { error_code: row.errorCode },
  });
  await markAudited(database(env.DB), row.id);
}

/**
 * Ends every export of a tenant whose data a deletion removed (the lead calls it when a deletion completes):
 * completed archives are deleted and the exports become `expired` with error_code EXPORT_FAILURES.endedByDeletion;
 * queued or running exports become `failed` with that code. A running attempt then finds it no longer holds the
 * export (its writes are guarded by state and attempt, and it checks just before completing its upload), and
 * deletes whatever archive it wrote. Idempotent.
 */
export async function expireExportsForDeletion(env: Bindings, tenantId: string): Promise<void> {
  const db = database(env.DB);
  for (const row of await liveExports(db, tenantId)) {
    const now = Date.now();
    if (row.state === "completed") {
      await markExpiredEarly(db, row.id, EXPORT_FAILURES.endedByDeletion, now);
      await deleteExportObjects(env, row);
      continue;
    }
    if (!(await markFailed(db, row.id, null, EXPORT_FAILURES.endedByDeletion, now))) continue;
    await abortUploads(env, archiveKey(row.tenantId, row.id, row.attempts), row.multipartUploadId, row.manifestUploadId);
    await deleteExportObjects(env, row);
    // The deletion must not wait on the audit log: a failed append is made by the sweep.
    await auditEnd(env, { ...row, state: "failed", errorCode: EXPORT_FAILURES.endedByDeletion, completedAt: now, audited: false }).catch(
      (error) => log.error("export end audit deferred to the sweep", { export_id: row.id, error: String(error) }),
    );
  }
}

/** Whether this attempt still holds the export: after a failure, one that no longer does (a deletion failed it) stops quietly. */
async function stillHeld(db: Database, id: string, attempt: number): Promise<boolean> {
  const current = await exportById(db, id);
  return current?.state === "running" && current.attempts === attempt;
}

/** Where an attempt streams the manifest before it joins the archive (deleted once it has). */
function manifestKey(archive: string): string {
  return `${archive}.manifest`;
}

/** Aborts an attempt's unfinished uploads (best effort: R2 also expires abandoned multipart uploads). */
async function abortUploads(env: Bindings, archive: string, archiveUploadId: string | null, manifestUploadId: string | null) {
  if (archiveUploadId)
    await env.OBJECTS.resumeMultipartUpload(archive, archiveUploadId)
      .abort()
      .catch(() => undefined);
  if (manifestUploadId)
    await env.OBJECTS.resumeMultipartUpload(manifestKey(archive), manifestUploadId)
      .abort()
      .catch(() => undefined);
  await env.OBJECTS.delete(manifestKey(archive)).catch(() => undefined);
}

/** Deletes everything an export wrote (every attempt's archive and manifest); bounded by R2's list page. */
async function deleteExportObjects(env: Bindings, row: ExportRow) {
  const listed = await env.OBJECTS.list({ prefix: exportPrefix(row.tenantId, row.id), limit: 1000 });
  if (listed.objects.length > 0) await env.OBJECTS.delete(listed.objects.map((o) => o.key));
}

async function finishFailed(env: Bindings, row: ExportRow, attempt: number, code: string) {
  const now = Date.now();
  if (!(await markFailed(database(env.DB), row.id, attempt, code, now))) return;
  // Nothing of a failed export is kept (an earlier attempt presumed dead may have completed an upload).
  await deleteExportObjects(env, row);
  await auditEnd(env, { ...row, state: "failed", errorCode: code, completedAt: now, audited: false });
}

/**
 * Writes the whole archive; returns what the record keeps. Throws ExportFailure for a definite failure. Memory stays
 * bounded: one part buffer per upload, one page of records, one chunk of an object in flight.
 */
async function sealArchive(
  env: Bindings,
  row: ExportRow,
  attempt: number,
  key: string,
  archiveUpload: R2MultipartUpload,
  manifestUpload: R2MultipartUpload,
) {
  const keysPromise = logKeys(env);
  if (!keysPromise) throw new ExportFailure(EXPORT_FAILURES.signingUnavailable);
  const keys = await keysPromise;
  const db = database(env.DB);
  const writer = new ArchiveWriter(new PartSink(archiveUpload), row.asOf);
  const counts: Record<string, number> = {};
  const scope: SnapshotScope = { tenantId: row.tenantId, asOf: row.asOf, auditHeadSeq: row.auditHeadSeq ?? 0 };

  // manifest.json, streamed: its `files` list grows with every member (its other fields come last, once known).
  const manifest = new PartSink(manifestUpload);
  const head = {
    format: "svc.governance-export.v1",
    export_id: row.id,
    tenant_id: row.tenantId,
    as_of: new Date(row.asOf).toISOString(),
    audit_head: row.auditHeadSeq !== null ? { seq: row.auditHeadSeq, hash: row.auditHeadHash } : null,
  };
  await manifest.write(utf8(`${JSON.stringify(head).slice(0, -1)},"files":[`));
  let listed = 0;
  const list = async (file: ArchivedFile) => {
    await manifest.write(utf8(`${listed++ === 0 ? "\n" : ",\n"}${JSON.stringify(file)}`));
  };

  let queries = 0;
  let renewedAt = Date.now();
  const renew = async () => {
    queries++;
    renewedAt = Date.now();
    if (!(await updateAttempt(db, row.id, attempt, { leaseUntil: renewedAt + LEASE_MS }, renewedAt))) throw new LeaseLost();
  };
  const keepLease = async () => {
    // Counts the page just read; once a minute extends the lease and stops if the attempt no longer holds it.
    if (++queries > PAGE_QUERY_BUDGET) throw new ExportFailure(EXPORT_FAILURES.tooLarge);
    if (Date.now() - renewedAt >= RENEW_EVERY_MS) await renew();
  };

  for (const kind of RECORD_KINDS) {
    counts[kind.name] = 0;
    let position = SNAPSHOT_START;
    for (let n = 1; ; n++) {
      const page = await snapshotPage(env.DB, kind, scope, position, RECORDS_PER_FILE);
      if (page.rows.length > 0) {
        const text = `${page.rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
        await list(await writer.addBytes(`records/${kind.name}/${String(n).padStart(6, "0")}.jsonl`, utf8(text)));
        counts[kind.name] = (counts[kind.name] ?? 0) + page.rows.length;
      }
      await keepLease();
      if (!page.next) break;
      position = page.next;
    }
  }

  let included = 0;
  let omitted = 0;
  let position = SNAPSHOT_START;
  for (;;) {
    const page = await snapshotObjects(env.DB, scope, position, OBJECTS_PER_PAGE);
    for (const object of page.objects) {
      // Retention deleted these bytes on the tenant's own rule: counted, not a failure (the records still list them).
      if (object.assetStatus === "retention_expired") {
        omitted++;
        continue;
      }
      if (object.byteLength > MAX_MEMBER_BYTES) throw new ExportFailure(EXPORT_FAILURES.tooLarge);
      const stored = await env.OBJECTS.get(object.r2Key, { onlyIf: { etagMatches: object.etag } });
      if (!stored || !("body" in stored)) throw new ExportFailure(EXPORT_FAILURES.objectUnavailable);
      try {
        await list(await writer.addStream(`objects/${object.id}`, object.byteLength, stored.body, object.sha256));
      } catch (error) {
        if (error instanceof MemberMismatch) throw new ExportFailure(EXPORT_FAILURES.objectUnavailable);
        throw error;
      }
      included++;
    }
    await keepLease();
    if (!page.next) break;
    position = page.next;
  }
  counts.objects = included;
  counts.objects_omitted = omitted;

  await manifest.write(utf8(`\n],"counts":${JSON.stringify(counts)}}\n`));
  const sealedManifest = await manifest.finish();
  const stored = await env.OBJECTS.get(manifestKey(key));
  if (!stored) throw new Error("the streamed manifest is missing");
  await writer.addStream("manifest.json", sealedManifest.byteLength, stored.body, sealedManifest.sha256);
  const note = await signNote(signatureText(row.id, row.tenantId, sealedManifest.sha256), keys.privateKey, anchorOrigin(env), keys.keyId);
  await writer.addBytes("manifest.sig", utf8(note));
  // Checked just before the upload completes: an export failed meanwhile (a deletion) never gets an archive.
  await renew();
  const archive = await writer.finish();
  await env.OBJECTS.delete(manifestKey(key));
  return {
    counts: JSON.stringify(counts),
    fileCount: listed + 2,
    byteLength: archive.byteLength,
    archiveSha256: archive.sha256,
    manifestSha256: sealedManifest.sha256,
    signature: note,
  };
}

/**
 * Cron: sends stale exports again (a lost message, an attempt whose worker died), deletes archives past their
 * expiry (the export becomes `expired`) and appends export ends the audit log is missing. Bounded per run;
 * idempotent.
 */
export async function sweepExports(env: Bindings, now: number, limit = 25): Promise<void> {
  const db = database(env.DB);
  for (const row of await staleExports(db, now, QUIET_MS, limit)) await enqueueExport(env, row);
  for (const row of await dueForExpiry(db, now, limit)) {
    await deleteExportObjects(env, row);
    await markExpired(db, row.id, now);
  }
  // Ends whose audit append failed and whose message was not redelivered; QUIET_MS leaves the finishing attempt
  // time to append its own.
  for (const row of await unauditedExports(db, now - QUIET_MS, limit)) {
    await auditEnd(env, row).catch((error) =>
      log.error("export end audit failed; retried by the next sweep", { export_id: row.id, error: String(error) }),
    );
  }
}
