import type { z } from "@hono/zod-openapi";
import { NO_SIGNING_PROFILE, type SigningProfile } from "../api-keys/controls";
import { meterJob, pricingFactsOf } from "../billing/metering";
import { usd } from "../billing/money";
import { type ReservationRow, walletRefusal } from "../billing/repo/reservations";
import { ALGORITHMS, type AlgorithmModality, defaultAlgorithm, IMAGE_DECODE_LIMITS } from "../catalog/algorithms";
import { formatOf } from "../catalog/formats";
import {
  AUDIO_WATERMARK_MAX_BYTES,
  AUDIO_WATERMARK_MAX_PCM_BYTES,
  AUDIO_WATERMARK_MAX_SECONDS,
  AUDIO_WATERMARK_MIN_SECONDS,
  EMBEDDED_SIGNING_MAXIMUM_BYTES,
  VIDEO_FINGERPRINT_MAX_BYTES,
  VIDEO_FINGERPRINT_MAX_PIXELS,
} from "../catalog/limits";
import { recipeById } from "../catalog/recipes";
import type { CapabilityRegistry } from "../catalog/registry";
import { attributionFor } from "../creators/disclosure";
import type { Database } from "../db/client";
import type { ErrorCode, FieldDetail } from "../platform/errors";
import type { FirstBatchClaim } from "../platform/idempotency";
import { IDEMPOTENCY_TTL_MS } from "../platform/idempotency/repo";
import { idFor, successorId } from "../platform/idempotent-ids";
import { newId } from "../platform/ids";
import { firstMove } from "./first-move";
import { assetForAdmission, getJob, insertJob, isAssetBusy, type JobRow, type JobStepRow, stepsOf, type TakeAndLoad } from "./repo";
import type { SignRequestSchema } from "./schemas";

export const SIGN_POLICY_VERSION = "svc.sign-policy.v1";
/** Revision of the default plan: what a job records before the planner reads the tenant's account. */
export const PLAN_REVISION = 1;

export type SignRequest = z.infer<typeof SignRequestSchema>;

/** What a job keeps from its request, frozen at admission (SPEC "Immutability"). */
export interface AdmittedRequest {
  recipe_id: string;
  recipe_definition: { version: number; kind: string; lane: string; required_steps: string[] };
  watermark_algorithm: string | null;
  watermark_strength: "subtle" | "balanced" | "robust" | null;
  fingerprint_algorithms: string[];
  ai_declaration: { digital_source_type: string; model: string | null } | null;
  creator_id: string | null;
  /**
   * The attributed creator as the manifest will carry it: an opaque reference and a salted commitment, never a name
   * or e-mail. Frozen at admission: withdrawing the identity later stops disclosure, not a job already admitted.
   */
  creator?: { creator_ref: string; commitment: string } | null;
  /** From the admitting key's retention: days the published outputs are kept (null: until deleted). */
  output_retention_days: number | null;
  /**
   * Set when a capture admission created the job (src/capture): what the manifest's `svc.capture` assertion states.
   * Frozen at the admission decision.
   */
  capture?: CaptureClaim | null;
}

/** The capture admission a job publishes, as its manifest states it (no identity or device data). */
export interface CaptureClaim {
  capture_admission_id: string;
  provider_class: string;
  verifier_version: string;
  trust_snapshot_version: string;
  admission_policy_version: string;
  capture_policy_id: string;
  capture_policy_version: string;
  decided_at: string;
  /** SHA-256 (hex) of the captured file the device attested, = the uploaded bytes. */
  media_sha256: string;
  sensor_evidence_sha256: string | null;
  sensor_schema_version: string | null;
}

/**
 * `admitted` with `existing: true`: the job is the one an earlier attempt under the same Idempotency-Key admitted (its
 * answer was lost); it is answered as it is now, nothing was written.
 */
export type AdmissionResult =
  | { status: "admitted"; job: JobRow; steps: JobStepRow[]; taken?: TakeAndLoad | null; existing?: true }
  | { status: "asset_not_found" }
  | { status: "refused"; code: ErrorCode; message: string; field?: FieldDetail };

