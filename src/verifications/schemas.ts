import { z } from "@hono/zod-openapi";
import { DISCLOSURE_STATES } from "../creators/schemas";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { AssetIdSchema, ObjectIdSchema } from "../uploads/schemas";
import { STATUS_CODES, STATUS_VOCABULARY_VERSION } from "./vocabulary";

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

/* POST /v1/verify: its request bodies and the verification result (also stored in a record's evidence). */

export const VerifyJsonRequestSchema = z
  .object({
    asset_id: AssetIdSchema.optional().openapi({
      description: "Verify one of your published assets (needs an API key with `verify:write`).",
      example: "ast_abcdefghij234567",
    }),
    manifest_uri: z.string().max(2048).optional().openapi({
      description:
        "Verify a manifest store published at this https URL on a configured manifest host (`{manifest_base_url}`). Fetched through an SSRF guard: no private, loopback, link-local or metadata addresses, no redirects, at most 10 MiB within 5 s. Without the asset the hard binding cannot be checked; a warning says so.",
      example: "https://manifests.example.com/m/urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6.c2pa",
    }),
  })
  .openapi("VerifyJsonRequest");

export const VerifyFormRequestSchema = z
  .object({
    file: z
      .custom<File>((v) => v instanceof File)
      .optional()
      .openapi({
        type: "string",
        format: "binary",
        description: "The file to verify (any reviewed format, at most 25 MiB). Its type is read from its bytes.",
      }),
    manifest: z
      .custom<File>((v) => v instanceof File)
      .optional()
      .openapi({
        type: "string",
        format: "binary",
        description: "Optional sidecar manifest store (`.c2pa`) for `file`, when its manifest travels beside it.",
      }),
  })
  .openapi("VerifyFormRequest");

const MatchSchema = z
  .object({
    kind: z.enum(["watermark", "fingerprint"]).openapi({ description: "What matched.", example: "watermark" }),
    algorithm: z.string().openapi({ description: "The watermark or fingerprint algorithm.", example: "svc-wm-tiledss-1" }),
    publication_id: z.string().openapi({ description: "The publication the value is registered to.", example: "pub_abcdefghij234567" }),
    manifest_id: z.string().nullable().openapi({
      description: "That publication's active manifest (GET /v1/verify/{manifest_id} or the soft-binding resolution API).",
      example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6",
    }),
    distance: z.number().int().openapi({
      description:
        "Hamming distance (0 for exact matches and watermarks). For `chromaprint`, the differing bits over the aligned frames of the file (about 8 frames a second, 32 bits each).",
      example: 0,
    }),
    score: z.number().openapi({ description: "Strength of the match, 0 to 1.", example: 0.97 }),
  })
  .openapi("SoftBindingMatch");

const RelatedPublicationSchema = z
  .object({
    manifest_id: z.string().nullable().openapi({
      description: "That publication's active manifest (null for a watermark-only publication).",
      example: "urn:c2pa:9b2e6c1d-4f3a-4e8b-9c7d-1a2b3c4d5e6f",
    }),
    published_at: z.string().nullable().openapi({ description: "When it was published.", example: "2026-11-20T09:30:00.000Z" }),
    kind: z
      .literal("fingerprint")
      .openapi({ description: "How the similarity was found: a perceptual or content fingerprint.", example: "fingerprint" }),
    algorithm: z.string().openapi({ description: "The fingerprint algorithm.", example: "iscc-image" }),
    distance: z.number().int().openapi({
      description: "Hamming distance (0: identical fingerprint; `chromaprint`: differing bits over the aligned frames).",
      example: 0,
    }),
  })
  .openapi("RelatedPublication");

const SignalsSchema = z
  .object({
    c2pa_manifest_present: z.boolean().optional().openapi({ description: "A C2PA manifest store was found.", example: true }),
    c2pa_signature_valid: z
      .boolean()
      .optional()
      .openapi({ description: "The active manifest's claim signature validates.", example: true }),
    signer_trusted: z
      .boolean()
      .optional()
      .openapi({ description: "The signing certificate chains to a configured trust anchor.", example: true }),
    timestamp_valid: z.boolean().optional().openapi({
      description: "An RFC 3161 timestamp validates and its TSA is trusted (TSA trust is separate from signer trust).",
      example: true,
    }),
    ocsp_status: z
      .enum(["good", "revoked", "unknown", "unavailable", "not_checked"])
      .optional()
      .openapi({ description: "Revocation of the signing certificate (RFC 6960); `unavailable` comes with a warning.", example: "good" }),
    watermark_present: z.boolean().optional().openapi({ description: "Our watermark was detected in the pixels.", example: true }),
    watermark_payload_valid: z.boolean().optional().openapi({
      description: "Its payload passed error correction and its checksum. Absent when no watermark was found (not applicable).",
      example: true,
    }),
    fingerprint_match: z.boolean().optional().openapi({
      description:
        "A fingerprint of the content matches a published asset: for a file with a manifest, that manifest's own publication (similar content published elsewhere is listed in `related_publications`).",
      example: true,
    }),
    anchor_match: z.boolean().optional().openapi({
      description: "The manifest's hash is in a sealed transparency-log batch and its inclusion proof verifies.",
      example: true,
    }),
  })
  .openapi({ description: "Per-signal results. A signal that was not computed is absent, and a warning says why." });

