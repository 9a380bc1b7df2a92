import type { z } from "@hono/zod-openapi";
import { objectOf } from "../assets/repo";
import { type Database, database } from "../db/client";
import type { Bindings } from "../env";
import { audioServices, imageServices } from "../media";
import type { ManifestCheck } from "../media/types";
import { ApiError, ERROR_CODES } from "../platform/errors";
import { iso } from "../platform/openapi";
import {
  completeRequest,
  failOpenRequest,
  findRequest,
  findVerification,
  markRequestRunning,
  publishedSidecarOf,
  type RequestRow,
  staleRequests,
  touchRequests,
  type VerificationRow,
} from "./repo";
import type { VerificationResultSchema } from "./schemas";
import { decideVerdict } from "./verdict";
import { ensureC2paEngineLazily, revocationCheck } from "./verify-engines";
import { verifyStoredObject } from "./verify-streamed";
import { recordedOutcome, resultBody } from "./verify-subject";

/*
 * Stored-object verification (SPEC "Stored-object verification"): the caller names an immutable object; the
 * check runs on the jobs queue (at least once, idempotent) and its durable status is readable at once. The id is
 * also the id of the verification record (the evidence) a completed check writes, in the same D1 batch that
 * completes the request.
 */

export const VERIFICATION_MESSAGE = "verification.run";
/** A queued or running check untouched for this long lost its message or its consumer: send it again. */
export const STALE_VERIFICATION_MS = 2 * 60 * 1000;
const MAX_ATTEMPTS = 5;

type RecordRow = VerificationRow;
type Result = z.infer<typeof VerificationResultSchema>;

/**
 * The result of a verification record: as answered (verify calls, stored-object checks), or, for a job's
 * publication-time check, the verdict of the engine codes it recorded (null for a watermark-only publication).
 */
function resultOf(record: RecordRow): Result | null {
  const evidence = JSON.parse(record.evidence) as { result?: Omit<Result, "verification_id">; check?: ManifestCheck | null };
  if (evidence.result)
    return { ...evidence.result, related_publications: evidence.result.related_publications ?? [], verification_id: record.id };
  const check = evidence.check;
  if (!check?.active_manifest_label) return null;
  const verdict = decideVerdict({
    manifest: { state: "read", ...check, active_manifest_label: check.active_manifest_label, ingredient_failure_codes: [] },
    ocsp: "not_checked",
    durable: { watermark: null, fingerprint: null },
    anchor_match: null,
    warnings: [
      "A publication-time check of the signed output: the reference engine's codes only (revocation, watermark, fingerprints and the anchor log were not part of it).",
    ],
  });
  const { overall: _overall, related: _related, ...rest } = verdict;
  return {
    ...rest,
    related_publications: [],
    claims: null,
    manifest_id: check.active_manifest_label,
    signer: null,
    media_type: record.sourceMediaType ?? "application/octet-stream",
    verification_id: record.id,
  };
}

/** A verification record made synchronously (verify call, publication check): completed from the start. */
export function recordView(record: RecordRow) {
  return {
    verification_id: record.id,
    subject_type: record.subjectType,
    state: "completed" as const,
    object_id: record.objectId,
    evidence_id: record.id,
    result: resultOf(record),
    error_code: null,
    error_message: null,
    created_at: iso(record.createdAt),
    completed_at: iso(record.validatedAt),
  };
}

export async function view(db: Database, row: RequestRow) {
  let result: Result | null = null;
  if (row.state === "completed") {
    const record = await findVerification(db, row.tenantId, row.id);
    if (record) result = resultOf(record);
  }
  return {
    verification_id: row.id,
    subject_type: "stored_object" as const,
    state: row.state,
    object_id: row.objectId,
    evidence_id: row.state === "completed" ? row.id : null,
    result,
    error_code: row.errorCode,
    error_message: row.errorMessage,
    created_at: iso(row.createdAt),
    completed_at: row.completedAt === null ? null : iso(row.completedAt),
  };
}