/** A job checked and built but not written: `assetStatus` is what the asset's claim moves from (and back on failure). */
export type SignPlan =
  | {
      status: "planned";
      job: JobRow;
      steps: JobStepRow[];
      assetStatus: "uploaded" | "failed";
      /** The wallet reservation to write with the job (metered tenants), else null. */
      reservation: ReservationRow | null;
      /** The asset's source object as read now (null when it is gone). */
      source: { id: string; mediaType: string } | null;
    }
  | { status: "asset_not_found" }
  | { status: "refused"; code: ErrorCode; message: string; field?: FieldDetail };

const refuse = (code: ErrorCode, message: string, field?: string): Extract<AdmissionResult, { status: "refused" }> => ({
  status: "refused",
  code,
  message,
  ...(field ? { field: { location: "body" as const, field, code: "not_applicable", message } } : {}),
});

/**
 * Admits a sign request: every rule of SPEC "Sign request" is checked against the recipe, the asset's
 * inspected media type and what this deployment has installed, before anything is written. The asset moves to
 * `processing` with a conditional update in the batch that writes the job, so two concurrent requests cannot both
 * admit a job for it and no claim outlives a failed batch. Under an Idempotency-Key (`options.jobId`), a retry whose
 * earlier attempt's batch landed answers that job, within the key's replay window (earlierJob).
 */
export async function admitSign(
  db: Database,
  registry: CapabilityRegistry,
  tenantId: string,
  request: SignRequest,
  options: SignOptions = {},
  now = Date.now(),
): Promise<AdmissionResult> {
  const plan = await planSign(db, registry, tenantId, request, options, now);
  // A refusal may be the trace of an earlier attempt under the same key (its job holds or published the asset).
  if (plan.status !== "planned") {
    const earlier = await earlierJob(db, tenantId, options.jobId, request, now);
    return earlier?.status === "admitted" ? earlier : plan;
  }
  // An express job the caller runs in this request is taken for that run in the same batch (SignOptions.takeForRun).
  // Its first move (the inspect record, the next step's begin) rides with the take too, as the run would make it.
  const first = plan.source ? firstMove(plan.steps, plan.source) : null;
  const take =
    options.takeForRun && plan.job.mode === "express"
      ? { started: now, leaseMs: options.takeForRun.leaseMs, ...(first ? { first } : {}) }
      : null;
  let taken: TakeAndLoad | null;
  try {
    // Claims the asset in the batch that writes the job: only one request can move it to processing, and a failed
    // batch leaves no claim behind.
    taken = await insertJob(db, plan.job, plan.steps, plan.reservation, take);
  } catch (error) {
    // A job id taken already (or the asset busy with it): the earlier attempt under this key landed its batch.
    const earlier = await earlierJob(db, tenantId, options.jobId, request, now);
    if (earlier?.status === "admitted") return earlier;
    // The key's id names a job admitted before its replay window: this is a new request, under the next id of the
    // key's line that names no job (a retry of it finds its job there); past KEY_GENERATIONS, a random one.
    if (earlier?.status === "stale") {
      const { jobId: _stale, ...fresh } = options;
      return admitSign(db, registry, tenantId, request, earlier.next ? { ...fresh, jobId: earlier.next } : fresh, now);
    }
    if (isAssetBusy(error)) return refuse("svc.sign.asset_busy", "A job for this asset is already running.");
    // The database re-checks the wallet inside the batch: another admission may have taken the room since.
    const refusal = walletRefusal(error);
    if (refusal === null) throw error;
    return refuseForWallet(refusal === "monthly_limit" ? "monthly_limit" : "insufficient", null);
  }
  return { status: "admitted", job: plan.job, steps: plan.steps, ...(take ? { taken } : {}) };
}

/**
 * The job an earlier attempt under the same Idempotency-Key admitted (`jobId`, from `signJobId`), if it exists and was
 * admitted inside the key's replay window; `stale` when it was admitted before. After the window the same key is a new
 * request (as for API keys and webhook secrets): an old job is never answered again, nor a fresh download of its
 * output minted for whoever of the tenant sends that key and body (a key without assets:read could otherwise fetch a
 * published file).
 */
