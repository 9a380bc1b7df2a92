import { and, eq, inArray, notInArray } from "drizzle-orm";
import { formatOf } from "../catalog/formats";
import { database, type Database } from "../db/client";
import { assets, jobs, jobSteps, objects } from "../db/schema";
import type { Bindings } from "../env";
import type { ManifestCheck, ManifestPlan, ManifestReader, Signer } from "../media/types";
import { hex } from "../platform/encoding";
import { newId, randomBase32 } from "../platform/ids";
import type { AdmittedRequest } from "./admission";
import type { JobErrorCode } from "./job-errors";
import { getJob, stepsOf, type JobRow, type JobStepRow } from "./queries";
import { TERMINAL_STATES } from "./schemas";

/*
 * The job runner, driven by the jobs queue (at-least-once delivery). Each step records its completion and
 * output in job_steps and writes its objects under keys derived from (job, step), so a redelivered message
 * resumes after the last finished step. Publication is one D1 batch that only takes effect if the job is still
 * running and not cancelled: the asset is published exactly once, or not at all.
 */

export interface JobServices {
  signer: Signer;
  reader: ManifestReader;
}

export const JOB_MESSAGE = "job.run";

export async function enqueueJob(env: Bindings, job: { id: string; tenantId: string }) {
  await env.JOBS_QUEUE.send({ type: JOB_MESSAGE, job_id: job.id, tenant_id: job.tenantId });
}

interface StoredBlob {
  key: string;
  etag: string;
  sha256: string;
  byte_length: number;
}

interface SignOutput {
  /** The signed asset (embedded lane); null for sidecars, whose asset bytes stay the source object. */
  output: StoredBlob | null;
  manifest: StoredBlob;
  active_manifest_label: string;
}

class StepFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const isTerminal = (state: JobRow["state"]) => (TERMINAL_STATES as readonly string[]).includes(state);

async function put(bucket: R2Bucket, key: string, bytes: Uint8Array, contentType: string): Promise<StoredBlob> {
  const stored = await bucket.put(key, bytes, { httpMetadata: { contentType } });
  return { key, etag: stored!.etag, sha256: hex(await crypto.subtle.digest("SHA-256", bytes)), byte_length: bytes.length };
}

async function read(bucket: R2Bucket, key: string, etag: string): Promise<Uint8Array | null> {
  const stored = await bucket.get(key, { onlyIf: { etagMatches: etag } });
  if (!stored || !("body" in stored)) return null;
  return new Uint8Array(await stored.arrayBuffer());
}

