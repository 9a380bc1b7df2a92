import { and, eq, inArray, isNull, lt, notInArray, or } from "drizzle-orm";
import { anchorEntryStatement } from "../anchoring/log";
import { formatOf } from "../catalog/formats";
import { type Database, database } from "../db/client";
import { assets, jobSteps, jobs, objects } from "../db/schema";
import type { Bindings } from "../env";
import { softBindingAssertions } from "../media/soft-binding";
import type { ImageServices, ManifestCheck, ManifestPlan, ManifestReader, RgbaImage, Signer, WatermarkStrength } from "../media/types";
import { fromHex, hex } from "../platform/bytes";
import { newId, randomBase32 } from "../platform/ids";
import { PDQ_MIN_QUALITY, pdqBandStatements } from "../soft-bindings/repo";
import { sendFanout } from "../webhooks/delivery";
import { jobEndedEventStatement, publicationEventStatements } from "../webhooks/events";
import type { AdmittedRequest } from "./admission";
import { type JobErrorCode, REJECTING_CODES } from "./job-errors";
import { getJob, type JobRow, type JobStepRow, stepsOf } from "./queries";
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
  /** Null where the image pipeline is not installed (then recipes that need it are unavailable). */
  image: ImageServices | null;
}

export const JOB_MESSAGE = "job.run";

/**
 * How long a run holds its job without news (each finished step renews it). A job still `running` past its
 * lease lost its runner (the isolate crashed, or the queue gave its message up): the cron sweep takes it back.
 */
export const JOB_LEASE_MS = 15 * 60 * 1000;
/** Runs a job may start; at the next start, or when the sweep finds its lease lapsed, it fails (attempts_exhausted). */
export const MAX_JOB_ATTEMPTS = 6;
/** An accepted or queued job not started within this long after admission expires instead of running. */
export const JOB_START_DEADLINE_MS = 24 * 60 * 60 * 1000;

export async function enqueueJob(env: Bindings, job: { id: string; tenantId: string }, options: { delaySeconds?: number } = {}) {
  await env.JOBS_QUEUE.send({ type: JOB_MESSAGE, job_id: job.id, tenant_id: job.tenantId }, options);
}

/**
 * Hands an admitted job to the queue: `accepted` becomes `queued` once its message is sent. A failed send
 * leaves it `accepted` and the cron sweep sends it. Returns the job as it now is (a fast consumer may already run it).
 */
export async function handOver(env: Bindings, job: JobRow): Promise<JobRow> {
  try {
    await enqueueJob(env, job);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", job_id: job.id, problem: "enqueue failed; the sweep sends it", error: String(error) }));
    return job;
  }
  const db = database(env.DB);
  const now = Date.now();
  const moved = await db
    .update(jobs)
    .set({ state: "queued", updatedAt: now })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, "accepted")))
    .returning({ id: jobs.id });
  if (moved.length === 1) return { ...job, state: "queued", updatedAt: now };
  return (await getJob(db, job.tenantId, job.id)) ?? job;
}

interface StoredBlob {
  key: string;
  etag: string;
  sha256: string;
  byte_length: number;
}

interface WatermarkOutput {
  output: StoredBlob;
  algorithm: string;
  strength: WatermarkStrength;
  /** The 64-bit payload as 16 hex digits: the id the soft-binding index maps back to this publication. */
  payload: string;
  psnr_db: number;
  width: number;
  height: number;
}

interface FingerprintOutput {
  fingerprints: { algorithm: string; value: string; bits: string; quality: number | null }[];
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
  const job = await getJob(db, tenantId, jobId);
  if (!job || isTerminal(job.state)) return;
  if (job.cancelRequestedAt !== null) return finishCanceled(db, job);
  // A job whose runs keep dying (a crash, the CPU or memory limit) is never retried forever.
  if (job.attempts >= MAX_JOB_ATTEMPTS)
    return finishJob(env, job, null, "failed", "svc.jobs.attempts_exhausted", attemptsExhaustedMessage(job.attempts));
  if (job.attempts === 0 && Date.now() - job.createdAt > JOB_START_DEADLINE_MS)
    return finishJob(env, job, null, "expired", "svc.jobs.expired", startDeadlineMessage());