async function earlierJob(
  db: Database,
  tenantId: string,
  jobId: string | undefined,
  request: SignRequest,
  now: number,
): Promise<Extract<AdmissionResult, { status: "admitted" }> | { status: "stale"; next?: string } | null> {
  if (!jobId) return null;
  // A stale job's successor (successorId) is where the new request under that key went: followed, one a window.
  let id = jobId;
  for (let generation = 0; generation < KEY_GENERATIONS; generation++) {
    const job = await getJob(db, tenantId, id);
    if (!job) return id === jobId ? null : { status: "stale", next: id };
    if (job.assetId !== request.asset_id) return null; // the id names the request; checked again all the same
    if (job.createdAt > now - IDEMPOTENCY_TTL_MS) {
      return { status: "admitted", job, steps: (await stepsOf(db, [job.id])).get(job.id) ?? [], existing: true };
    }
    id = await successorId(id);
  }
  return { status: "stale" };
}

/** How many windows' jobs one key's line of ids is followed through (a read each) before a random id is taken. */
const KEY_GENERATIONS = 32;

/**
 * The id of the job a sign request admits under an Idempotency-Key (`key`; a batch item's is `<key>.b<index>`): a
 * retry after a lost answer names the same job, so it finds and answers it instead of admitting a second (#22).
 * The request itself is part of the id: the same key with another body (after its record expired, or was released
 * by a 5xx) names another job, never the earlier one.
 */
export function signJobId(secret: string, tenantId: string, key: string, request: SignRequest): Promise<string> {
  return idFor("job", secret, { tenantId, operation: "POST /v1/sign", key: `${key}\n${JSON.stringify(request)}` });
}

/** The 402 of a metered admission: the wallet cannot cover the quote (`quote` when it is known here). */
function refuseForWallet(kind: "insufficient" | "monthly_limit", quote: { amount: number; pricingVersion: string } | null) {
  const priced = quote ? ` of USD ${usd(quote.amount)} (${quote.pricingVersion})` : "";
  return kind === "insufficient"
    ? refuse(
        "svc.billing.insufficient_funds",
        `The wallet's available balance does not cover this job's quote${priced}; top up or wait for admitted work to finish.`,
      )
    : refuse("svc.billing.monthly_limit_reached", `This job's quote${priced} would pass the wallet's monthly spend limit.`);
}

export interface SignOptions {
  asynchronousOnly?: boolean;
  profile?: SigningProfile;
  outputRetentionDays?: number | null;
  /** The capture admission creating this job (its manifest then carries `svc.capture`). */
  capture?: CaptureClaim;
  /**
   * An express job is taken for a run in this request, in the batch that writes it (AdmissionResult `taken`, for
   * runJobForAnswer): only for a caller that starts that run at once (its lease holds the job until then).
   */
  takeForRun?: { leaseMs: number };
  /**
   * The job's id under the request's Idempotency-Key (`signJobId`); without it, a fresh id. With it, a request whose
   * earlier attempt admitted that job is answered with it (AdmissionResult `existing`).
   */
  jobId?: string;
  /**
   * The request's Idempotency-Key claim, taken in admission's first read (platform/idempotency claimInFirstBatch):
   * nothing is written before it, so the request holds its key before it changes anything.
   */
  claim?: FirstBatchClaim;
}

/**
 * Checks a sign request and builds its job and steps without writing anything or claiming the asset. Invariant:
 * `planned` only when every rule of SPEC "Sign request" holds for the asset as read now; the caller claims the asset
 * and writes the rows, in one batch (admitSign, through insertJob) or with `claimAssetForJob` and its own batch (a
 * capture admission).
 */
