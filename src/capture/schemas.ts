import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
import { ADMISSION_REASONS, GATE_ORDER, type GateReason, REASON_MEANINGS } from "./gates";

/*
 * Request and response shapes of the capture identity operations (SPEC "Capture"). The parts SPEC leaves "not
 * shown" (the enrolment request, the identity detail, revocation) are ours and documented on each field.
 */

export const ATTESTATION_KINDS = ["app_attest", "play_integrity", "hardware_key_attestation"] as const;
export const PROVIDER_CLASSES = ["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"] as const;
export const PLATFORMS = ["ios", "android"] as const;
export const IDENTITY_STATES = ["active", "revoked"] as const;

/** SPEC "Limits": capture `statement` 349528 characters. */
export const MAX_STATEMENT_CHARS = 349_528;

export const CaptureIdentityIdSchema = idSchema("captureIdentity", "Capture identity id.");
export const EnrollmentIdSchema = idSchema("captureEnrollment", "Capture identity enrolment id.");
export const IdentityVersionIdSchema = idSchema("identityVersion", "Id of one version of the identity's accepted facts.");
export const CaptureIdentityIdParams = z.object({ capture_identity_id: CaptureIdentityIdSchema });

const STATEMENT_ENCODINGS =
  '`app_attest`: the JSON text `{"attestation_object": <standard base64 of the CBOR attestKey returned>, "key_id": <standard base64 of the 32-byte key id generateKey returned>}`, with clientDataHash = SHA-256(challenge bytes). `play_integrity`: the integrity token exactly as the Play Integrity library returned it (compact JWE), requested with `requestHash` (standard request) or `nonce` (classic) = the `challenge_secret` text itself. `hardware_key_attestation`: the KeyStore certificate chain as PEM text, leaf first, for a key generated with `setAttestationChallenge(challenge bytes)`. The challenge bytes are the 32 bytes the `challenge_secret` encodes (base64url without padding).';

export const AttestationKindSchema = z.enum(ATTESTATION_KINDS).openapi({
  description: "The provider evidence the app presents: Apple App Attest, Google Play Integrity, or Android hardware key attestation.",
  example: "app_attest",
});

export const ChallengeSecretSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/)
  .openapi({
    description: "The 43-character secret of the challenge: base64url (no padding) of 32 random bytes, the challenge bytes.",
    example: "q3Jt7cVh0m3Jv2l8d6Zx1nqC0s5rY9gWfE4bTkLpA2o",
  });

const InstallationIdSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .openapi({
    description:
      "64 lowercase hex: SHA-256 of an id the app generates once per installation and keeps (a reinstall or restore makes a new one). Admissions compare it (`reinstall_restore`).",
    example: "4f2c0a9e0d1b7c3e5a6f8b9d0c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e",
  });

export const CreateEnrollmentRequestSchema = z
  .object({ attestation_kind: AttestationKindSchema, installation_id_sha256: InstallationIdSchema })
  .strict()
  .openapi("CaptureIdentityEnrollmentRequest", { description: "Starts the enrolment of one app installation." });

export const EnrollmentResponseSchema = z
  .object({
    capture_identity_enrollment_id: EnrollmentIdSchema,
    attestation_kind: AttestationKindSchema,
    challenge_secret: ChallengeSecretSchema.openapi({
      description:
        "Returned once, never again (only its SHA-256 is stored). Its 32 decoded bytes are the challenge the attestation must be bound to; see POST /v1/capture-identities for each kind's binding.",
    }),
    expires_at: Timestamp("The enrolment must be completed before this instant (10 minutes after creation)."),
  })
  .openapi("CaptureIdentityEnrollmentResponse", { description: "An enrolment challenge." });

