import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";

export const VerificationHistoryResponseSchema = z
  .object({
    verification_id: z.string().openapi({ description: "Verification id.", example: "vfy_abcdefghij234567" }),
    verification_url: z
      .string()
      .regex(/^\/v1\/verification-history\/vfy_[a-z2-7]{16}$/)
      .openapi({ description: "Path of the history record.", example: "/v1/verification-history/vfy_abcdefghij234567" }),
    overall: z.enum(["valid", "invalid", "indeterminate", "recovered"]).openapi({ description: "Overall outcome.", example: "valid" }),
    subject_type: z
      .enum(["uploaded_object", "stored_object", "public_url", "asset", "manifest", "receipt"])
      .openapi({ description: "What was verified.", example: "asset" }),
    created_at: Timestamp("When it was recorded."),
    validated_at: Timestamp("When validation ran."),
    job_id: z.string().nullable().openapi({ description: "The job whose output was checked.", example: "job_abcdefghij234567" }),
    policy_version: z.string().nullable().openapi({ description: "Policy version.", example: "svc.sign-policy.v1" }),
    source_byte_length: z.number().int().nullable().openapi({ description: "Size of the checked bytes.", example: 52310 }),
    source_media_type: z.string().nullable().openapi({ description: "Media type of the checked bytes.", example: "image/jpeg" }),
    status_vocabulary_version: z
      .string()
      .nullable()
      .openapi({ description: "Status vocabulary of the verdict (null for a signing self-check).", example: null }),
    validation_path: z.string().nullable().openapi({ description: "How it was validated.", example: "c2pa.embedded" }),
  })
  .openapi("VerificationHistoryResponse");

export const VerificationEvidenceResponseSchema = z
  .object({
    verification_id: z.string().openapi({ description: "Verification id.", example: "vfy_abcdefghij234567" }),
    subject_type: z.string().openapi({ description: "What was verified.", example: "asset" }),
    overall: z.enum(["valid", "invalid", "indeterminate", "recovered"]).openapi({ description: "Overall outcome.", example: "valid" }),
    validated_at: Timestamp("When validation ran."),
    asset_id: z.string().nullable().openapi({ description: "The asset, when the subject is one.", example: "ast_abcdefghij234567" }),
    job_id: z.string().nullable().openapi({ description: "The job whose output was checked.", example: "job_abcdefghij234567" }),
    object: z
      .object({
        object_id: z.string().nullable().openapi({ description: "The checked object.", example: "aob_abcdefghij234567" }),
        media_type: z.string().nullable().openapi({ description: "Its media type.", example: "image/jpeg" }),
        byte_length: z.number().int().nullable().openapi({ description: "Its size.", example: 52310 }),
      })
      .openapi({ description: "What was checked (never its bytes)." }),
    validation_path: z
      .string()
      .nullable()
      .openapi({ description: "How it was validated: `c2pa.embedded` or `c2pa.sidecar`.", example: "c2pa.embedded" }),
    manifest: z
      .object({
        validation_state: z
          .enum(["Trusted", "Valid", "Invalid"])
          .openapi({ description: "The reference engine's verdict.", example: "Trusted" }),
        active_manifest_label: z
          .string()
          .nullable()
          .openapi({ description: "Active manifest.", example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6" }),
        success_codes: z
          .array(z.string())
          .openapi({ description: "C2PA success codes.", example: ["claimSignature.validated", "timeStamp.validated"] }),
        informational_codes: z.array(z.string()).openapi({ description: "C2PA informational codes.", example: [] }),
        failure_codes: z.array(z.string()).openapi({ description: "C2PA failure codes.", example: [] }),
        asset_binding_checked: z
          .boolean()
          .openapi({ description: "Whether the asset bytes were compared with the manifest's hard binding.", example: true }),
      })
      .nullable()
      .openapi({
        description: "What the engine computed for a signing self-check (null for a verify call: see `verdict`). Nothing here is inferred.",
      }),
    verdict: z
      .object({
        status: z.string().openapi({ description: "Status code of the verdict.", example: "verified_manifest" }),
        status_vocabulary_version: z.string().openapi({ description: "Status vocabulary.", example: "svc.verification-status.v1" }),
        confidence: z.number().nullable().openapi({ description: "Confidence (null for hard failures).", example: 0.7 }),
        signals: z
          .record(z.string(), z.union([z.boolean(), z.string()]))
          .openapi({ description: "Per-signal results (absent: not computed).", example: { c2pa_manifest_present: true } }),
        manifest_id: z
          .string()
          .nullable()
          .openapi({ description: "Active manifest label.", example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6" }),
        warnings: z.array(z.string()).openapi({ description: "Warnings, including signals not computed.", example: [] }),
        developer_explanation: z
          .string()
          .openapi({ description: "Technical summary with the C2PA codes.", example: "status verified_manifest; ..." }),
      })
      .nullable()
      .openapi({ description: "For a verify call: the verdict as answered (no bytes, no requester data)." }),
    engine: z.string().openapi({ description: "The engine and version that validated.", example: "c2pa-wasm 0.13.3" }),
    policy_version: z.string().nullable().openapi({ description: "Policy version.", example: "svc.sign-policy.v1" }),
  })
  .openapi("VerificationEvidenceResponse");

/** The `verification_id` path parameter. */
export const VerificationIdParams = z.object({
  verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }),
});