  const started = Date.now();
  // Take the job: only one runner holds a live lease. A duplicate message (a redelivery, the sweep, express mode's
  // safety net) for a job another runner holds is dropped without spending an attempt; if that runner dies, the
  // sweep re-queues the job when its lease lapses.
  const taken = await db
    .update(jobs)
    .set({ state: "running", attempts: job.attempts + 1, leaseExpiresAt: started + JOB_LEASE_MS, updatedAt: started })
    .where(
      and(
        eq(jobs.id, job.id),
        eq(jobs.attempts, job.attempts),
        or(
          inArray(jobs.state, ["accepted", "queued"]),
          and(eq(jobs.state, "running"), or(isNull(jobs.leaseExpiresAt), lt(jobs.leaseExpiresAt, started))),
        ),
      ),
    )
    .returning({ id: jobs.id });
  if (taken.length === 0) return;
  try {
    return await runTakenJob(env, services, tenantId, job);
  } catch (error) {
    // A transient failure is retried by the queue: give the lease back so the retry may take the job at once.
    await db
      .update(jobs)
      .set({ leaseExpiresAt: Date.now() })
      .where(and(eq(jobs.id, job.id), eq(jobs.state, "running")))
      .catch(() => undefined);
    throw error;
  }
}

/** The body of a run, once this runner holds the job's lease. */
async function runTakenJob(env: Bindings, services: JobServices, tenantId: string, taken: JobRow): Promise<void> {
  const db = database(env.DB);
  let job = taken;
  const steps = (await stepsOf(db, [job.id])).get(job.id) ?? [];
  const admitted = JSON.parse(job.admitted) as AdmittedRequest;
  const [asset] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.tenantId, tenantId), eq(assets.id, job.assetId)))
    .limit(1);
  const [source] = asset?.sourceObjectId
    ? await db
        .select()
        .from(objects)
        .where(and(eq(objects.tenantId, tenantId), eq(objects.id, asset.sourceObjectId)))
        .limit(1)
    : [];
  if (!asset || !source) return finishJob(env, job, null, "failed", "svc.jobs.source_unavailable", "The asset's source object is missing.");

  let signed: SignOutput | null = null;
  let signedBytes: Uint8Array | null = null;
  let watermarked: WatermarkOutput | null = null;
  let fingerprinted: FingerprintOutput | null = null;
  // The published pixels, when this run already decoded them (the watermark step's read-back).
  let pixels: RgbaImage | null = null;
  for (const step of steps) {
    if (step.state === "completed") {
      if (step.step === "sign") signed = JSON.parse(step.output!) as SignOutput;
      if (step.step === "watermark") watermarked = JSON.parse(step.output!) as WatermarkOutput;
      if (step.step === "fingerprint") fingerprinted = JSON.parse(step.output!) as FingerprintOutput;
      continue;
    }
    job = (await getJob(db, tenantId, taken.id))!;
    if (job.cancelRequestedAt !== null) return finishCanceled(db, job);
    await db
      .update(jobSteps)
      .set({ state: "running", startedAt: Date.now() })
      .where(and(eq(jobSteps.jobId, job.id), eq(jobSteps.step, step.step)));
    try {
      switch (step.step) {
        case "inspect": {
          await completeStep(db, job.id, step.step, { media_type: source.mediaType, object_id: source.id });
          break;
        }
        case "watermark": {
          const result = await watermarkStep(env, imageServices(services), job, admitted, source);
          watermarked = result.output;
          pixels = result.pixels;
          await completeStep(db, job.id, step.step, watermarked);
          break;
        }
        case "fingerprint": {
          pixels ??= await decodePublished(env, imageServices(services), source, watermarked);
          fingerprinted = fingerprintStep(imageServices(services), admitted, pixels);
          pixels = null;
          await completeStep(db, job.id, step.step, fingerprinted);
          break;
        }
        case "sign": {
          pixels = null; // nothing after this needs the pixels: free them before the engine's copy
          const result = await signStep(env, services.signer, job, admitted, asset.filename, source, watermarked, fingerprinted);
          signed = result.output;
          signedBytes = result.bytes;
          await completeStep(db, job.id, step.step, signed);
          break;
        }
        case "publish": {
          const durable: DurableCredentials = { watermark: watermarked, fingerprints: fingerprinted };
          if (signed) return await publishStep(env, db, services.reader, job, source, signed, signedBytes, durable);
          if (watermarked) return await publishUnsigned(env, job, source, watermarked, durable);
          throw new StepFailure("svc.jobs.step_unavailable", "Nothing to publish: the recipe neither signs nor watermarks.");
        }
        default:
          throw new StepFailure("svc.jobs.step_unavailable", `The ${step.step} step is not installed in this deployment.`);
      }
    } catch (error) {
      if (error instanceof StepFailure)
        return finishJob(env, job, step, REJECTING_CODES.has(error.code) ? "rejected" : "failed", error.code, error.message);
      throw error; // transient: the queue retries the message and the job resumes here
    }
  }
}