export async function planSign(
  db: Database,
  registry: CapabilityRegistry,
  tenantId: string,
  request: SignRequest,
  options: SignOptions = {},
  now = Date.now(),
): Promise<SignPlan> {
  // The asset and its source object's inspection facts in one round trip (the facts bound decoded steps below).
  const found = await assetForAdmission(db, tenantId, request.asset_id, options.claim);
  if (!found) return { status: "asset_not_found" };
  const { asset } = found;
  const profile = options.profile ?? NO_SIGNING_PROFILE;
  const recipeId = request.recipe_id ?? profile.default_recipe_id;
  if (!recipeId)
    return refuse("svc.request.invalid", "recipe_id is required: this key's signing profile names no default recipe.", "recipe_id");
  const recipe = recipeById(recipeId);
  if (!recipe) return refuse("svc.sign.recipe_unknown", `No recipe ${recipeId} exists.`, "recipe_id");
  if (profile.allowed_recipe_ids && !profile.allowed_recipe_ids.includes(recipe.recipe_id)) {
    return refuse("svc.sign.recipe_not_allowed", `This key's signing profile does not allow ${recipe.recipe_id}.`, "recipe_id");
  }

  if (asset.status === "published")
    return refuse("svc.sign.asset_published", "The asset is already published; upload the media again to sign it anew.");
  if (asset.status === "processing") return refuse("svc.sign.asset_busy", "A job for this asset is still running.");
  if (asset.status !== "uploaded" && asset.status !== "failed")
    return refuse("svc.sign.asset_not_uploaded", "The asset's upload is not completed.");
  const mediaType = asset.mediaType!;
  const format = formatOf(mediaType)!;

  const status = registry.recipeStatus(recipe);
  if (!status.available)
    return refuse(
      "svc.sign.recipe_unavailable",
      `${recipe.recipe_id} is not available in this deployment (${status.reason}).`,
      "recipe_id",
    );
  if (!status.active_media_types.includes(mediaType)) {
    return refuse("svc.sign.media_type_not_supported", `${recipe.recipe_id} does not accept ${mediaType} in this deployment.`, "recipe_id");
  }

  const watermarks = recipe.kind !== "sign_only";
  if (!watermarks && request.watermark_algorithm)
    return refuse("svc.sign.option_not_applicable", "watermark_algorithm needs a watermark recipe.", "watermark_algorithm");
  if (!watermarks && request.watermark_strength)
    return refuse("svc.sign.option_not_applicable", "watermark_strength needs a watermark recipe.", "watermark_strength");
  if (request.ai_declaration && recipe.kind !== "sign_only")
    return refuse("svc.sign.option_not_applicable", "ai_declaration needs a sign-only recipe.", "ai_declaration");

  // The key's signing profile: its defaults fill what the request leaves out, its allowed sets bound both.
  const allowedWatermarks = profile.allowed_watermark_algorithms ?? null;
  const allowedStrengths = profile.allowed_watermark_strengths ?? null;
  const allowedFingerprints = profile.allowed_fingerprint_algorithms ?? null;
  let watermarkAlgorithm: string | null = null;
  let watermarkStrength: AdmittedRequest["watermark_strength"] = null;
  if (watermarks) {
    const offered = ALGORITHMS.filter((a) => a.kind === "watermark" && a.modality === format.modality);
    const profileDefault = offered.find((a) => a.algorithm === profile.default_watermark_algorithm);
    const chosen = request.watermark_algorithm
      ? offered.find((a) => a.algorithm === request.watermark_algorithm)
      : (profileDefault ??
        defaultAlgorithm(
          "watermark",
          format.modality as AlgorithmModality,
          (a) => registry.algorithmAvailability(a).available && (!allowedWatermarks || allowedWatermarks.includes(a.algorithm)),
        ));
    if (!chosen && !request.watermark_algorithm) {
      return refuse(
        "svc.sign.algorithm_unavailable",
        `No watermark for ${format.modality} ${allowedWatermarks ? "that this key's signing profile allows " : ""}is available in this deployment.`,
        "recipe_id",
      );
    }
    if (!chosen)
      return refuse(
        "svc.sign.algorithm_not_offered",
        `${request.watermark_algorithm} is not offered for ${format.modality}.`,
        "watermark_algorithm",
      );
    if (!registry.algorithmAvailability(chosen).available)
      return refuse("svc.sign.algorithm_unavailable", `${chosen.algorithm} is not available in this deployment.`, "watermark_algorithm");
    if (allowedWatermarks && !allowedWatermarks.includes(chosen.algorithm)) {
      return refuse(
        "svc.sign.option_not_allowed",
        `This key's signing profile does not allow the ${chosen.algorithm} watermark.`,
        "watermark_algorithm",
      );
    }
    watermarkAlgorithm = chosen.algorithm;
    // Our audio watermark has one strength, set by its target SNR (31 dB): any other is refused, never ignored.
    if (format.modality === "audio" && request.watermark_strength && request.watermark_strength !== "balanced")
      return refuse(
        "svc.sign.option_not_applicable",
        `The ${chosen.algorithm} watermark has one strength, balanced (a fixed signal-to-noise ratio of about 31 dB).`,
        "watermark_strength",
      );
    watermarkStrength =
      format.modality === "audio"
        ? "balanced"
        : (request.watermark_strength ??
          profile.default_watermark_strength ??
          (!allowedStrengths || allowedStrengths.includes("balanced") ? "balanced" : allowedStrengths[0]!));
    if (allowedStrengths && !allowedStrengths.includes(watermarkStrength)) {
      return refuse(
        "svc.sign.option_not_allowed",
        `This key's signing profile does not allow watermark strength ${watermarkStrength}.`,
        "watermark_strength",
      );
    }
  }

  let fingerprints: string[] = [];
  let fingerprintSetChanged = false;
  const fingerprinting = recipe.required_steps.includes("fingerprint");
  if (request.fingerprint_algorithms && !fingerprinting) {
    return refuse("svc.sign.option_not_applicable", `${recipe.recipe_id} records no optional fingerprints.`, "fingerprint_algorithms");
  }
  const offeredFingerprints = ALGORITHMS.filter((a) => a.kind === "fingerprint" && a.modality === format.modality);
  if (fingerprinting) {
    // The default set is SPEC's defaults that this deployment has (dinov2 needs model weights); naming an
    // unavailable one explicitly is refused below.
    // The profile's default set applies to the algorithms of it offered for this modality (none: the system's).
    const profileDefaults = (profile.default_fingerprint_algorithms ?? []).filter((name) =>
      offeredFingerprints.some((a) => a.algorithm === name),
    );
    const defaults =
      profileDefaults.length > 0
        ? profileDefaults
        : offeredFingerprints
            .filter(
              (a) =>
                a.is_default &&
                registry.algorithmAvailability(a).available &&
                (a.locked || !allowedFingerprints || allowedFingerprints.includes(a.algorithm)),
            )
            .map((a) => a.algorithm);
    const names = request.fingerprint_algorithms ?? defaults;
    // SPEC "Sign request": only a changed fingerprint set adds a price line.
    fingerprintSetChanged =
      request.fingerprint_algorithms !== undefined && [...new Set(names)].sort().join() !== [...new Set(defaults)].sort().join();
    for (const name of names) {
      const algorithm = offeredFingerprints.find((a) => a.algorithm === name);
      if (!algorithm)
        return refuse("svc.sign.algorithm_not_offered", `${name} is not offered for ${format.modality}.`, "fingerprint_algorithms");
      if (!registry.algorithmAvailability(algorithm).available)
        return refuse("svc.sign.algorithm_unavailable", `${name} is not available in this deployment.`, "fingerprint_algorithms");
      // The locked fingerprint is always computed, so no profile can exclude it.
      if (allowedFingerprints && !algorithm.locked && !allowedFingerprints.includes(name)) {
        return refuse(
          "svc.sign.option_not_allowed",
          `This key's signing profile does not allow the ${name} fingerprint.`,
          "fingerprint_algorithms",
        );
      }
    }
    fingerprints = names;
  }
  // The locked fingerprint (image ISCC) is always added where the recipe computes fingerprints (a recipe
  // without a fingerprint step never decodes for one).
  for (const locked of fingerprinting ? offeredFingerprints.filter((a) => a.locked) : []) {
    if (!fingerprints.includes(locked.algorithm) && registry.algorithmAvailability(locked).available) fingerprints.push(locked.algorithm);
  }

  // Decoded steps need the pixels: refuse what cannot fit or carry the mark before a job exists. Only steps
  // that decode (watermark, fingerprint) are bounded by pixels; signing alone is bounded by bytes (the upload limit).
  const source = found.source;
  // A FLAC above the embedded limit is signed by streaming, but its watermark and fingerprints decode it whole (no
  // FLAC is read from its first bytes alone, unlike a WAV): only a recipe that signs alone takes one that large.
  if (
    mediaType === "audio/flac" &&
    (watermarks || (fingerprinting && fingerprints.length > 0)) &&
    source?.inspection &&
    ((JSON.parse(source.inspection) as { byte_length?: number }).byte_length ?? 0) > EMBEDDED_SIGNING_MAXIMUM_BYTES
  ) {
    return refuse(
      "svc.sign.option_not_applicable",
      `A FLAC above ${EMBEDDED_SIGNING_MAXIMUM_BYTES / 1024 / 1024} MiB is signed without watermark or fingerprints; sign it with rcp_system_sign_only.`,
      "recipe_id",
    );
  }
  // The audio watermark holds the whole recording in memory: refused before a job exists for one it cannot take.
  if (format.modality === "audio" && watermarks && source?.inspection) {
    const facts = JSON.parse(source.inspection) as {
      byte_length?: number;
      duration_seconds?: number | null;
      bit_depth?: number | null;
      audio_codec?: string | null;
      sample_rate?: number | null;
      channels?: number | null;
    };
    const seconds = facts.duration_seconds ?? null;
    const codec = (facts.audio_codec ?? "").toLowerCase();
    const refuseWith = (why: string) =>
      refuse("svc.sign.option_not_applicable", `${why}; sign it with rcp_system_sign (fingerprints only).`, "recipe_id");
    if ((facts.byte_length ?? 0) > AUDIO_WATERMARK_MAX_BYTES || (seconds !== null && seconds > AUDIO_WATERMARK_MAX_SECONDS))
      return refuseWith(
        `The audio watermark takes recordings of at most ${AUDIO_WATERMARK_MAX_SECONDS} seconds and ${AUDIO_WATERMARK_MAX_BYTES / 1024 / 1024} MiB`,
      );
    if (seconds === null) return refuseWith("The audio watermark needs a recording whose duration is stated (this file's is not)");
    if (seconds < AUDIO_WATERMARK_MIN_SECONDS)
      return refuseWith(`The audio watermark needs a recording of at least ${AUDIO_WATERMARK_MIN_SECONDS} seconds`);
    // A FLAC or MP3 is decoded whole: its samples (16-bit, every channel) are what must fit.
    const pcmBytes = seconds * (facts.sample_rate ?? 0) * (facts.channels ?? 0) * 2;
    if (pcmBytes > AUDIO_WATERMARK_MAX_PCM_BYTES)
      return refuseWith(
        `The audio watermark holds at most ${AUDIO_WATERMARK_MAX_PCM_BYTES / 1024 / 1024} MiB of decoded 16-bit samples (about 95 s of 44.1 kHz stereo); this recording has ${Math.ceil(pcmBytes / 1024 / 1024)} MiB`,
      );
    if (mediaType === "audio/wav" && (facts.bit_depth !== 16 || codec !== "pcm"))
      return refuseWith("The audio watermark is embedded into 16-bit PCM WAV only (its samples are rewritten in place)");
    if (mediaType === "audio/flac" && facts.bit_depth !== 16)
      return refuseWith(
        `The audio watermark is embedded into 16-bit FLAC only (re-encoded losslessly from 16-bit samples), not ${facts.bit_depth ?? "unknown"}-bit`,
      );
    if (mediaType === "audio/mpeg" && codec !== "mp3") return refuseWith("The audio watermark is embedded into MP3 (MPEG layer III) only");
  }
  // Video fingerprints decode the whole file in the media Worker: refused before a job exists for one it cannot hold.
  if (format.modality === "video" && fingerprinting && fingerprints.length > 0 && source?.inspection) {
    const facts = JSON.parse(source.inspection) as { byte_length?: number; width?: number | null; height?: number | null };
    if ((facts.byte_length ?? 0) > VIDEO_FINGERPRINT_MAX_BYTES)
      return refuse(
        "svc.sign.option_not_applicable",
        `Video fingerprints are computed for files of at most ${VIDEO_FINGERPRINT_MAX_BYTES / 1024 / 1024} MiB; sign it with rcp_system_sign_only.`,
        "recipe_id",
      );
    if ((facts.width ?? 0) * (facts.height ?? 0) > VIDEO_FINGERPRINT_MAX_PIXELS)
      return refuse(
        "svc.sign.option_not_applicable",
        `Video fingerprints are computed for frames of at most 1920 × 1080 (${VIDEO_FINGERPRINT_MAX_PIXELS} pixels), not ${facts.width} × ${facts.height}; sign it with rcp_system_sign_only.`,
        "recipe_id",
      );
  }
  if (format.modality === "image" && (watermarks || fingerprinting)) {
    const facts = source?.inspection ? (JSON.parse(source.inspection) as { width: number | null; height: number | null }) : null;
    const { width, height } = facts ?? { width: null, height: null };
    if (width !== null && height !== null) {
      if (width * height > IMAGE_DECODE_LIMITS.maximum_pixels) {
        return refuse(
          "svc.sign.image_dimensions_unsupported",
          `The image has ${width * height} pixels; watermarking and fingerprinting decode at most ${IMAGE_DECODE_LIMITS.maximum_pixels}.`,
          "asset_id",
        );
      }
      if (watermarks && Math.min(width, height) < IMAGE_DECODE_LIMITS.watermark_minimum_edge) {
        return refuse(
          "svc.sign.image_dimensions_unsupported",
          `The image is ${width}x${height}; the watermark needs at least ${IMAGE_DECODE_LIMITS.watermark_minimum_edge} pixels on the shorter side.`,
          "asset_id",
        );
      }
    }
  }

  let creator: AdmittedRequest["creator"] = null;
  if (request.creator_id) {
    const attribution = await attributionFor(db, tenantId, request.creator_id);
    if (attribution.status === "unknown")
      return refuse("svc.sign.creator_unknown", "No enrolled creator identity has this id.", "creator_id");
    if (attribution.status !== "active")
      return refuse(
        "svc.sign.creator_inactive",
        `The creator identity is ${attribution.status}: it can no longer be attributed. Enrol the creator again to attribute new work.`,
        "creator_id",
      );
    creator = { creator_ref: attribution.creator_ref, commitment: attribution.commitment };
  }

  const express =
    !options.asynchronousOnly &&
    request.mode === "express" &&
    recipe.express &&
    ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/avif"].includes(mediaType);
  const admitted: AdmittedRequest = {
    recipe_id: recipe.recipe_id,
    recipe_definition: { version: recipe.version, kind: recipe.kind, lane: recipe.lane, required_steps: recipe.required_steps },
    watermark_algorithm: watermarkAlgorithm,
    watermark_strength: watermarkStrength,
    fingerprint_algorithms: fingerprints,
    ai_declaration: request.ai_declaration
      ? { digital_source_type: request.ai_declaration.digital_source_type, model: request.ai_declaration.model ?? null }
      : null,
    creator_id: request.creator_id ?? null,
    creator,
    output_retention_days: options.outputRetentionDays ?? null,
    ...(options.capture ? { capture: options.capture } : {}),
  };

  const job: JobRow = {
    id: options.jobId ?? newId("job"),
    tenantId,
    assetId: asset.id,
    recipeId: recipe.recipe_id,
    recipeVersion: recipe.version,
    policyVersion: SIGN_POLICY_VERSION,
    activePlanRevision: PLAN_REVISION,
    pricingVersion: null,
    kind: recipe.kind,
    mode: express ? "express" : "standard",
    // Admitted; `queued` once its queue message is sent (runner.handOver), or `running` when an express run starts it.
    state: "accepted",
    admitted: JSON.stringify(admitted),
    mediaInspection: source?.inspection ?? null,
    errorCode: null,
    errorMessage: null,
    cancelRequestedAt: null,
    cancelReason: null,
    terminalAt: null,
    receiptId: null,
    publicationId: null,
    verificationId: null,
    attempts: 0,
    leaseExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const steps: JobStepRow[] = recipe.required_steps.map((step, position) => ({
    jobId: job.id,
    tenantId,
    step,
    position,
    state: "pending",
    startedAt: null,
    completedAt: null,
    output: null,
    errorCode: null,
  }));
  const metering = await meterJob(
    db,
    tenantId,
    job.id,
    pricingFactsOf(source?.inspection ?? null, format.modality, recipe.kind, fingerprintSetChanged),
    now,
    found.metering, // read with the asset (one round trip fewer); the batch writing the job checks the wallet again
  );
  switch (metering.status) {
    case "unpriced":
      return refuse("svc.billing.not_priced", `This work has no price: ${metering.message}`, "asset_id");
    case "insufficient":
    case "monthly_limit":
      return refuseForWallet(metering.status, metering);
  }
  job.activePlanRevision = metering.planRevision;
  job.pricingVersion = metering.status === "metered" ? metering.pricingVersion : null;
  return {
    status: "planned",
    job,
    steps,
    assetStatus: asset.status,
    reservation: metering.status === "metered" ? metering.reservation : null,
    source: found.source ? { id: found.source.id, mediaType: found.source.mediaType } : null,
  };
}