/** What a verified file states about its device-attested capture (`svc.capture`), and whether the service stands behind it. */
export const VerificationCaptureSchema = z
  .object({
    capture_admission_id: z
      .string()
      .openapi({ description: "The admission that let the capture be signed.", example: "cad_2m4k6n7p2q3r4s5t" }),
    provider_class: z
      .enum(["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"])
      .openapi({ description: "Who attested the capture device.", example: "apple_app_attest" }),
    verifier_version: z.string().openapi({ description: "The attestation verifier that checked it.", example: "svc-app-attest/1" }),
    decided_at: z.string().openapi({ description: "When the admission was decided.", example: "2026-11-25T10:00:00.000Z" }),
    media_sha256: z.string().openapi({
      description: "SHA-256 of the file as captured and attested (before signing added the manifest).",
      example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    }),
    attested_by_service: z.boolean().openapi({
      description:
        "True only when the manifest is valid, bound to these bytes and signed with this deployment's own certificate, which signs a capture statement only after a passing device-attestation admission. False: the file merely claims it.",
      example: true,
    }),
  })
  .openapi("VerificationCapture");

export const VerificationCreatorSchema = z
  .object({
    creator_ref: z.string().openapi({
      description: "The opaque creator reference the manifest carries (never a name or e-mail).",
      example: "cref_abcdefghijklmnopqrstuvwxyz",
    }),
    commitment: z.string().openapi({
      description:
        "The manifest's salted commitment to the identity (hex SHA-256). A party given the identity and its salt by the tenant's disclosure can recompute it.",
      example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    }),
    attributed_by_service: z.boolean().openapi({
      description:
        "True when the manifest is valid, bound to the bytes given (not a manifest alone, nor a sidecar whose binding cannot be checked), signed with this deployment's own certificate, its commitment is that of a creator enrolled here, and the signing tenant's share policy attributes work; otherwise the reference is only the signer's claim and nothing more is said.",
      example: true,
    }),
    disclosure_state: z.enum(DISCLOSURE_STATES).nullable().openapi({
      description:
        "What the signing tenant's share policy (`share_disclosure`) lets anyone see: `disclosed` (the name), `withheld` (reference only), `withdrawn`, `erased`, `unavailable`. Null when not attributed by the service.",
      example: "disclosed",
    }),
    name: z.string().nullable().openapi({ description: "The creator's name, when the share policy discloses it.", example: "Ada Example" }),
    brand_name: z
      .string()
      .nullable()
      .openapi({ description: "The signing tenant's brand, when its share policy attributes work.", example: "Example News" }),
  })
  .openapi("VerificationCreator");

const ClaimsSchema = z
  .object({
    origin: z
      .string()
      .nullable()
      .openapi({ description: "Who signed (the signing certificate's organization or name).", example: "Example News" }),
    generator: z.string().nullable().openapi({ description: "The software that wrote the manifest.", example: "svc 0.1.0" }),
    model: z.string().nullable().openapi({ description: "A generative model the manifest names.", example: null }),
    ai_generated: z
      .boolean()
      .nullable()
      .openapi({ description: "The manifest declares the content generated by a trained model.", example: false }),
    ai_assisted: z.boolean().nullable().openapi({ description: "The manifest declares AI-assisted or composite content.", example: false }),
    created_at: z
      .string()
      .nullable()
      .openapi({ description: "Signing time (the trusted timestamp when present).", example: "2026-11-22T10:00:00Z" }),
    creator: VerificationCreatorSchema.nullable().optional().openapi({
      description:
        "The creator the manifest attributes (its `svc.creator` assertion), or null when it names none. Stored results (a verification read back, its reports and shares) keep the reference, commitment and `attributed_by_service` only, never the name or brand: those are looked up live, so a withdrawal applies. Absent in results stored before creator attribution existed.",
    }),
    capture: VerificationCaptureSchema.nullable().optional().openapi({
      description:
        "The device-attested capture the manifest states (its `svc.capture` assertion), or null when it states none. Absent in results stored before capture admissions existed.",
    }),
  })
  .openapi("VerificationClaims");

const SignerSchema = z
  .object({
    common_name: z.string().nullable().openapi({ description: "Signing certificate subject CN.", example: "Example News C2PA signer" }),
    organization: z.string().nullable().openapi({ description: "Signing certificate subject O.", example: "Example News" }),
    issuer: z.string().nullable().openapi({ description: "Issuing CA.", example: "Example CA" }),
    serial_number: z.string().nullable().openapi({ description: "Certificate serial (hex).", example: "5d47814b0ba2fa1e" }),
    not_after: z.string().nullable().openapi({ description: "Certificate expiry.", example: "2027-11-22T00:00:00Z" }),
    timestamp: z.string().nullable().openapi({ description: "RFC 3161 timestamp time.", example: "2026-11-22T10:00:00Z" }),
    timestamp_authority: z.string().nullable().openapi({ description: "The TSA's name.", example: "Example TSA" }),
  })
  .openapi("VerificationSigner");

