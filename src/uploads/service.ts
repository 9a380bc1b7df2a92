import { formatOf, maximumBytesOf } from "../catalog/formats";
import { MULTIPART_MAXIMUM_PARTS, MULTIPART_MINIMUM_PART_BYTES } from "../catalog/limits";
import type { CapabilityRegistry } from "../catalog/registry";
import type { Database } from "../db/client";
import type { InspectionResult, MediaInspector, NormalizedInspectionFacts } from "../media/types";
import { hex } from "../platform/bytes";
import type { FieldDetail } from "../platform/errors";
import { newId } from "../platform/ids";
import { log } from "../platform/logger";
import { inspectStreamed, isStreamedUpload } from "./large-inspection";
import {
  closedUnsweptUploads,
  closeUpload,
  expiredUploads,
  failUpload,
  getUpload,
  insertUploadWithAsset,
  keyIsPinned,
  markUploadSwept,
  pinUpload,
  type UploadRow,
} from "./repo";

/** Domain logic of uploads: no HTTP here; every outcome is a discriminated union. */

export const UPLOAD_TTL_MS = 60 * 60 * 1000;
export const MIN_PART_BYTES = MULTIPART_MINIMUM_PART_BYTES;
export const MAX_PARTS = MULTIPART_MAXIMUM_PARTS;

export function objectKey(tenantId: string, objectId: string): string {
  return `t/${tenantId}/o/${objectId}`;
}

export interface CreateUploadInput {
  byte_length: number;
  declared_media_type: string;
  mode: "single" | "multipart";
  sha256: string;
  filename?: string | null;
  parts: { part_number: number; byte_length: number }[];
}

export type CreateUploadResult =
  | { status: "created"; upload: UploadRow }
  | {
      status: "refused";
      code: "svc.uploads.media_type_unknown" | "svc.uploads.media_type_unavailable" | "svc.uploads.too_large" | "svc.uploads.parts_invalid";
      message: string;
      field: FieldDetail;
    };

function field(name: string, code: string, message: string): FieldDetail {
  return { location: "body", field: name, code, message };
}

/** The ids of an upload created under an Idempotency-Key (`idFor`): the same key, the same upload. */
export interface UploadIds {
  uploadId: string;
  assetId: string;
  objectId: string;
}

/**
 * Creates an upload and its asset (one D1 batch). With `ids`, an upload that already has them is answered as it is:
 * the retry of a request whose answer was lost converges on the upload it created (at most one per key).
 */
