import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Router } from "../app-types";
import { database } from "../db/client";
import { assets, objects, verificationRequests, verifications } from "../db/schema";
import type { Bindings } from "../env";
import { imageServices } from "../media";
import { notFound, principalOf } from "../platform/context";
import { idSchema, newId } from "../platform/ids";
import { errorResponse, IdempotencyKeyHeader, iso, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { ObjectIdSchema } from "../uploads/schemas";
import { ensureC2paEngineLazily, revocationCheck } from "./verify-engines";
import { verifySubject } from "./verify-service";
import { VerificationResultSchema } from "./verify-schemas";
import { resultBody } from "./verify";

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

const StoredVerificationSchema = z
  .object({
    verification_id: idSchema("verification", "Verification id (also the id of its evidence once completed)."),
    state: z.enum(["queued", "running", "completed", "failed"]).openapi({ description: "Durable status; `completed` and `failed` are terminal.", example: "completed" }),
    object_id: ObjectIdSchema,
    evidence_id: z.string().nullable().openapi({ description: "GET /v1/verification-evidence/{evidence_id}; present once completed.", example: "vfy_abcdefghij234567" }),
    result: VerificationResultSchema.nullable().openapi({ description: "The verification result; present only when completed." }),
    error_code: z.string().nullable().openapi({ description: "Why it failed (`svc.verifications.object_unavailable`).", example: null }),
    error_message: z.string().nullable().openapi({ description: "Human-readable reason.", example: null }),
    created_at: Timestamp("When it was accepted."),
    completed_at: Timestamp("When it reached a terminal state.").nullable(),
  })
  .openapi("StoredVerificationResponse");

const createRouteDef = createRoute({
  method: "post",
  path: "/v1/verifications",
  operationId: "createVerification",
  tags: ["Verification"],
  summary: "Verify a stored object",
  description:
    "Accepts an immutable stored object (`aob_`) for asynchronous verification on the jobs queue and answers 202; poll GET /v1/verifications/{verification_id} (first after 1 s, doubling to 30 s). For a file published with a sidecar manifest, send the file's object id: the service finds the stored manifest itself.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: z.object({ object_id: ObjectIdSchema }).openapi("CreateVerificationRequest") } }, required: true },
  },
  responses: { 202: json(StoredVerificationSchema, "Accepted."), ...NOT_FOUND, 409: errorResponse("Idempotency conflict.") },
});

const getRouteDef = createRoute({
  method: "get",
  path: "/v1/verifications/{verification_id}",
  operationId: "getVerification",
  tags: ["Verification"],
  summary: "Stored-object verification status",
  request: { params: z.object({ verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }) }) },
  responses: { 200: json(StoredVerificationSchema, "The durable status."), ...NOT_FOUND },
});

type RequestRow = typeof verificationRequests.$inferSelect;