export const CreateIdentityRequestSchema = z
  .object({
    capture_identity_enrollment_id: EnrollmentIdSchema,
    attestation_kind: AttestationKindSchema.openapi({ description: "Must equal the enrolment's kind." }),
    challenge_secret: ChallengeSecretSchema.openapi({ description: "The enrolment's challenge secret, as returned." }),
    statement: z
      .string()
      .min(1)
      .max(MAX_STATEMENT_CHARS)
      .openapi({ description: `The attestation, at most ${MAX_STATEMENT_CHARS} characters. ${STATEMENT_ENCODINGS}`, example: "{...}" }),
  })
  .strict()
  .openapi("CaptureIdentityCreateRequest", { description: "Completes an enrolment with the device's attestation." });

export const IdentityCreatedResponseSchema = z
  .object({
    capture_identity_id: CaptureIdentityIdSchema,
    enrolled_at: Timestamp("When the enrolment was completed."),
    identity_version: z.number().int().min(1).openapi({ description: "Version of the identity's facts: 1 at enrolment.", example: 1 }),
    identity_version_id: IdentityVersionIdSchema,
  })
  .openapi("CaptureIdentityCreateResponse", { description: "The enrolled identity (its first version)." });

const version = (description: string) => z.string().max(128).openapi({ description, example: "svc-app-attest/1" });

export const CaptureIdentityResponseSchema = z
  .object({
    capture_identity_id: CaptureIdentityIdSchema,
    state: z.enum(IDENTITY_STATES).openapi({
      description:
        "`active`: may request challenges and submit admissions. `revoked`: terminal; admissions answer `capture_identity_revoked`.",
      example: "active",
    }),
    attestation_kind: AttestationKindSchema,
    provider_class: z.enum(PROVIDER_CLASSES).openapi({ description: "Who attested the identity.", example: "apple_app_attest" }),
    platform: z.enum(PLATFORMS).openapi({ description: "`ios` for App Attest, `android` otherwise.", example: "ios" }),
    app_id: z.string().nullable().openapi({
      description: "The attested app: Apple `TEAMID.bundle.id` or Android package.",
      example: "TEAM123456.com.example.capture",
    }),
    key_id: z.string().nullable().openapi({
      description:
        "The provider's key identity: App Attest key id (standard base64), Android attested key's SPKI SHA-256 (hex); null for Play Integrity.",
      example: "bXktYXBwLWF0dGVzdC1rZXktaWQtMzItYnl0ZXMtbG9uZyE=",
    }),
    installation_id_sha256: InstallationIdSchema,
    environment: z
      .enum(["production", "development"])
      .nullable()
      .openapi({ description: "Attested environment, when the provider says.", example: "production" }),
    security_level: z
      .enum(["strongbox", "tee", "software"])
      .nullable()
      .openapi({ description: "Android key storage, when attested.", example: null }),
    os_version: z.number().int().nullable().openapi({ description: "Attested OS version (Android key attestation).", example: null }),
    os_patch_level: z.number().int().nullable().openapi({ description: "Attested OS patch level (YYYYMM).", example: null }),
    app_version: z.number().int().nullable().openapi({ description: "Attested app version code.", example: null }),
    counter: z.number().int().nullable().openapi({ description: "Highest App Attest counter accepted (0 at enrolment).", example: 0 }),
    identity_version: z.number().int().min(1).openapi({ description: "Current version of the accepted facts.", example: 1 }),
    identity_version_id: IdentityVersionIdSchema,
    trust_snapshot_version: version("Trust snapshot the enrolment was verified under."),
    revocation_snapshot_version: version("Android revocation list version at enrolment; null for other kinds.").nullable(),
    verifier_version: version("Verifier that checked the enrolment."),
    enrolled_at: Timestamp("When the enrolment was completed."),
    revoked_at: Timestamp("When the identity was revoked.").nullable(),
  })
  .openapi("CaptureIdentityResponse", { description: "A capture identity and the facts it was enrolled with." });