export async function enqueueVerification(env: Bindings, row: { id: string; tenantId: string }) {
  await env.JOBS_QUEUE.send({ type: VERIFICATION_MESSAGE, verification_id: row.id, tenant_id: row.tenantId });
}

async function readObject(env: Bindings, o: { r2Key: string; etag: string }): Promise<Uint8Array | null> {
  const stored = await env.OBJECTS.get(o.r2Key, { onlyIf: { etagMatches: o.etag } });
  if (!stored || !("body" in stored)) return null;
  return new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
}

function fail(db: Database, id: string, code: string, message: string) {
  return failOpenRequest(db, id, code, message, Date.now());
}

/**
 * The queue consumer. Idempotent: a terminal request is left alone; the record and the completion are one
 * batch whose record insert is conditional on the request still being open, so a redelivery never writes twice.
 */
export async function runStoredVerification(env: Bindings, tenantId: string, id: string): Promise<void> {
  const db = database(env.DB);
  const row = await findRequest(db, tenantId, id);
  if (!row || row.state === "completed" || row.state === "failed") return;
  if (row.attempts >= MAX_ATTEMPTS)
    return fail(db, id, "svc.verifications.failed", "The verification could not be completed after several attempts.");
  await markRequestRunning(db, id, row.attempts + 1, Date.now());

  const object = await objectOf(db, tenantId, row.objectId);
  const unavailable = () =>
    fail(db, id, "svc.verifications.object_unavailable", "The object's bytes are no longer stored (deleted by retention, or changed).");
  if (!object) return unavailable();

  // A file published with a sidecar: the service finds the stored manifest beside it.
  let manifestStore: Uint8Array | undefined;
  const published = await publishedSidecarOf(db, tenantId, object.id);
  if (published?.sidecarObjectId) {
    const sidecar = await objectOf(db, tenantId, published.sidecarObjectId);
    manifestStore = (sidecar && (await readObject(env, sidecar))) || undefined;
  }

  // Whole, or by streaming for a large MP4/MOV/M4A or WAV (verify-streamed.ts); the size limits are checked there
  // (also when the request was accepted: a request queued before that check must not exhaust memory either).
  let verified: Awaited<ReturnType<typeof verifyStoredObject>>;
  try {
    verified = await verifyStoredObject(
      env,
      {
        ensureEngine: await ensureC2paEngineLazily(),
        image: await imageServices().catch(() => null),
        audio: audioServices,
        revocation: revocationCheck(env),
      },
      object,
      manifestStore,
    );
  } catch (error) {
    // A refusal (e.g. by size: the engine's read limit) fails the request at once: a retry would be refused the same.
    // A retryable answer (a dependency down: 503) and anything else is retried; the stream's checks return findings,
    // they do not throw on hostile bytes.
    if (error instanceof ApiError && !ERROR_CODES[error.code].retryable) return fail(db, id, error.code, error.message);
    throw error;
  }
  if (verified.status === "unavailable") return unavailable();
  const { outcome } = verified;
  const body = resultBody(outcome);
  const now = Date.now();
  await completeRequest(env.DB, {
    id,
    tenantId,
    assetId: object.assetId,
    objectId: object.id,
    sourceByteLength: verified.byteLength,
    sourceMediaType: object.mediaType,
    ...recordedOutcome(outcome, body, manifestStore !== undefined),
    now,
  });
}

/** Cron: re-send checks whose message was lost or whose consumer died. */
export async function requeueStaleVerifications(env: Bindings, now = Date.now()) {
  const db = database(env.DB);
  const stale = await staleRequests(db, now - STALE_VERIFICATION_MS);
  for (const row of stale) await enqueueVerification(env, row);
  if (stale.length > 0)
    await touchRequests(
      db,
      stale.map((r) => r.id),
      now,
    );
  return stale.length;
}