async function view(db: ReturnType<typeof database>, row: RequestRow) {
  let result: z.infer<typeof VerificationResultSchema> | null = null;
  if (row.state === "completed") {
    const [record] = await db.select().from(verifications).where(and(eq(verifications.tenantId, row.tenantId), eq(verifications.id, row.id))).limit(1);
    const stored = record ? (JSON.parse(record.evidence) as { result?: Omit<z.infer<typeof VerificationResultSchema>, "verification_id"> }).result : undefined;
    if (stored) result = { ...stored, verification_id: row.id };
  }
  return {
    verification_id: row.id,
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

export function registerStoredVerifications(app: Router) {
  app.openapi(createRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const db = database(c.env.DB);
    const { object_id } = c.req.valid("json");
    const [object] = await db.select({ id: objects.id }).from(objects).where(and(eq(objects.tenantId, tenantId), eq(objects.id, object_id))).limit(1);
    if (!object) throw notFound("object");
    const now = Date.now();
    const row: RequestRow = { id: newId("verification"), tenantId, objectId: object_id, state: "queued", errorCode: null, errorMessage: null, attempts: 0, createdAt: now, updatedAt: now, completedAt: null };
    await db.insert(verificationRequests).values(row);
    // A lost message is re-sent by the cron sweep; the row is the truth.
    c.executionCtx.waitUntil(enqueueVerification(c.env, row).catch(() => undefined));
    return c.json(await view(db, row), 202);
  });

  app.openapi(getRouteDef, async (c) => {
    const db = database(c.env.DB);
    const [row] = await db
      .select()
      .from(verificationRequests)
      .where(and(eq(verificationRequests.tenantId, principalOf(c).tenantId), eq(verificationRequests.id, c.req.valid("param").verification_id)))
      .limit(1);
    if (!row) throw notFound("verification");
    return c.json(await view(db, row), 200);
  });
}

async function readObject(env: Bindings, o: { r2Key: string; etag: string }): Promise<Uint8Array | null> {
  const stored = await env.OBJECTS.get(o.r2Key, { onlyIf: { etagMatches: o.etag } });
  if (!stored || !("body" in stored)) return null;
  return new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
}

async function fail(db: ReturnType<typeof database>, id: string, code: string, message: string) {
  const now = Date.now();
  await db
    .update(verificationRequests)
    .set({ state: "failed", errorCode: code, errorMessage: message, updatedAt: now, completedAt: now })
    .where(and(eq(verificationRequests.id, id), inArray(verificationRequests.state, ["queued", "running"])));
}

/**
 * The queue consumer. Idempotent: a terminal request is left alone; the record and the completion are one
 * batch whose record insert is conditional on the request still being open, so a redelivery never writes twice.
 */
export async function runStoredVerification(env: Bindings, tenantId: string, id: string): Promise<void> {
  const db = database(env.DB);
  const [row] = await db.select().from(verificationRequests).where(and(eq(verificationRequests.tenantId, tenantId), eq(verificationRequests.id, id))).limit(1);
  if (!row || row.state === "completed" || row.state === "failed") return;
  if (row.attempts >= MAX_ATTEMPTS) return fail(db, id, "svc.verifications.failed", "The verification could not be completed after several attempts.");
  await db.update(verificationRequests).set({ state: "running", attempts: row.attempts + 1, updatedAt: Date.now() }).where(eq(verificationRequests.id, id));

  const [object] = await db.select().from(objects).where(and(eq(objects.tenantId, tenantId), eq(objects.id, row.objectId))).limit(1);
  const bytes = object ? await readObject(env, object) : null;
  if (!object || !bytes) return fail(db, id, "svc.verifications.object_unavailable", "The object's bytes are no longer stored (deleted by retention, or changed).");

  // A file published with a sidecar: the service finds the stored manifest beside it.
  let manifestStore: Uint8Array | undefined;
  const [published] = await db
    .select({ sidecarObjectId: assets.sidecarObjectId })
    .from(assets)
    .where(and(eq(assets.tenantId, tenantId), eq(assets.publishedObjectId, object.id)))
    .limit(1);
  if (published?.sidecarObjectId) {
    const [sidecar] = await db.select().from(objects).where(and(eq(objects.tenantId, tenantId), eq(objects.id, published.sidecarObjectId))).limit(1);
    manifestStore = (sidecar && (await readObject(env, sidecar))) || undefined;
  }

  const outcome = await verifySubject(
    env,
    { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices().catch(() => null), revocation: revocationCheck(env) },
    { bytes, mediaType: object.mediaType, ...(manifestStore ? { manifestStore } : {}) },
  );
  const body = resultBody(outcome);
  const now = Date.now();
  const open = "EXISTS (SELECT 1 FROM verification_requests WHERE id = ? AND state IN ('queued', 'running'))";
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO verifications (id, tenant_id, subject_type, overall, asset_id, job_id, object_id, policy_version, source_byte_length, source_media_type, validation_path, evidence, status, status_vocabulary_version, manifest_id, created_at, validated_at)
       SELECT ?, ?, 'stored_object', ?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${open}`,
    ).bind(
      id,
      tenantId,
      outcome.overall,
      object.assetId,
      object.id,
      bytes.length,
      object.mediaType,
      outcome.manifest_id ? (manifestStore ? "c2pa.sidecar" : "c2pa.embedded") : outcome.matches.length ? "soft_binding" : null,
      JSON.stringify({ result: body, engine: "c2pa-wasm 0.13.3" }),
      outcome.status,
      outcome.status_vocabulary_version,
      outcome.manifest_id,
      now,
      now,
      id,
    ),
    env.DB.prepare("UPDATE verification_requests SET state = 'completed', updated_at = ?, completed_at = ? WHERE id = ? AND state IN ('queued', 'running')").bind(now, now, id),
  ]);
}

/** Cron: re-send checks whose message was lost or whose consumer died. */
export async function requeueStaleVerifications(env: Bindings, now = Date.now()) {
  const db = database(env.DB);
  const stale = await db
    .select()
    .from(verificationRequests)
    .where(and(inArray(verificationRequests.state, ["queued", "running"]), lt(verificationRequests.updatedAt, now - STALE_VERIFICATION_MS)))
    .limit(100);
  for (const row of stale) await enqueueVerification(env, row);
  if (stale.length > 0) await db.update(verificationRequests).set({ updatedAt: now }).where(inArray(verificationRequests.id, stale.map((r) => r.id)));
  return stale.length;
}