export async function createUpload(
  db: Database,
  bucket: R2Bucket,
  registry: CapabilityRegistry,
  tenantId: string,
  input: CreateUploadInput,
  now = Date.now(),
  ids?: UploadIds,
): Promise<CreateUploadResult> {
  const format = formatOf(input.declared_media_type);
  if (!format) {
    return {
      status: "refused",
      code: "svc.uploads.media_type_unknown",
      message: `${input.declared_media_type} is not a reviewed format.`,
      field: field("declared_media_type", "unknown_media_type", "Not a reviewed format."),
    };
  }
  const availability = registry.formatAvailability(format);
  if (!availability.available) {
    return {
      status: "refused",
      code: "svc.uploads.media_type_unavailable",
      message: `${format.media_type} is not enabled in this deployment (${availability.reason}).`,
      field: field("declared_media_type", "media_type_unavailable", `Unavailable: ${availability.reason}.`),
    };
  }
  const maximum = maximumBytesOf(format);
  if (input.byte_length > maximum) {
    return {
      status: "refused",
      code: "svc.uploads.too_large",
      message: `At most ${maximum} bytes for ${format.media_type}.`,
      field: field("byte_length", "too_big", `At most ${maximum}.`),
    };
  }
  const partsProblem =
    input.mode === "multipart"
      ? checkDeclaredParts(input.parts, input.byte_length)
      : input.parts.length > 0
        ? "parts are only used with mode multipart"
        : null;
  if (partsProblem)
    return {
      status: "refused",
      code: "svc.uploads.parts_invalid",
      message: partsProblem,
      field: field("parts", "invalid_parts", partsProblem),
    };

  // Under an Idempotency-Key the ids are the key's: a retry after a crash that lost the answer finds that upload.
  // (A key reused for another request after its record's 24 h gets fresh ids: the old upload is not this one.)
  if (ids) {
    const existing = await getUpload(db, tenantId, ids.uploadId);
    if (existing && sameRequest(existing, input, format.media_type)) return { status: "created", upload: existing };
    if (existing) ids = undefined;
  }
  const assetId = ids?.assetId ?? newId("asset");
  const objectId = ids?.objectId ?? newId("object");
  const key = objectKey(tenantId, objectId);
  const multipartUploadId =
    input.mode === "multipart"
      ? (await bucket.createMultipartUpload(key, { httpMetadata: { contentType: format.media_type } })).uploadId
      : null;
  const upload: UploadRow = {
    id: ids?.uploadId ?? newId("upload"),
    tenantId,
    assetId,
    objectId,
    r2Key: key,
    mode: input.mode,
    status: "initiated",
    declaredMediaType: format.media_type,
    byteLength: input.byte_length,
    sha256: input.sha256.toLowerCase(),
    filename: input.filename ?? null,
    multipartUploadId,
    parts: input.mode === "multipart" ? JSON.stringify(input.parts) : null,
    createdAt: now,
    expiresAt: now + UPLOAD_TTL_MS,
    completedAt: null,
    errorCode: null,
    sweptAt: null,
  };
  const inserted = insertUploadWithAsset(db, upload, {
    id: assetId,
    tenantId,
    kind: format.modality,
    mediaType: format.media_type,
    status: "awaiting_upload",
    filename: input.filename ?? null,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await inserted;
  } catch (error) {
    // Two attempts under one key that both got this far (the first one's lease lapsed): the one that inserted wins.
    const existing = ids ? await getUpload(db, tenantId, ids.uploadId) : null;
    if (existing && sameRequest(existing, input, format.media_type)) return { status: "created", upload: existing };
    throw error;
  }
  return { status: "created", upload };
}

function sameRequest(upload: UploadRow, input: CreateUploadInput, mediaType: string): boolean {
  return (
    upload.mode === input.mode &&
    upload.byteLength === input.byte_length &&
    upload.sha256 === input.sha256.toLowerCase() &&
    upload.declaredMediaType === mediaType &&
    (upload.filename ?? null) === (input.filename ?? null) &&
    (upload.parts ?? null) === (input.mode === "multipart" ? JSON.stringify(input.parts) : null)
  );
}

function checkDeclaredParts(parts: { part_number: number; byte_length: number }[], total: number): string | null {
  if (parts.length === 0) return "multipart uploads declare their parts";
  if (parts.length > MAX_PARTS) return `at most ${MAX_PARTS} parts`;
  let sum = 0;
  for (const [i, part] of parts.entries()) {
    if (part.part_number !== i + 1) return "parts must be numbered 1..n in order";
    if (part.byte_length < 1) return "every part carries at least one byte";
    if (i < parts.length - 1 && part.byte_length < MIN_PART_BYTES) return "every part but the last must be at least 5 MiB";
    sum += part.byte_length;
  }
  return sum === total ? null : "part sizes must add up to byte_length";
}

export function uploadIsOpen(upload: UploadRow, now = Date.now()): boolean {
  return upload.status === "initiated" && upload.expiresAt > now;
}

export type CompleteUploadResult =
  | { status: "completed"; upload: UploadRow; objectId: string }
  | { status: "not_found" }
  | { status: "gone" }
  | { status: "failed"; errorCode: string }
  | { status: "storage_unavailable" }
  | {
      status: "refused";
      code: "svc.uploads.parts_invalid" | "svc.uploads.bytes_missing" | "svc.uploads.length_mismatch" | "svc.uploads.sha256_mismatch";
      message: string;
    }
  | { status: "media_refused"; inspection: Exclude<InspectionResult, { status: "ok" }> };

/**
 * Completes an upload: the stored bytes must match the declared length and SHA-256 and really be the declared
 * format; only then is the object pinned, and only while the upload is still `initiated` (see pinUpload).
 * On a mismatch the bytes are deleted. A single upload stays open, so the client can PUT the right bytes again;
 * a multipart upload whose parts were assembled into wrong bytes has spent them, so it becomes `failed` with the
 * reason code. A storage failure never reaches the client as storage text: it is a reason code, and the upload
 * stays as it was (retryable).
 */
export async function completeUpload(
  db: Database,
  bucket: R2Bucket,
  inspector: MediaInspector,
  tenantId: string,
  uploadId: string,
  parts: { part_number: number; etag: string }[],
  now = Date.now(),
): Promise<CompleteUploadResult> {
  const upload = await getUpload(db, tenantId, uploadId);
  if (!upload) return { status: "not_found" };
  const settled = settledResult(upload, now);
  if (settled) return settled;

  // Every refusal re-reads the upload: if an abort or another completion settled it meanwhile, that answer wins.
  const refuse = async (result: CompleteUploadResult, failMultipart: boolean): Promise<CompleteUploadResult> => {
    if (failMultipart && upload.mode === "multipart" && "code" in result) await failUpload(db, upload, result.code, now);
    else if (failMultipart && upload.mode === "multipart" && result.status === "media_refused")
      await failUpload(db, upload, INSPECTION_CODES[result.inspection.status], now);
    const after = await getUpload(db, tenantId, uploadId);
    if (after && after.status !== "initiated" && !(failMultipart && after.status === "failed")) return settledResult(after, now) ?? result;
    return result;
  };

  let stored: R2ObjectBody | null = null;
  if (upload.mode === "multipart") {
    const declared = JSON.parse(upload.parts ?? "[]") as { part_number: number }[];
    const numbers = parts.map((p) => p.part_number);
    if (numbers.length !== declared.length || numbers.some((n, i) => n !== i + 1)) {
      return {
        status: "refused",
        code: "svc.uploads.parts_invalid",
        message: "Send every declared part, in order, with the ETag its upload returned.",
      };
    }
    try {
      await bucket
        .resumeMultipartUpload(upload.r2Key, upload.multipartUploadId!)
        .complete(parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })));
    } catch (error) {
      const text = String((error as Error)?.message ?? error);
      log.warn("multipart complete failed", { upload_id: upload.id, storage: text });
      // A concurrent completion may have assembled the parts: then its bytes are checked like ours.
      stored = await bucket.get(upload.r2Key).catch(() => null);
      if (!stored) {
        // R2's "no such multipart upload" (10024): the parts are spent (assembled, then refused; or aborted).
        if (/\b10024\b/.test(text)) return refuse({ status: "refused", code: "svc.uploads.parts_invalid", message: PARTS_SPENT }, true);
        // A part R2 does not know, an ETag that does not match, a part too small: the client can fix and retry.
        if (/\b100(25|11|12|48)\b/.test(text))
          return refuse({ status: "refused", code: "svc.uploads.parts_invalid", message: PARTS_UNKNOWN }, false);
        return { status: "storage_unavailable" };
      }
    }
  }

  stored ??= await bucket.get(upload.r2Key);
  if (!stored) return refuse({ status: "refused", code: "svc.uploads.bytes_missing", message: "No bytes have been uploaded yet." }, false);
  if (stored.size !== upload.byteLength) {
    await stored.body.cancel();
    await bucket.delete(upload.r2Key);
    return refuse(
      { status: "refused", code: "svc.uploads.length_mismatch", message: `Stored ${stored.size} bytes, declared ${upload.byteLength}.` },
      true,
    );
  }
  // Media signed by streaming is checked as a stream (never whole in memory); everything else in memory.
  const format = formatOf(upload.declaredMediaType);
  const streamed =
    format && (format.modality === "audio" || format.modality === "video") && isStreamedUpload(upload.declaredMediaType, stored.size)
      ? await inspectStreamed(stored.body, stored.size, upload.declaredMediaType, format.modality)
      : null;
  const bytes = streamed ? null : new Uint8Array(await stored.arrayBuffer());
  const sha256 = streamed ? streamed.sha256 : hex(await crypto.subtle.digest("SHA-256", bytes!));
  if (sha256 !== upload.sha256) {
    await bucket.delete(upload.r2Key);
    return refuse(
      { status: "refused", code: "svc.uploads.sha256_mismatch", message: `Stored bytes hash to ${sha256}, declared ${upload.sha256}.` },
      true,
    );
  }
  const inspection = streamed ? streamed.inspection : inspector.inspect(bytes!, upload.declaredMediaType);
  if (inspection.status !== "ok") {
    await bucket.delete(upload.r2Key);
    return refuse({ status: "media_refused", inspection }, true);
  }
  const facts: NormalizedInspectionFacts = inspection.facts;
  await pinUpload(
    db,
    upload,
    {
      id: upload.objectId,
      tenantId,
      assetId: upload.assetId,
      role: "source",
      r2Key: upload.r2Key,
      etag: stored.etag,
      byteLength: upload.byteLength,
      sha256,
      mediaType: facts.media_type,
      inspection: JSON.stringify(facts),
      createdAt: now,
    },
    { kind: facts.modality, mediaType: facts.media_type },
    now,
  );
  // Pinned by this call or by a concurrent completion; anything else (aborted meanwhile) answers as it is now.
  const after = (await getUpload(db, tenantId, uploadId))!;
  return settledResult(after, now) ?? { status: "refused", code: "svc.uploads.bytes_missing", message: "No bytes have been uploaded yet." };
}