/** Runs (or resumes) one job. Returns when the job is terminal or a transient error was thrown for a retry. */
export async function runJob(env: Bindings, services: JobServices, tenantId: string, jobId: string): Promise<void> {
  const db = database(env.DB);
  let job = await getJob(db, tenantId, jobId);
  if (!job || isTerminal(job.state)) return;
  if (job.cancelRequestedAt !== null) return finishCanceled(db, job);

  await db
    .update(jobs)
    .set({ state: "running", attempts: job.attempts + 1, updatedAt: Date.now() })
    .where(and(eq(jobs.id, job.id), inArray(jobs.state, ["queued", "running"])));

  const steps = (await stepsOf(db, [job.id])).get(job.id) ?? [];
  const admitted = JSON.parse(job.admitted) as AdmittedRequest;
  const [asset] = await db.select().from(assets).where(and(eq(assets.tenantId, tenantId), eq(assets.id, job.assetId))).limit(1);
  const [source] = asset?.sourceObjectId
    ? await db.select().from(objects).where(and(eq(objects.tenantId, tenantId), eq(objects.id, asset.sourceObjectId))).limit(1)
    : [];
  if (!asset || !source) return finishFailed(db, job, null, "svc.jobs.source_unavailable", "The asset's source object is missing.");

  let signed: SignOutput | null = null;
  let signedBytes: Uint8Array | null = null;
  for (const step of steps) {
    if (step.state === "completed") {
      if (step.step === "sign") signed = JSON.parse(step.output!) as SignOutput;
      continue;
    }
    job = (await getJob(db, tenantId, jobId))!;
    if (job.cancelRequestedAt !== null) return finishCanceled(db, job);
    await db.update(jobSteps).set({ state: "running", startedAt: Date.now() }).where(and(eq(jobSteps.jobId, job.id), eq(jobSteps.step, step.step)));
    try {
      switch (step.step) {
        case "inspect": {
          await completeStep(db, job.id, step.step, { media_type: source.mediaType, object_id: source.id });
          break;
        }
        case "sign": {
          const result = await signStep(env, services.signer, job, admitted, asset.filename, source);
          signed = result.output;
          signedBytes = result.bytes;
          await completeStep(db, job.id, step.step, signed);
          break;
        }
        case "publish": {
          if (!signed) throw new StepFailure("svc.jobs.step_unavailable", "Nothing to publish: the recipe signs nothing.");
          return await publishStep(env, db, services.reader, job, source, signed, signedBytes);
        }
        default:
          throw new StepFailure("svc.jobs.step_unavailable", `The ${step.step} step is not installed in this deployment.`);
      }
    } catch (error) {
      if (error instanceof StepFailure) return finishFailed(db, job, step, error.code, error.message);
      throw error; // transient: the queue retries the message and the job resumes here
    }
  }
}

async function completeStep(db: Database, jobId: string, step: string, output: unknown) {
  await db.batch([
    db.update(jobSteps).set({ state: "completed", completedAt: Date.now(), output: JSON.stringify(output) }).where(and(eq(jobSteps.jobId, jobId), eq(jobSteps.step, step))),
    db.update(jobs).set({ updatedAt: Date.now() }).where(eq(jobs.id, jobId)),
  ]);
}

