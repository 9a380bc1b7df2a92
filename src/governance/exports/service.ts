import type { z } from "@hono/zod-openapi";
import { anchorOrigin, logKeys, verifierKey } from "../../anchoring/log";
import type { Database } from "../../db/client";
import type { Bindings } from "../../env";
import type { AuditDraft } from "../../platform/audit";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { iso } from "../../platform/openapi";
import { presign } from "../../storage/signed-urls";
import { chainHead } from "../audit/repo";
import { activeExport, type ExportRow, insertExport } from "./repo";
import type { GovernanceExportSchema } from "./schemas";

/** Archives are deleted this long after completion (the sweep marks the export `expired`). */
export const EXPORT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** A download URL works this long; every read of the record mints a new one. */
export const EXPORT_DOWNLOAD_TTL_MS = 15 * 60 * 1000;
/** The first line of the signed note's text: names this format. */
export const EXPORT_SIGNATURE_FORMAT = "svc-governance-export/v1";

/** Everything an export writes to R2 is under this prefix (under the tenant's, like every object of the tenant). */
export function exportPrefix(tenantId: string, exportId: string): string {
  return `t/${tenantId}/exports/${exportId}/`;
}

/**
 * The archive key of one attempt. Each attempt writes its own key, so an attempt presumed dead that still completes
 * its upload can never replace the archive whose hash the record states; the record names the completing attempt's.
 */
export function archiveKey(tenantId: string, exportId: string, attempt: number): string {
  return `${exportPrefix(tenantId, exportId)}${attempt}.tar`;
}

export function archiveFilename(exportId: string): string {
  return `${exportId}.tar`;
}

/** The text the service signs: format, export, tenant and the manifest's SHA-256, one per line. */
export function signatureText(exportId: string, tenantId: string, manifestSha256: string): string {
  return `${EXPORT_SIGNATURE_FORMAT}\n${exportId}\n${tenantId}\n${manifestSha256}\n`;
}

export type ExportRequestResult =
  | { status: "created"; row: ExportRow }
  | { status: "in_progress"; active: ExportRow | null }
  | { status: "signing_unavailable" };

/**
 * Starts an export: fixes `as_of` (now) and the audit chain's head, and inserts it queued. Refused while the tenant
 * has one queued or running (one at a time keeps a tenant from filling the queue), and when no signing key is
 * configured (an unsigned archive is never produced).
 */
export async function requestExport(
  env: Bindings,
  db: Database,
  tenantId: string,
  actor: Pick<AuditDraft, "actorKind" | "actorId">,
  now: number,
): Promise<ExportRequestResult> {
  if (!logKeys(env)) return { status: "signing_unavailable" };
  const running = await activeExport(db, tenantId);
  if (running) return { status: "in_progress", active: running };
  const head = await chainHead(db, tenantId);
  const id = newId("governanceExport");
  const row = await insertExport(db, {
    id,
    tenantId,
    state: "queued",
    requestedByKind: actor.actorKind,
    requestedById: actor.actorId,
    asOf: now,
    auditHeadSeq: head?.seq ?? null,
    auditHeadHash: head?.hash ?? null,
    r2Key: archiveKey(tenantId, id, 1),
    createdAt: now,
    updatedAt: now,
  });
  // Lost a race with a concurrent request: the unique index kept one.
  if (!row) return { status: "in_progress", active: await activeExport(db, tenantId) };
  return { status: "created", row };
}

type ExportView = z.infer<typeof GovernanceExportSchema>;

/** A download URL, or null where none can be minted (production without R2's S3 credentials): the record stays readable. */
async function presignOrNull(...args: Parameters<typeof presign>) {
  try {
    return await presign(...args);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The API view of an export; a completed one carries a freshly minted download URL. */
export async function exportView(env: Bindings, origin: string, row: ExportRow): Promise<ExportView> {
  let download: ExportView["download"] = null;
  if (row.state === "completed") {
    const expiresAt = Math.min(Date.now() + EXPORT_DOWNLOAD_TTL_MS, row.expiresAt ?? Number.POSITIVE_INFINITY);
    const request = await presignOrNull(env, origin, {
      method: "GET",
      key: row.r2Key,
      workerPath: `/storage/exports/${row.id}`,
      expiresAt,
      byteLength: null,
      headers: {},
      served: { mediaType: "application/x-tar", filename: archiveFilename(row.id), disposition: "attachment" },
    });
    download = request && {
      url: request.url,
      method: "GET",
      headers: request.headers,
      expires_at: request.expires_at,
      filename: archiveFilename(row.id),
      media_type: "application/x-tar",
    };
  }
  const verifier = row.signature ? await verifierKey(env) : null;
  return {
    export_id: row.id,
    state: row.state,
    requested_at: iso(row.createdAt),
    requested_by: { kind: row.requestedByKind, id: row.requestedById },
    as_of: iso(row.asOf),
    audit_head: row.auditHeadSeq !== null && row.auditHeadHash !== null ? { seq: row.auditHeadSeq, hash: row.auditHeadHash } : null,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    expires_at: row.state === "completed" ? iso(row.expiresAt) : null,
    counts: row.counts ? (JSON.parse(row.counts) as Record<string, number>) : null,
    file_count: row.fileCount,
    bytes: row.byteLength,
    archive_sha256: row.archiveSha256,
    manifest_sha256: row.manifestSha256,
    signature:
      row.signature && verifier
        ? { format: "signed-note", key_name: anchorOrigin(env), verifier_key: verifier, note: row.signature }
        : null,
    download,
    error_code: row.errorCode,
    attempts: row.attempts,
  };
}