export const CaptureIdentityPageSchema = z
  .object({
    items: z.array(CaptureIdentityResponseSchema).openapi({ description: "Identities, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("CaptureIdentityPage", { description: "One page of capture identities." });

export const ChallengeIdSchema = idSchema("captureChallenge", "Admission challenge id.");

export const CreateChallengeRequestSchema = z
  .object({ capture_identity_id: CaptureIdentityIdSchema })
  .strict()
  .openapi("CaptureAdmissionChallengeRequest", { description: "Asks for a single-use admission challenge for one identity." });

export const ChallengeResponseSchema = z
  .object({
    capture_identity_id: CaptureIdentityIdSchema,
    challenge_id: ChallengeIdSchema,
    challenge_secret: ChallengeSecretSchema.openapi({
      description: "Returned once, never again (only its SHA-256 is stored). Single use: one admission consumes it.",
    }),
    expires_at: Timestamp("The challenge must be used before this instant (10 minutes after creation)."),
  })
  .openapi("CaptureAdmissionChallengeResponse", { description: "A single-use admission challenge." });

export const CaptureAdmissionIdSchema = idSchema("captureAdmission", "Capture admission id.");
export const CaptureAdmissionIdParams = z.object({ capture_admission_id: CaptureAdmissionIdSchema });

const AdmissionReasonSchema = z.enum(ADMISSION_REASONS).openapi({
  description: `Why the admission passed or was rejected: the first failed gate in the fixed order, or \`passed\`. ${ADMISSION_REASONS.map((r) => `\`${r}\`: ${REASON_MEANINGS[r]}`).join("; ")}.`,
  example: "passed",
});

const GateListSchema = (description: string) =>
  z.array(z.enum(GATE_ORDER as [GateReason, ...GateReason[]])).openapi({ description, example: [] });

const ADMISSION_STATEMENTS =
  'Bound to binding = SHA-256("svc.capture-admission.v1" ‖ the 32 challenge bytes `challenge_secret` encodes ‖ the 32-byte SHA-256 of the captured file as uploaded). A JSON object with exactly these string members: always `media_sha256` (64 lowercase hex of the captured file); `app_attest`: `assertion` (standard base64 of generateAssertion with clientDataHash = SHA-256(binding), signed by the enrolled key; its counter must exceed the last accepted one); `play_integrity`: `token` (the integrity token requested with requestHash = base64url of binding, no padding); `hardware_key_attestation`: `certificate_chain` (PEM, leaf first, of a fresh key generated with setAttestationChallenge(binding)) and `signature` (standard base64 of SHA256withECDSA or SHA256withRSA over binding by the key enrolled with this identity).';

export const CreateAdmissionRequestSchema = z
  .object({
    attestation_kind: AttestationKindSchema.openapi({ description: "The evidence kind; must be the identity's." }),
    capture_identity_id: CaptureIdentityIdSchema,
    challenge_id: ChallengeIdSchema,
    challenge_secret: ChallengeSecretSchema.openapi({ description: "The challenge's secret, as returned when it was issued." }),
    installation_id_sha256: InstallationIdSchema,
    statement: z
      .string()
      .min(1)
      .max(MAX_STATEMENT_CHARS)
      .openapi({
        description: `The admission evidence, at most ${MAX_STATEMENT_CHARS} characters. ${ADMISSION_STATEMENTS}`,
        example: "{...}",
      }),
    upload_object_id: z
      .string()
      .regex(/^aob_[a-z2-7]{16}$/)
      .openapi({
        description:
          "The captured file: the `asset_object_id` its completed upload answered. Its stored SHA-256 must be the statement's `media_sha256`.",
        example: "aob_2m4k6n7p2q3r4s5t",
      }),
    sensor_evidence: z.record(z.string(), z.unknown()).nullable().optional().openapi({
      description:
        "Optional app-defined sensor readings for the capture (at most 65,536 characters as JSON, 16 levels). Not stored: its SHA-256 (canonical JSON) is recorded and stated in the manifest's `svc.capture` assertion.",
      example: null,
    }),
    sensor_schema_version: z
      .string()
      .min(1)
      .max(128)
      .nullable()
      .optional()
      .openapi({ description: "Version of the app's sensor evidence format; given exactly when `sensor_evidence` is.", example: null }),
  })
  .strict()
  .openapi("CaptureAdmissionRequest", { description: "One capture submitted for admission." });

export const AdmissionResultSchema = z
  .object({
    capture_admission_id: CaptureAdmissionIdSchema,
    decision: z.enum(["pass", "reject"]).openapi({ description: "Terminal decision.", example: "pass" }),
    reason: AdmissionReasonSchema,
    failed_gates: GateListSchema("Every failed gate, in gate order (empty on a pass)."),
    job_id: z
      .string()
      .regex(/^job_[a-z2-7]{16}$/)
      .nullable()
      .openapi({
        description: "The signing job a pass created (GET /v1/jobs/{job_id}); null on a reject.",
        example: "job_2m4k6n7p2q3r4s5t",
      }),
  })
  .openapi("CaptureAdmissionResult", { description: "The decision on one submission." });

const versionString = (description: string, example: string) => z.string().min(1).max(128).openapi({ description, example });

export const AdmissionDetailSchema = AdmissionResultSchema.extend({
  capture_identity_id: CaptureIdentityIdSchema,
  challenge_id: ChallengeIdSchema,
  attestation_kind: AttestationKindSchema,
  provider_class: z.enum(PROVIDER_CLASSES).openapi({ description: "Who attested the identity.", example: "apple_app_attest" }),
  upload_object_id: z.string().openapi({ description: "The captured file's stored object.", example: "aob_2m4k6n7p2q3r4s5t" }),
  asset_id: z.string().openapi({ description: "The asset the capture publishes into.", example: "ast_2m4k6n7p2q3r4s5t" }),
  not_evaluated: GateListSchema(
    "Gates that could not run because their inputs did not exist (e.g. device facts of evidence that did not verify); never counted as failed.",
  ),
  decided_at: Timestamp("When the decision was made (evidence verified at this instant)."),
  identity_version_id: IdentityVersionIdSchema.openapi({
    description:
      "The identity version the decision rests on: the new version a pass created when the attested OS, patch level or app version moved forward, else the version checked against.",
  }),
  admission_policy_version: versionString(
    "The gates' version with the commercial and governance sources consulted: commercial is the pricing version the wallet was checked under, `unmetered` for a tenant the wallet does not meter (or `unpriced`); governance is the governance rule's version (`svc.governance-capture.v1`).",
    "svc.capture-admission.v1+commercial:unmetered+governance:svc.governance-capture.v1",
  ),
  capture_policy_id: z
    .string()
    .regex(/^cpv_[a-z2-7]{16}$/)
    .openapi({ description: "The capture policy applied.", example: "cpv_standardcapture2" }),
  capture_policy_version: versionString("Version of that policy.", "svc.capture-policy.standard.1"),
  governance_policy_version: versionString(
    "Governance policy consulted (`svc.governance-capture.v1`: pending deletions and asset legal holds); `not_configured` in decisions made before it existed.",
    "svc.governance-capture.v1",
  ),
  verifier_version: versionString("The attestation verifier that checked the evidence.", "svc-app-attest/1"),
  trust_snapshot_version: versionString("The trust snapshot (roots, apps) in force.", "trust-2026-11-25"),
  revocation_snapshot_version: versionString("The Android revocation list consulted, or `none` for other kinds.", "none"),
  evidence_schema_version: versionString("Format of the statement.", "svc.capture-statement.v1"),
  sensor_schema_version: z.string().nullable().openapi({ description: "As submitted.", example: null }),
}).openapi("CaptureAdmission", { description: "A stored admission decision with every version it was made under." });

export const AdmissionPageSchema = z
  .object({
    items: z.array(AdmissionDetailSchema).openapi({ description: "Admissions, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("CaptureAdmissionPage", { description: "One page of capture admissions." });