export const VerificationResultSchema = z
  .object({
    status: z.enum(STATUS_CODES).openapi({
      description: `One of 16 closed codes (${STATUS_VOCABULARY_VERSION}; table at /docs/verification-statuses).`,
      example: "verified_manifest_and_watermark_match",
    }),
    status_vocabulary_version: z
      .literal(STATUS_VOCABULARY_VERSION)
      .openapi({ description: "Version of the status table.", example: STATUS_VOCABULARY_VERSION }),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .openapi({ description: "Weighted aggregate of the signals under the status's fixed rule; null for hard failures.", example: 0.95 }),
    signals: SignalsSchema,
    claims: ClaimsSchema.nullable().openapi({ description: "What the manifest says, when there is one." }),
    matches: z.array(MatchSchema).openapi({
      description:
        "Soft-binding matches (watermark, fingerprints), used for watermark_only and fingerprint_match_only. For a file with a manifest, only matches of that manifest's publication, or a decoded watermark: a watermark naming another publication than the manifest (evidence the signer put in the file) is the one thing that yields `conflicting_provenance`.",
    }),
    related_publications: z.array(RelatedPublicationSchema).openapi({
      description:
        "Other publications whose content is similar to the file's (a fingerprint match), by any tenant, including the same content signed again. Informational: they never downgrade a valid manifest. Only public facts are shown (the publication's manifest id and publication time), never its owner, asset or publication ids; only publications still published are listed.",
    }),
    warnings: z
      .array(z.string())
      .openapi({ description: "Non-fatal issues, including every signal that was not computed and why.", example: [] }),
    developer_explanation: z.string().openapi({
      description: "Technical summary naming the underlying C2PA validation codes.",
      example: "status verified_manifest; c2pa-rs validation_state Trusted ...",
    }),
    user_explanation: z.string().openapi({
      description: "Plain-language summary for anyone.",
      example: "This file carries intact Content Credentials from a trusted signer.",
    }),
    proves: z.array(z.string()).openapi({ description: "What the evidence supports." }),
    does_not_prove: z.array(z.string()).openapi({ description: "What it does not." }),
    manifest_id: z.string().nullable().openapi({
      description: "The active manifest's label (for GET /v1/verify/{manifest_id}).",
      example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6",
    }),
    signer: SignerSchema.nullable().openapi({ description: "The signing certificate, when there is a manifest." }),
    media_type: z.string().openapi({ description: "The media type read from the bytes.", example: "image/jpeg" }),
    verification_id: z.string().nullable().openapi({
      description: "The stored verification record (authenticated calls; null for the public variant, which stores nothing).",
      example: "vfy_abcdefghij234567",
    }),
  })
  .openapi("VerificationResult");

/** A stored-object verification's durable status, or a synchronously made record (completed from the start). */
export const StoredVerificationSchema = z
  .object({
    verification_id: idSchema("verification", "Verification id (also the id of its evidence once completed)."),
    subject_type: z.enum(["uploaded_object", "stored_object", "public_url", "asset", "manifest", "receipt"]).openapi({
      description:
        "What was verified: `stored_object` for POST /v1/verifications, `uploaded_object`/`asset`/`manifest` for an authenticated POST /v1/verify, `asset` for a job's publication-time verification.",
      example: "stored_object",
    }),
    state: z.enum(["queued", "running", "completed", "failed"]).openapi({
      description:
        "Durable status; `completed` and `failed` are terminal. A verification made synchronously is `completed` from the start.",
      example: "completed",
    }),
    object_id: ObjectIdSchema.nullable().openapi({
      description: "The checked stored object; null for a file uploaded to POST /v1/verify (never stored) or a manifest URI.",
    }),
    evidence_id: z
      .string()
      .nullable()
      .openapi({ description: "GET /v1/verification-evidence/{evidence_id}; present once completed.", example: "vfy_abcdefghij234567" }),
    result: VerificationResultSchema.nullable().openapi({
      description:
        "The verification result; present when completed. For a job's publication-time verification it is derived from the reference engine's codes recorded at publication (OCSP, watermark and fingerprints were not part of that check; see the evidence), and null for a watermark-only publication, whose check was the watermark read-back.",
    }),
    error_code: z.string().nullable().openapi({
      description:
        "Why it failed (`svc.verifications.object_unavailable`; `svc.request.too_large` when its manifest needs the C2PA engine and the object is larger than `limits.verify.engine_read_maximum_bytes`).",
      example: null,
    }),
    error_message: z.string().nullable().openapi({ description: "Human-readable reason.", example: null }),
    created_at: Timestamp("When it was accepted."),
    completed_at: Timestamp("When it reached a terminal state.").nullable(),
  })
  .openapi("StoredVerificationResponse");