const PARTS_SPENT =
  "The parts of this multipart upload can no longer be assembled (they were already used or discarded). Create a new upload.";
const PARTS_UNKNOWN =
  "The parts could not be assembled: send every part's ETag exactly as its upload returned it, after every part was uploaded.";

/** Reason codes of a refused media inspection (the complete route answers them). */
export const INSPECTION_CODES = {
  unsupported_media_type: "svc.media.unsupported_type",
  media_type_mismatch: "svc.media.type_mismatch",
  codec_unsupported: "MEDIA_CODEC_UNSUPPORTED",
  corrupt: "svc.media.corrupt",
} as const satisfies Record<Exclude<InspectionResult, { status: "ok" }>["status"], string>;

/** The answer for an upload that is no longer open: completed, failed, or gone (aborted, expired). */
function settledResult(upload: UploadRow, now: number): CompleteUploadResult | null {
  if (upload.status === "completed") return { status: "completed", upload, objectId: upload.objectId };
  if (upload.status === "failed") return { status: "failed", errorCode: upload.errorCode ?? "svc.uploads.parts_invalid" };
  if (!uploadIsOpen(upload, now)) return { status: "gone" };
  return null;
}

export type AbortUploadResult =
  | { status: "aborted" | "expired" | "failed"; upload: UploadRow }
  | { status: "not_found" }
  | { status: "already_completed" };