async function signStep(
  env: Bindings,
  signer: Signer,
  job: JobRow,
  admitted: AdmittedRequest,
  filename: string | null,
  source: typeof objects.$inferSelect,
): Promise<{ output: SignOutput; bytes: Uint8Array | null }> {
  const bytes = await read(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const format = formatOf(source.mediaType)!;
  const plan: ManifestPlan = {
    title: filename ?? `${job.assetId}.${format.extension}`,
    media_type: source.mediaType,
    intent: admitted.ai_declaration ? { kind: "created", digital_source_type: admitted.ai_declaration.digital_source_type } : { kind: "opened" },
    assertions: [],
    creator: null,
  };
  const sidecar = format.lane === "sidecar";
  const result = sidecar ? await signer.signSidecar({ bytes, plan }) : await signer.signEmbedded({ bytes, plan });
  if (result.status === "unsupported_media_type") throw new StepFailure("svc.jobs.media_unsupported", result.message);
  if (result.status === "failed") {
    // The engine's own text is internal (Rust error names); the customer gets a stable explanation.
    console.warn(JSON.stringify({ level: "warn", job_id: job.id, problem: "signing failed", engine: result.message }));
    throw new StepFailure("svc.jobs.sign_failed", "The C2PA engine could not sign this file: it is malformed or uses a structure the engine does not support.");
  }
  const base = `t/${job.tenantId}/jobs/${job.id}/sign`;
  const manifest = await put(env.OBJECTS, `${base}/manifest.c2pa`, result.manifest_store, "application/c2pa");
  const output = sidecar ? null : await put(env.OBJECTS, `${base}/output`, result.bytes, source.mediaType);
  return { output: { output, manifest, active_manifest_label: result.active_manifest_label }, bytes: sidecar ? null : result.bytes };
}

async function publishStep(
  env: Bindings,
  db: Database,
  reader: ManifestReader,
  job: JobRow,
  source: typeof objects.$inferSelect,
  signed: SignOutput,
  signedBytes: Uint8Array | null,
): Promise<void> {
  const format = formatOf(source.mediaType)!;
  const sidecar = signed.output === null;
  // Check our own output with the reference engine before anything is published.
  const assetBytes = sidecar ? await read(env.OBJECTS, source.r2Key, source.etag) : (signedBytes ?? (await read(env.OBJECTS, signed.output!.key, signed.output!.etag)));
  const manifestStore = sidecar ? await read(env.OBJECTS, signed.manifest.key, signed.manifest.etag) : undefined;
  if (!assetBytes || manifestStore === null) throw new Error("signed output not readable yet"); // transient
  const verdict = await reader.read({ bytes: assetBytes, mediaType: source.mediaType, ...(manifestStore ? { manifestStore } : {}) });
  if (verdict.status !== "read" || verdict.check.validation_state === "Invalid" || verdict.check.failure_codes.length > 0) {
    const why = verdict.status === "read" ? verdict.check.failure_codes.join(", ") || verdict.check.validation_state : verdict.status;
    return finishFailed(db, job, { step: "publish" }, "svc.jobs.output_invalid", `The signed output did not validate: ${why}.`);
  }
  await publish(env.DB, job, source, signed, verdict.check, format.extension);
  const after = (await getJob(db, job.tenantId, job.id))!;
  if (after.state !== "completed" && !isTerminal(after.state) && after.cancelRequestedAt !== null) await finishCanceled(db, after);
}

/**
 * The publication batch. Every statement after the first takes effect only if the first moved the job to
 * completed with this attempt's publication id, and D1 runs the batch as one transaction.
 */
async function publish(d1: D1Database, job: JobRow, source: typeof objects.$inferSelect, signed: SignOutput, check: ManifestCheck, extension: string) {
  const now = Date.now();
  const publicationId = `pub_${randomBase32(16)}`;
  const receiptId = newId("receipt");
  const verificationId = newId("verification");
  const sidecar = signed.output === null;
  const outputObjectId = sidecar ? source.id : newId("object");
  const sidecarObjectId = sidecar ? newId("object") : null;
  const filename = `${job.assetId}.${extension}`;
  const retentionDays = (JSON.parse(job.admitted) as AdmittedRequest).output_retention_days;
  const retentionUntil = retentionDays === null || retentionDays === undefined ? null : now + retentionDays * 86_400_000;
  const ours = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND publication_id = ?)";
  const evidence = {
    variant: sidecar ? "sidecar_signing" : "signing",
    output: { object_id: outputObjectId, media_type: source.mediaType, sha256: sidecar ? source.sha256 : signed.output!.sha256, byte_length: sidecar ? source.byteLength : signed.output!.byte_length },
    source: { object_id: source.id, sha256: source.sha256, byte_length: source.byteLength },
    sidecar_manifest: sidecar ? { object_id: sidecarObjectId, sha256: signed.manifest.sha256, byte_length: signed.manifest.byte_length } : null,
    manifest: { active_manifest_label: signed.active_manifest_label, validation_state: check.validation_state },
    recipe: { recipe_id: job.recipeId, version: job.recipeVersion },
    publication_id: publicationId,
    verification_id: verificationId,
    published_at: new Date(now).toISOString(),
  };
  const insertObject = (id: string, role: string, blob: StoredBlob, mediaType: string, name: string) =>
    d1
      .prepare(
        `INSERT INTO objects (id, tenant_id, asset_id, role, r2_key, etag, byte_length, sha256, media_type, filename, inspection, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ? WHERE ${ours}`,
      )
      .bind(id, job.tenantId, job.assetId, role, blob.key, blob.etag, blob.byte_length, blob.sha256, mediaType, name, now, job.id, publicationId);

  const statements: D1PreparedStatement[] = [
    d1
      .prepare(
        `UPDATE jobs SET state = 'completed', publication_id = ?, receipt_id = ?, verification_id = ?, terminal_at = ?, updated_at = ?
         WHERE id = ? AND state = 'running' AND cancel_requested_at IS NULL AND publication_id IS NULL`,
      )
      .bind(publicationId, receiptId, verificationId, now, now, job.id),
    sidecar
      ? insertObject(sidecarObjectId!, "sidecar_manifest", signed.manifest, "application/c2pa", `${filename}.c2pa`)
      : insertObject(outputObjectId, "signed_output", signed.output!, source.mediaType, filename),
    d1
      .prepare(
        `UPDATE assets SET status = 'published', publication_id = ?, published_object_id = ?, sidecar_object_id = ?, published_job_id = ?,
           published_recipe_id = ?, published_at = ?, manifest_label = ?, retention_until = ?, updated_at = ?
         WHERE id = ? AND publication_id IS NULL AND ${ours}`,
      )
      .bind(publicationId, outputObjectId, sidecarObjectId, job.id, job.recipeId, now, signed.active_manifest_label, retentionUntil, now, job.assetId, job.id, publicationId),
    d1
      .prepare(`INSERT INTO receipts (id, tenant_id, asset_id, job_id, evidence, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${ours}`)
      .bind(receiptId, job.tenantId, job.assetId, job.id, JSON.stringify(evidence), now, job.id, publicationId),
    d1
      .prepare(
        `INSERT INTO verifications (id, tenant_id, subject_type, overall, asset_id, job_id, object_id, policy_version, source_byte_length, source_media_type, validation_path, evidence, created_at, validated_at)
         SELECT ?, ?, 'asset', 'valid', ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ours}`,
      )
      .bind(
        verificationId,
        job.tenantId,
        job.assetId,
        job.id,
        outputObjectId,
        job.policyVersion,
        evidence.output.byte_length,
        source.mediaType,
        sidecar ? "c2pa.sidecar" : "c2pa.embedded",
        JSON.stringify({ check, checked_at: new Date(now).toISOString(), engine: "c2pa-wasm 0.13.3" }),
        now,
        now,
        job.id,
        publicationId,
      ),
    d1
      .prepare(`UPDATE job_steps SET state = 'completed', completed_at = ?, output = ? WHERE job_id = ? AND step = 'publish' AND ${ours}`)
      .bind(now, JSON.stringify({ publication_id: publicationId }), job.id, job.id, publicationId),
  ];
  await d1.batch(statements);
}

