import { signNote } from "../../anchoring/checkpoint";
import { anchorOrigin, logKeys } from "../../anchoring/log";
import { database } from "../../db/client";
import type { Bindings } from "../../env";
import { recordAudit } from "../../platform/audit";
import { utf8 } from "../../platform/bytes";
import { log } from "../../platform/logger";
import { type ArchivedFile, ArchiveTooLarge, ArchiveWriter, MemberMismatch, PartSink } from "./archive";
import {
  claimExport,
  dueForExpiry,
  type ExportRow,
  markCompleted,
  markExpired,
  markFailed,
  releaseAttempt,
  staleExports,
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
/** Attempts before an export fails as interrupted. */
export const MAX_EXPORT_ATTEMPTS = 3;
/** Rows per records file (one D1 page; bounds memory). */
export const RECORDS_PER_FILE = 200;
const OBJECTS_PER_PAGE = 100;
/** A queued export untouched this long is sent again by the sweep (its message may have been lost). */
const QUIET_MS = 5 * 60 * 1000;

export async function enqueueExport(env: Bindings, row: { id: string; tenantId: string }) {
  await env.JOBS_QUEUE.send({ type: EXPORT_MESSAGE, export_id: row.id, tenant_id: row.tenantId });
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
  if (!row) return; // finished, or another attempt holds it
  const attempt = row.attempts;
  // The previous attempt's partial uploads: never completed, so abort them.
  await abortUploads(env, archiveKey(row.tenantId, row.id, attempt - 1), row.multipartUploadId, row.manifestUploadId);
  if (attempt > MAX_EXPORT_ATTEMPTS) return finishFailed(env, row, attempt, EXPORT_FAILURES.interrupted);
  const key = archiveKey(row.tenantId, row.id, attempt);
  const uploads: { archive?: R2MultipartUpload; manifest?: R2MultipartUpload } = {};
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
    if (!recorded) throw new Error("lease lost to a newer attempt");
    const sealed = await sealArchive(env, row, attempt, key, uploads.archive, uploads.manifest);
    const done = Date.now();
    const completed = await markCompleted(db, row.id, attempt, { ...sealed, r2Key: key, expiresAt: done + EXPORT_RETENTION_MS }, done);
    if (!completed) return; // this attempt lost its lease meanwhile: the newer attempt decides
    await recordAudit(env, row.tenantId, {
      action: "export.completed",
      outcome: "succeeded",
      actorKind: "service",
      actorId: null,
      credentialId: null,
      requestId: null,
      targetType: "governance_export",
      targetId: row.id,
      statusCode: null,
      detail: { bytes: sealed.byteLength, files: sealed.fileCount, archive_sha256: sealed.archiveSha256 },
    });
  } catch (error) {
    await abortUploads(env, key, uploads.archive?.uploadId ?? null, uploads.manifest?.uploadId ?? null);
    if (error instanceof ExportFailure) return finishFailed(env, row, attempt, error.code);
    if (error instanceof ArchiveTooLarge) return finishFailed(env, row, attempt, EXPORT_FAILURES.tooLarge);
    log.error("export attempt failed; retried", { export_id: row.id, attempt, error: String(error) });
    if (attempt >= MAX_EXPORT_ATTEMPTS) return finishFailed(env, row, attempt, EXPORT_FAILURES.interrupted);
    await releaseAttempt(db, row.id, attempt, Date.now());
    throw error; // the message is retried with backoff
  }
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
  if (!(await markFailed(database(env.DB), row.id, attempt, code, Date.now()))) return;
  // Nothing of a failed export is kept (an earlier attempt presumed dead may have completed an upload).
  await deleteExportObjects(env, row);
  await recordAudit(env, row.tenantId, {
    action: "export.failed",
    outcome: "failed",
    actorKind: "service",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: "governance_export",
    targetId: row.id,
    statusCode: null,
    detail: { error_code: code },
  });
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

  let pages = 0;
  const keepLease = async () => {
    // Every few pages: extend the lease, and stop if another attempt took the export over.
    if (++pages % 10 !== 0) return;
    if (!(await updateAttempt(db, row.id, attempt, { leaseUntil: Date.now() + LEASE_MS }, Date.now())))
      throw new Error("lease lost to a newer attempt");
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
 * Cron: sends stale exports again (a lost message, an attempt whose worker died) and deletes archives past their
 * expiry (the export becomes `expired`). Bounded per run; idempotent.
 */
export async function sweepExports(env: Bindings, now: number, limit = 25): Promise<void> {
  const db = database(env.DB);
  for (const row of await staleExports(db, now, QUIET_MS, limit)) await enqueueExport(env, row);
  for (const row of await dueForExpiry(db, now, limit)) {
    await deleteExportObjects(env, row);
    await markExpired(db, row.id, now);
  }
}
