import { z } from "@hono/zod-openapi";
import { DownloadResponseSchema } from "../assets/schemas";
import { SVC_IMAGE_WATERMARK } from "../catalog/algorithms";
import { SIGN_BATCH_MAXIMUM_ITEMS } from "../catalog/limits";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
import { AssetIdSchema } from "../uploads/schemas";

export const JOB_STATES = [
  "accepted",
  "queued",
  "running",
  "cancel_requested",
  "completed",
  "canceled",
  "expired",
  "rejected",
  "failed",
] as const;
export const TERMINAL_STATES = ["completed", "canceled", "expired", "rejected", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JobIdSchema = idSchema("job", "Job id.");
export const RecipeIdSchema = z
  .string()
  .regex(/^rcp_[a-z0-9_]{3,64}$/)
  .openapi({ description: "Recipe id.", example: "rcp_system_sign_only" });

/** IPTC digital source types a declaration may state (C2PA `digitalSourceType`). */
export const DIGITAL_SOURCE_TYPES = [
  "trainedAlgorithmicMedia",
  "compositeWithTrainedAlgorithmicMedia",
  "algorithmicMedia",
  "compositeSynthetic",
  "digitalCreation",
] as const;

export const AiDeclarationRequestSchema = z
  .object({
    digital_source_type: z.enum(DIGITAL_SOURCE_TYPES).openapi({
      description:
        "IPTC digital source type recorded with the c2pa.created action (http://cv.iptc.org/newscodes/digitalsourcetype/<value>).",
      example: "trainedAlgorithmicMedia",
    }),
    model: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .openapi({ description: "Generative model name, recorded as the action's software agent.", example: "example-diffusion-2" }),
  })
  .openapi("AiDeclarationRequest");

export const SignRequestSchema = z
  .object({
    asset_id: AssetIdSchema,
    recipe_id: RecipeIdSchema.nullable().optional(),
    mode: z.enum(["express", "standard"]).nullable().optional().openapi({
      description:
        "`express` runs rcp_system_watermark_then_sign and rcp_system_express_watermark_then_sign on JPEG, PNG, WebP, TIFF or AVIF images in the request and answers 200 with `download` when the job finishes within the bounded wait; otherwise, and for every other recipe or media type, the job runs on the ordinary pipeline and the answer is 202. Omitted means standard.",
      example: "standard",
    }),
    watermark_algorithm: z
      .enum([
        "audioseal",
        "audioseal-mm02-4",
        "pixelseal",
        "trustmark-b",
        "trustmark-c",
        "trustmark-p",
        "trustmark-q",
        "videoseal-image",
        SVC_IMAGE_WATERMARK,
        "pixelseal-video",
        "videoseal",
      ])
      .nullable()
      .optional()
      .openapi({
        description: `Watermark recipes only; must be offered and available for the media type. Omitted: SPEC's default for the modality when available, else ${SVC_IMAGE_WATERMARK} for images (our own watermark; the learned models need weights this deployment does not have; see GET /v1/capabilities).`,
        example: SVC_IMAGE_WATERMARK,
      }),
    watermark_strength: z
      .enum(["subtle", "balanced", "robust"])
      .nullable()
      .optional()
      .openapi({ description: "Watermark recipes only; default balanced.", example: "balanced" }),
    fingerprint_algorithms: z
      .array(z.enum(["chromaprint", "audfprint", "iscc-audio", "iscc-image", "dinov2", "pdq", "dinov2-lsh256", "tmk-pdqf", "vpdq"]))
      .min(1)
      .refine((a) => new Set(a).size === a.length, { message: "Each algorithm may be named once." })
      .nullable()
      .optional()
      .openapi({
        description: "Replaces the default fingerprint set; the locked image ISCC code is always added.",
        example: ["iscc-image", "pdq"],
      }),
    ai_declaration: AiDeclarationRequestSchema.nullable()
      .optional()
      .openapi({ description: "Declares generative-model origin; sign-only recipes only." }),
    creator_id: idSchema(
      "creatorIdentity",
      "An active creator identity of this tenant to attribute (POST /v1/creator-identities). The manifest carries only an opaque `creator_ref` and a salted commitment (assertion `svc.creator`), never the name or e-mail. An unknown id answers 422 `svc.sign.creator_unknown`; a withdrawn or erased identity 422 `svc.sign.creator_inactive`.",
    )
      .nullable()
      .optional(),
  })
  .openapi("SignRequest");

export const JobStepResponseSchema = z
  .object({
    step: z.string().openapi({ description: "Step name.", example: "sign" }),
    state: z.enum(["pending", "running", "completed", "failed", "skipped"]).openapi({ description: "Step state.", example: "completed" }),
    started_at: Timestamp("When the step started.").nullable(),
    completed_at: Timestamp("When the step finished.").nullable(),
    error_code: z.string().nullable().openapi({ description: "Why the step failed.", example: null }),
  })
  .openapi("JobStepResponse");

export const JobProgressResponseSchema = z
  .object({
    completed_steps: z.number().int().min(0).openapi({ description: "Steps finished.", example: 2 }),
    total_steps: z.number().int().min(1).openapi({ description: "Steps of the recipe.", example: 3 }),
    percent: z.number().int().min(0).max(100).openapi({ description: "Whole-number percentage of steps finished.", example: 66 }),
    current_step: z.string().nullable().openapi({ description: "The step running now, if any.", example: "sign" }),
  })
  .openapi("JobProgressResponse");

export const JobResultResponseSchema = z
  .object({
    receipt_id: idSchema("receipt", "Receipt of the publication."),
    publication_id: z
      .string()
      .regex(/^pub_[a-z2-7]{16}$/)
      .openapi({ description: "Publication id.", example: "pub_abcdefghij234567" }),
    verification_id: idSchema("verification", "Verification evidence of the published output, readable at once."),
  })
  .openapi("JobResultResponse");

const FactsSchema = z
  .object({
    media_type: z.string().openapi({ description: "Media type sniffed from the bytes.", example: "image/jpeg" }),
    container: z.string().openapi({ description: "Container family.", example: "jpeg" }),
    modality: z.string().openapi({ description: "Media family.", example: "image" }),
    byte_length: z.number().int().openapi({ description: "Size in bytes.", example: 48213 }),
    width: z.number().int().nullable().openapi({ description: "Width in pixels.", example: 1024 }),
    height: z.number().int().nullable().openapi({ description: "Height in pixels.", example: 768 }),
    duration_seconds: z.number().nullable().openapi({ description: "Duration.", example: null }),
    frames_per_second: z.number().nullable().openapi({ description: "Frame rate.", example: null }),
    video_codec: z.string().nullable().openapi({ description: "Video codec.", example: null }),
    audio_codec: z.string().nullable().openapi({ description: "Audio codec.", example: null }),
    bit_depth: z.number().int().nullable().openapi({ description: "Bits per sample.", example: 8 }),
    chroma_subsampling: z.string().nullable().openapi({ description: "Chroma subsampling.", example: "4:2:0" }),
    sample_rate: z.number().int().nullable().openapi({ description: "Audio sample rate.", example: null }),
    channels: z.number().int().nullable().openapi({ description: "Audio channels.", example: null }),
    has_c2pa_manifest: z.boolean().openapi({ description: "Whether the source already carried a manifest store.", example: false }),
  })
  .openapi("NormalizedInspectionFacts");

export const JobResponseSchema = z
  .object({
    job_id: JobIdSchema,
    asset_id: AssetIdSchema,
    recipe_id: RecipeIdSchema,
    recipe_version: z.number().int().min(1).openapi({ description: "Recipe version the job was admitted with.", example: 1 }),
    policy_version: z.string().openapi({ description: "Signing policy version at admission.", example: "svc.sign-policy.v1" }),
    active_plan_revision: z
      .number()
      .int()
      .openapi({ description: "Revision of the tenant's plan (GET /v1/billing/account) at admission.", example: 1 }),
    pricing_version: z.string().nullable().openapi({
      description:
        "The pricing version the job's quote was reserved under (GET /v1/billing/pricing); null when the tenant is not metered by the prepaid wallet.",
      example: "svc.pricing.2026-11.1",
    }),
    mode: z.enum(["standard", "express"]).openapi({ description: "Processing mode.", example: "standard" }),
    state: z.enum(JOB_STATES).openapi({
      description:
        "Job state. `accepted`: admitted, its queue message not yet sent (the cron sweep sends it); `queued`: waiting for a worker; `running`: a worker holds the job's lease, renewed at every finished step (a lapsed lease is queued again by the sweep; after 6 attempts the job fails with `svc.jobs.attempts_exhausted`); `cancel_requested`: cancellation asked while running. Terminal: `completed` (with `result`), `failed` (the service could not finish it), `rejected` (its input cannot be processed, e.g. `svc.jobs.decode_failed`), `canceled`, `expired` (not started within 24 hours of admission, `svc.jobs.expired`). `failed`, `rejected` and `expired` carry `error_code` and send the `job.failed` event.",
      example: "queued",
    }),
    progress: JobProgressResponseSchema,
    steps: z.array(JobStepResponseSchema).openapi({ description: "The recipe's steps, in order." }),
    media_inspection: FactsSchema.nullable().openapi({ description: "What inspection found in the source bytes." }),
    error_code: z.string().nullable().openapi({ description: "Set when the job failed or was rejected.", example: null }),
    error_message: z.string().nullable().openapi({ description: "Human-readable reason for error_code.", example: null }),
    cancel_requested_at: Timestamp("When cancellation was requested.").nullable(),
    terminal_at: Timestamp("When the job reached a terminal state.").nullable(),
    created_at: Timestamp("When the job was admitted."),
    result: JobResultResponseSchema.nullable().openapi({ description: "Present only for a completed job." }),
  })
  .openapi("JobResponse");

export const ExpressSignResponseSchema = JobResponseSchema.extend({
  download: DownloadResponseSchema.nullable().openapi({
    description: "A download capability for the published output; present only when the job completed and its output is deliverable.",
  }),
}).openapi("ExpressSignResponse");

export const JobPageSchema = z
  .object({ items: z.array(JobResponseSchema).openapi({ description: "Jobs, newest first." }), next_cursor: NextCursorSchema })
  .openapi("JobPage");

export const CancelJobRequestSchema = z
  .object({
    reason: z.string().max(500).nullable().optional().openapi({ description: "Why, for the record.", example: "Uploaded the wrong file" }),
  })
  .openapi("CancelJobRequest");

export const SignBatchRequestSchema = z
  .object({
    items: z
      .array(SignRequestSchema)
      .min(1)
      .max(SIGN_BATCH_MAXIMUM_ITEMS)
      .openapi({ description: "1 to 100 sign requests; each item's `mode` is ignored (always asynchronous)." }),
  })
  .openapi("SignBatchRequest");

export const JobParams = z.object({ job_id: JobIdSchema.openapi({ param: { name: "job_id", in: "path" } }) });