/**
 * Aborts an initiated upload. The bytes are deleted only by the call that closed the upload: if a completion
 * pinned it first, the abort answers already_completed and the pinned bytes stay.
 */
export async function abortUpload(
  db: Database,
  bucket: R2Bucket,
  tenantId: string,
  uploadId: string,
  now = Date.now(),
): Promise<AbortUploadResult> {
  const upload = await getUpload(db, tenantId, uploadId);
  if (!upload) return { status: "not_found" };
  if (upload.status === "completed") return { status: "already_completed" };
  if (upload.status !== "initiated") return { status: upload.status, upload };
  if (await closeUpload(db, upload, "aborted", now)) await discardBytes(bucket, upload);
  const after = (await getUpload(db, tenantId, uploadId))!;
  if (after.status === "completed") return { status: "already_completed" };
  return { status: after.status as "aborted" | "expired" | "failed", upload: after };
}

async function discardBytes(bucket: R2Bucket, upload: UploadRow) {
  if (upload.multipartUploadId)
    await bucket
      .resumeMultipartUpload(upload.r2Key, upload.multipartUploadId)
      .abort()
      .catch(() => undefined);
  await bucket.delete(upload.r2Key);
}

/**
 * How long after an upload's expiry its URLs are taken as dead: a presigned R2 URL may outlive `expires_at` by
 * up to a second (X-Amz-Expires is at least 1 s), and R2's clock may differ a little from the Worker's.
 */
export const UPLOAD_URL_GRACE_MS = 5 * 60 * 1000;
/** Closed uploads swept per cron run; the rest wait for the next run. */
export const CLOSED_UPLOAD_SWEEP_BATCH = 100;

/**
 * Cron: initiated uploads past their expiry become `expired` and their bytes are removed. Then closed uploads
 * (aborted, expired, failed) whose URLs have expired are swept once (see sweepClosedUploads). Returns how many
 * uploads either step handled.
 */
export async function sweepExpiredUploads(db: Database, bucket: R2Bucket, now = Date.now()): Promise<number> {
  let count = 0;
  for (const upload of await expiredUploads(db, now)) {
    if (await closeUpload(db, upload, "expired", now)) {
      await discardBytes(bucket, upload);
      count++;
    }
  }
  return count + (await sweepClosedUploads(db, bucket, now));
}

/**
 * Why: closing an upload deletes its bytes, but its URLs stay valid until the upload's expiry (a presigned R2 URL
 * cannot be revoked), so a late PUT can create the key again, and a failed multipart abort leaves parts. Once those
 * URLs are dead nothing can write there any more, so one last delete (and multipart abort) per closed upload leaves
 * nothing behind. A key some object row pins is never deleted. Deletes come before the mark, so a run that fails
 * midway leaves the upload for the next run; the mark makes each upload swept once.
 */
export async function sweepClosedUploads(
  db: Database,
  bucket: R2Bucket,
  now = Date.now(),
  limit = CLOSED_UPLOAD_SWEEP_BATCH,
): Promise<number> {
  let count = 0;
  for (const upload of await closedUnsweptUploads(db, now - UPLOAD_URL_GRACE_MS, limit)) {
    if (!(await keyIsPinned(db, upload.r2Key))) await discardBytes(bucket, upload);
    if (await markUploadSwept(db, upload.id, now)) count++;
  }
  return count;
}