async function completeStep(db: Database, jobId: string, step: string, output: unknown) {
  await db.batch([
    db
      .update(jobSteps)
      .set({ state: "completed", completedAt: Date.now(), output: JSON.stringify(output) })
      .where(and(eq(jobSteps.jobId, jobId), eq(jobSteps.step, step))),
    // A finished step is news: the lease is renewed.
    db
      .update(jobs)
      .set({ updatedAt: Date.now(), leaseExpiresAt: Date.now() + JOB_LEASE_MS })
      .where(and(eq(jobs.id, jobId), eq(jobs.state, "running"))),
  ]);
}

async function signStep(
  env: Bindings,
  signer: Signer,
  job: JobRow,
  admitted: AdmittedRequest,
  filename: string | null,
  source: typeof objects.$inferSelect,
  watermarked: WatermarkOutput | null,
  fingerprinted: FingerprintOutput | null,
): Promise<{ output: SignOutput; bytes: Uint8Array | null }> {
  // A watermark recipe signs the watermarked bytes; every other recipe signs the upload itself.
  const bytes = watermarked
    ? await read(env.OBJECTS, watermarked.output.key, watermarked.output.etag)
    : await read(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const format = formatOf(source.mediaType)!;
  const plan: ManifestPlan = {
    // The customer's filename, else a neutral one: the manifest is public (the resolution API serves it), ids are not.
    title: filename ?? `untitled.${format.extension}`,
    media_type: source.mediaType,
    intent: admitted.ai_declaration
      ? { kind: "created", digital_source_type: admitted.ai_declaration.digital_source_type }
      : { kind: "opened" },
    assertions: softBindingAssertions([
      ...(watermarked ? [{ algorithm: watermarked.algorithm, bits: fromHex(watermarked.payload) }] : []),
      ...(fingerprinted?.fingerprints ?? []).map((f) => ({ algorithm: f.algorithm, bits: fromHex(f.bits) })),
    ]),
    creator: null,
  };
  const sidecar = format.lane === "sidecar";
  const result = sidecar ? await signer.signSidecar({ bytes, plan }) : await signer.signEmbedded({ bytes, plan });
  if (result.status === "unsupported_media_type") throw new StepFailure("svc.jobs.media_unsupported", result.message);
  if (result.status === "failed") {
    // The engine's own text is internal (Rust error names); the customer gets a stable explanation.
    console.warn(JSON.stringify({ level: "warn", job_id: job.id, problem: "signing failed", engine: result.message }));
    throw new StepFailure(
      "svc.jobs.sign_failed",
      "The C2PA engine could not sign this file: it is malformed or uses a structure the engine does not support.",
    );
  }
  const base = `t/${job.tenantId}/jobs/${job.id}/sign`;
  const manifest = await put(env.OBJECTS, `${base}/manifest.c2pa`, result.manifest_store, "application/c2pa");
  const output = sidecar ? null : await put(env.OBJECTS, `${base}/output`, result.bytes, source.mediaType);
  return { output: { output, manifest, active_manifest_label: result.active_manifest_label }, bytes: sidecar ? null : result.bytes };
}

interface DurableCredentials {
  watermark: WatermarkOutput | null;
  fingerprints: FingerprintOutput | null;
}

function imageServices(services: JobServices): ImageServices {
  if (!services.image) throw new StepFailure("svc.jobs.step_unavailable", "The image pipeline is not installed in this deployment.");
  return services.image;
}

async function decodeOrFail(image: ImageServices, bytes: Uint8Array, mediaType: string): Promise<RgbaImage> {
  const decoded = await image.codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") throw new StepFailure("svc.jobs.decode_failed", decoded.message);
  return decoded.image;
}

/** The pixels that will be published: the watermarked output when there is one, else the upload. */
async function decodePublished(
  env: Bindings,
  image: ImageServices,
  source: typeof objects.$inferSelect,
  watermarked: WatermarkOutput | null,
): Promise<RgbaImage> {
  const blob = watermarked ? watermarked.output : { key: source.r2Key, etag: source.etag };
  const bytes = await read(env.OBJECTS, blob.key, blob.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The bytes to fingerprint could not be read back unchanged.");
  return decodeOrFail(image, bytes, source.mediaType);
}

/**
 * Embeds a fresh random 64-bit payload, re-encodes in the upload's format, and reads the mark back from the
 * encoded bytes before anything is stored: an output whose mark did not survive its own encoding is a failure,
 * never published. Returns the decoded read-back pixels for the fingerprint step.
 */
async function watermarkStep(
  env: Bindings,
  image: ImageServices,
  job: JobRow,
  admitted: AdmittedRequest,
  source: typeof objects.$inferSelect,
): Promise<{ output: WatermarkOutput; pixels: RgbaImage }> {
  const algorithm = admitted.watermark_algorithm;
  if (algorithm !== image.watermarker.algorithm)
    throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} watermark is not installed in this deployment.`);
  const strength = admitted.watermark_strength ?? "balanced";
  const bytes = await read(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const payload = crypto.getRandomValues(new Uint8Array(8));
  let encoded: Uint8Array;
  let psnr: number;
  {
    const original = await decodeOrFail(image, bytes, source.mediaType);
    const marked = image.watermarker.embed({ image: original, payload, strength });
    if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
    psnr = marked.psnr_db;
    const out = await image.codec.encode(marked.image, source.mediaType, bytes);
    if (out.status !== "encoded") throw new StepFailure("svc.jobs.watermark_failed", out.message);
    encoded = out.bytes;
  } // the original and marked pixels go out of scope before the read-back decode
  const readBack = await decodeOrFail(image, encoded, source.mediaType);
  const detected = image.watermarker.detect(readBack);
  if (detected.status !== "detected" || hex(detected.payload) !== hex(payload)) {
    throw new StepFailure("svc.jobs.watermark_failed", "The watermark did not read back from the encoded output; nothing was published.");
  }
  const stored = await put(env.OBJECTS, `t/${job.tenantId}/jobs/${job.id}/watermark/output`, encoded, source.mediaType);
  return {
    output: {
      output: stored,
      algorithm,
      strength,
      payload: hex(payload),
      psnr_db: Math.round(psnr * 100) / 100,
      width: readBack.width,
      height: readBack.height,
    },
    pixels: readBack,
  };
}

function fingerprintStep(image: ImageServices, admitted: AdmittedRequest, pixels: RgbaImage): FingerprintOutput {
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  for (const algorithm of admitted.fingerprint_algorithms) {
    const fingerprinter = image.fingerprinters.get(algorithm);
    if (!fingerprinter)
      throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
    const result = fingerprinter.compute(pixels);
    if (result.status !== "computed") throw new StepFailure("svc.jobs.fingerprint_failed", result.message);
    fingerprints.push({ algorithm, value: result.value, bits: hex(result.bits), quality: result.quality });
  }
  return { fingerprints };
}

async function publishStep(
  env: Bindings,
  db: Database,
  reader: ManifestReader,
  job: JobRow,
  source: typeof objects.$inferSelect,
  signed: SignOutput,
  signedBytes: Uint8Array | null,
  durable: DurableCredentials,
): Promise<void> {
  const sidecar = signed.output === null;
  // Check our own output with the reference engine before anything is published.
  const assetBytes = sidecar
    ? await read(env.OBJECTS, source.r2Key, source.etag)
    : (signedBytes ?? (await read(env.OBJECTS, signed.output!.key, signed.output!.etag)));
  const manifestStore = sidecar ? await read(env.OBJECTS, signed.manifest.key, signed.manifest.etag) : undefined;
  if (!assetBytes || manifestStore === null) throw new Error("signed output not readable yet"); // transient
  const verdict = await reader.read({ bytes: assetBytes, mediaType: source.mediaType, ...(manifestStore ? { manifestStore } : {}) });
  if (verdict.status !== "read" || verdict.check.validation_state === "Invalid" || verdict.check.failure_codes.length > 0) {
    const why = verdict.status === "read" ? verdict.check.failure_codes.join(", ") || verdict.check.validation_state : verdict.status;
    return finishJob(env, job, { step: "publish" }, "failed", "svc.jobs.output_invalid", `The signed output did not validate: ${why}.`);
  }
  await publish(env, job, source, {
    output: signed.output,
    sidecarManifest: sidecar ? signed.manifest : null,
    manifestSha256: signed.manifest.sha256,
    manifestLabel: signed.active_manifest_label,
    check: verdict.check,
    durable,
  });
  const after = (await getJob(db, job.tenantId, job.id))!;
  if (after.state !== "completed" && !isTerminal(after.state) && after.cancelRequestedAt !== null) await finishCanceled(db, after);
}

/** Watermark-only recipes: the watermarked output (its mark already read back) is published without a manifest. */
async function publishUnsigned(
  env: Bindings,
  job: JobRow,
  source: typeof objects.$inferSelect,
  watermarked: WatermarkOutput,
  durable: DurableCredentials,
) {
  await publish(env, job, source, {
    output: watermarked.output,
    sidecarManifest: null,
    manifestSha256: null,
    manifestLabel: null,
    check: null,
    durable,
  });
  const db = database(env.DB);
  const after = (await getJob(db, job.tenantId, job.id))!;
  if (after.state !== "completed" && !isTerminal(after.state) && after.cancelRequestedAt !== null) await finishCanceled(db, after);
}

interface PublicationPlan {
  /** The bytes to publish; null when the upload itself is published unchanged (sidecar lane). */
  output: StoredBlob | null;
  sidecarManifest: StoredBlob | null;
  /** SHA-256 of the manifest store written (embedded or sidecar): the transparency log's entry. */
  manifestSha256: string | null;
  manifestLabel: string | null;
  /** The reference engine's check of our output; null for an unsigned (watermark-only) publication. */
  check: ManifestCheck | null;
  durable: DurableCredentials;
}

/**
 * The publication batch. Every statement after the first takes effect only if the first moved the job to
 * completed with this attempt's publication id, and D1 runs the batch as one transaction.
 */
async function publish(env: Bindings, job: JobRow, source: typeof objects.$inferSelect, plan: PublicationPlan) {
  const d1 = env.DB;
  const now = Date.now();
  const publicationId = `pub_${randomBase32(16)}`;
  const receiptId = newId("receipt");
  const verificationId = newId("verification");
  const sidecar = plan.sidecarManifest !== null;
  const outputObjectId = plan.output ? newId("object") : source.id;
  const sidecarObjectId = sidecar ? newId("object") : null;
  const extension = formatOf(source.mediaType)!.extension;
  const filename = `${job.assetId}.${extension}`;
  const retentionDays = (JSON.parse(job.admitted) as AdmittedRequest).output_retention_days;
  const retentionUntil = retentionDays === null || retentionDays === undefined ? null : now + retentionDays * 86_400_000;
  const ours = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND publication_id = ?)";
  const { watermark, fingerprints } = plan.durable;
  const validationPath = plan.check ? (sidecar ? "c2pa.sidecar" : "c2pa.embedded") : "watermark";
  const evidence = {
    variant: sidecar ? "sidecar_signing" : plan.check ? "signing" : "watermarking",
    output: {
      object_id: outputObjectId,
      media_type: source.mediaType,
      sha256: plan.output?.sha256 ?? source.sha256,
      byte_length: plan.output?.byte_length ?? source.byteLength,
    },
    source: { object_id: source.id, sha256: source.sha256, byte_length: source.byteLength },
    sidecar_manifest: plan.sidecarManifest
      ? { object_id: sidecarObjectId, sha256: plan.sidecarManifest.sha256, byte_length: plan.sidecarManifest.byte_length }
      : null,
    manifest: plan.check ? { active_manifest_label: plan.manifestLabel, validation_state: plan.check.validation_state } : null,
    watermark: watermark
      ? {
          algorithm: watermark.algorithm,
          strength: watermark.strength,
          payload: watermark.payload,
          psnr_db: watermark.psnr_db,
          read_back: true,
        }
      : null,
    fingerprints: fingerprints
      ? fingerprints.fingerprints.map((f) => ({ algorithm: f.algorithm, value: f.value, quality: f.quality }))
      : [],
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
      .bind(
        id,
        job.tenantId,
        job.assetId,
        role,
        blob.key,
        blob.etag,
        blob.byte_length,
        blob.sha256,
        mediaType,
        name,
        now,
        job.id,
        publicationId,
      );
  const bindings = [
    ...(watermark ? [{ kind: "watermark", algorithm: watermark.algorithm, value: watermark.payload, bits: watermark.payload }] : []),
    ...(fingerprints?.fingerprints ?? []).map((f) => ({ kind: "fingerprint", algorithm: f.algorithm, value: f.value, bits: f.bits })),
  ];

  const events = publicationEventStatements(
    d1,
    {
      tenantId: job.tenantId,
      signed: plan.check !== null,
      watermarked: watermark !== null,
      at: now,
      data: {
        asset_id: job.assetId,
        job_id: job.id,
        publication_id: publicationId,
        receipt_id: receiptId,
        media_type: source.mediaType,
        recipe_id: job.recipeId,
        manifest_label: plan.manifestLabel,
        watermark_algorithm: watermark?.algorithm ?? null,
      },
    },
    { sql: ours, binds: [job.id, publicationId] },
  );

  const statements: D1PreparedStatement[] = [
    d1
      .prepare(
        `UPDATE jobs SET state = 'completed', publication_id = ?, receipt_id = ?, verification_id = ?, terminal_at = ?, updated_at = ?, lease_expires_at = NULL
         WHERE id = ? AND state = 'running' AND cancel_requested_at IS NULL AND publication_id IS NULL`,
      )
      .bind(publicationId, receiptId, verificationId, now, now, job.id),
    ...(plan.output
      ? [insertObject(outputObjectId, plan.check ? "signed_output" : "watermarked_output", plan.output, source.mediaType, filename)]
      : []),
    ...(plan.sidecarManifest
      ? [insertObject(sidecarObjectId!, "sidecar_manifest", plan.sidecarManifest, "application/c2pa", `${filename}.c2pa`)]
      : []),
    d1
      .prepare(
        `UPDATE assets SET status = 'published', publication_id = ?, published_object_id = ?, sidecar_object_id = ?, published_job_id = ?,
           published_recipe_id = ?, published_at = ?, manifest_label = ?, retention_until = ?, updated_at = ?
         WHERE id = ? AND publication_id IS NULL AND ${ours}`,
      )
      .bind(
        publicationId,
        outputObjectId,
        sidecarObjectId,
        job.id,
        job.recipeId,
        now,
        plan.manifestLabel,
        retentionUntil,
        now,
        job.assetId,
        job.id,
        publicationId,
      ),
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
        validationPath,
        JSON.stringify({
          check: plan.check,
          watermark_read_back: watermark ? { algorithm: watermark.algorithm, payload_matches: true } : null,
          checked_at: new Date(now).toISOString(),
          engine: plan.check ? "c2pa-wasm 0.13.3" : null,
        }),
        now,
        now,
        job.id,
        publicationId,
      ),
    // PDQ hashes of enough quality are also cut into bands for near lookups (multi-index hashing).
    ...(fingerprints?.fingerprints ?? [])
      .filter((f) => f.algorithm === "pdq" && (f.quality ?? 0) >= PDQ_MIN_QUALITY)
      .flatMap((f) => pdqBandStatements(d1, publicationId, fromHex(f.bits), { sql: ours, binds: [job.id, publicationId] })),
    ...bindings.map((b) =>
      d1
        .prepare(
          `INSERT INTO soft_bindings (publication_id, algorithm, tenant_id, asset_id, job_id, kind, value, bits, created_at)
           SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ours}`,
        )
        .bind(publicationId, b.algorithm, job.tenantId, job.assetId, job.id, b.kind, b.value, b.bits, now, job.id, publicationId),
    ),
    ...(plan.manifestSha256
      ? [
          await anchorEntryStatement(
            d1,
            { publicationId, tenantId: job.tenantId, manifestSha256: plan.manifestSha256, createdAt: now },
            { sql: ours, binds: [job.id, publicationId] },
          ),
        ]
      : []),
    // The customer events of this publication (the webhook outbox), committed with it or not at all.
    ...events.statements,
    d1
      .prepare(`UPDATE job_steps SET state = 'completed', completed_at = ?, output = ? WHERE job_id = ? AND step = 'publish' AND ${ours}`)
      .bind(now, JSON.stringify({ publication_id: publicationId }), job.id, job.id, publicationId),
  ];
  await d1.batch(statements);
  // Nudge the fan-out now; if this Worker dies first, the cron sweep fans the committed events out.
  try {
    const committed = await d1
      .prepare("SELECT publication_id FROM jobs WHERE id = ?")
      .bind(job.id)
      .first<{ publication_id: string | null }>();
    if (committed?.publication_id === publicationId) await sendFanout(env, events.eventIds);
  } catch (error) {
    console.warn(
      JSON.stringify({
        level: "warn",
        problem: "webhook fan-out nudge failed; the sweep will fan out",
        job_id: job.id,
        error: String(error),
      }),
    );
  }
}

export const attemptsExhaustedMessage = (attempts: number) =>
  `The job's steps stopped before finishing on each of its ${attempts} attempts (the worker crashed or ran out of time); nothing was published.`;
export const startDeadlineMessage = () =>
  `The job did not start within ${JOB_START_DEADLINE_MS / 3_600_000} hours of admission; nothing was published.`;

/**
 * Ends a job without a publication (`failed`, `rejected` or `expired`) in one D1 batch: the job row moves only
 * from a non-terminal state, and everything else in the batch (the step, the asset, the job.failed event in the
 * webhook outbox) takes effect only if this batch made that move, so a job ends once and announces it once.
 */
export async function finishJob(
  env: Bindings,
  job: JobRow,
  step: Pick<JobStepRow, "step"> | null,
  state: "failed" | "rejected" | "expired",
  code: JobErrorCode,
  message: string,
) {
  const d1 = env.DB;
  const now = Date.now();
  const ended = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND state = ? AND terminal_at = ? AND error_code = ?)";
  const guard = [job.id, state, now, code];
  const terminal = TERMINAL_STATES.map(() => "?").join(", ");
  const event = jobEndedEventStatement(
    d1,
    { tenantId: job.tenantId, at: now, data: { asset_id: job.assetId, job_id: job.id, recipe_id: job.recipeId, state, error_code: code } },
    { sql: ended, binds: guard },
  );
  await d1.batch([
    d1
      .prepare(
        `UPDATE jobs SET state = ?, error_code = ?, error_message = ?, terminal_at = ?, updated_at = ?, lease_expires_at = NULL WHERE id = ? AND state NOT IN (${terminal})`,
      )
      .bind(state, code, message, now, now, job.id, ...TERMINAL_STATES),
    event.statement,
    ...(step
      ? [
          d1
            .prepare(`UPDATE job_steps SET state = 'failed', completed_at = ?, error_code = ? WHERE job_id = ? AND step = ? AND ${ended}`)
            .bind(now, code, job.id, step.step, ...guard),
        ]
      : []),
    ...(state === "expired"
      ? [
          d1
            .prepare(`UPDATE job_steps SET state = 'skipped' WHERE job_id = ? AND state IN ('pending', 'running') AND ${ended}`)
            .bind(job.id, ...guard),
        ]
      : []),
    // An expired job never ran: its asset is ready to sign again, as after a cancellation.
    d1
      .prepare(`UPDATE assets SET status = ?, updated_at = ? WHERE id = ? AND status = 'processing' AND ${ended}`)
      .bind(state === "expired" ? "uploaded" : "failed", now, job.assetId, ...guard),
  ]);
  // Nudge the fan-out now; if this Worker dies first, the cron sweep fans the committed event out.
  try {
    const committed = await d1
      .prepare(`SELECT 1 AS ok WHERE ${ended}`)
      .bind(...guard)
      .first();
    if (committed) await sendFanout(env, [event.eventId]);
  } catch (error) {
    console.warn(
      JSON.stringify({
        level: "warn",
        problem: "webhook fan-out nudge failed; the sweep will fan out",
        job_id: job.id,
        error: String(error),
      }),
    );
  }
}

export async function finishCanceled(db: Database, job: JobRow) {
  const now = Date.now();
  await db.batch([
    db
      .update(jobs)
      .set({ state: "canceled", terminalAt: now, updatedAt: now, leaseExpiresAt: null })
      .where(and(eq(jobs.id, job.id), notInArray(jobs.state, [...TERMINAL_STATES]))),
    db
      .update(jobSteps)
      .set({ state: "skipped" })
      .where(and(eq(jobSteps.jobId, job.id), inArray(jobSteps.state, ["pending", "running"]))),
    db
      .update(assets)
      .set({ status: "uploaded", updatedAt: now })
      .where(and(eq(assets.id, job.assetId), eq(assets.status, "processing"))),
  ]);
}