async function finishFailed(db: Database, job: JobRow, step: Pick<JobStepRow, "step"> | null, code: JobErrorCode, message: string) {
  const now = Date.now();
  await db.batch([
    db
      .update(jobs)
      .set({ state: "failed", errorCode: code, errorMessage: message, terminalAt: now, updatedAt: now })
      .where(and(eq(jobs.id, job.id), notInArray(jobs.state, [...TERMINAL_STATES]))),
    ...(step ? [db.update(jobSteps).set({ state: "failed", completedAt: now, errorCode: code }).where(and(eq(jobSteps.jobId, job.id), eq(jobSteps.step, step.step)))] : []),
    db.update(assets).set({ status: "failed", updatedAt: now }).where(and(eq(assets.id, job.assetId), eq(assets.status, "processing"))),
  ]);
}

export async function finishCanceled(db: Database, job: JobRow) {
  const now = Date.now();
  await db.batch([
    db
      .update(jobs)
      .set({ state: "canceled", terminalAt: now, updatedAt: now })
      .where(and(eq(jobs.id, job.id), notInArray(jobs.state, [...TERMINAL_STATES]))),
    db.update(jobSteps).set({ state: "skipped" }).where(and(eq(jobSteps.jobId, job.id), inArray(jobSteps.state, ["pending", "running"]))),
    db.update(assets).set({ status: "uploaded", updatedAt: now }).where(and(eq(assets.id, job.assetId), eq(assets.status, "processing"))),
  ]);
}
