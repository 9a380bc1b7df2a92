import type { SigningProfile } from "../api-keys/controls";
import { canonicalJson } from "../catalog/canonical-json";
import type { AttestationKind } from "../media/attestation/types";
import { sha256Hex } from "../platform/crypto";
import { ADMISSION_STATEMENT_VERSION } from "./evidence";
import type { AdmissionDecision, AdmissionReason, GateReason } from "./gates-types";
import type { AdmissionRow, IdentityRow } from "./repo";

/*
 * The records of capture admissions (issue #16): how a submission is identified for replay, how sensor evidence is
 * reduced to a hash (never stored), the stored row, and its two API views. Pure; admissions.ts holds the rules.
 */

/** One capture submitted for admission (the request body). */
export interface AdmissionSubmission {
  attestation_kind: AttestationKind;
  capture_identity_id: string;
  challenge_id: string;
  challenge_secret: string;
  installation_id_sha256: string;
  statement: string;
  upload_object_id: string;
  sensor_evidence?: Record<string, unknown> | null | undefined;
  sensor_schema_version?: string | null | undefined;
}

/** Who submits it: the tenant, the key, and what the key sets for the job a pass creates. */
export interface AdmissionPrincipal {
  tenantId: string;
  apiKeyId: string;
  outputRetentionDays: number | null;
  /** The key's signing profile: a capture is signed within it, like any sign request of that key. */
  signingProfile: SigningProfile;
}

/** Sensor evidence bounds: serialized size and nesting. */
export const MAX_SENSOR_EVIDENCE_CHARS = 65_536;
const MAX_SENSOR_DEPTH = 16;

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_SENSOR_DEPTH || value === null || typeof value !== "object") return depth;
  let deepest = depth;
  for (const member of Object.values(value)) deepest = Math.max(deepest, depthOf(member, depth + 1));
  return deepest;
}

/** SHA-256 of the sensor evidence's canonical JSON, or why it is refused. */
export async function sensorDigest(
  submission: AdmissionSubmission,
): Promise<{ status: "ok"; sha256: string | null } | { status: "invalid"; message: string }> {
  const evidence = submission.sensor_evidence ?? null;
  const version = submission.sensor_schema_version ?? null;
  if ((evidence === null) !== (version === null))
    return { status: "invalid", message: "sensor_evidence and sensor_schema_version are given together or not at all." };
  if (evidence === null) return { status: "ok", sha256: null };
  if (depthOf(evidence) > MAX_SENSOR_DEPTH)
    return { status: "invalid", message: `sensor_evidence nests deeper than ${MAX_SENSOR_DEPTH} levels.` };
  let text: string;
  try {
    text = canonicalJson(evidence);
  } catch {
    // JSON admits 1e400 (Infinity once parsed): no canonical form, so no hash.
    return { status: "invalid", message: "sensor_evidence holds a number outside the finite range." };
  }
  if (text.length > MAX_SENSOR_EVIDENCE_CHARS)
    return { status: "invalid", message: `sensor_evidence is over ${MAX_SENSOR_EVIDENCE_CHARS} characters as JSON.` };
  return { status: "ok", sha256: await sha256Hex(text) };
}

/** The submission's identity for replay: every member, the secret and statement by their SHA-256. */
export async function submissionDigest(submission: AdmissionSubmission, sensorSha256: string | null): Promise<string> {
  return sha256Hex(
    canonicalJson({
      attestation_kind: submission.attestation_kind,
      capture_identity_id: submission.capture_identity_id,
      challenge_id: submission.challenge_id,
      challenge_secret_sha256: await sha256Hex(submission.challenge_secret),
      installation_id_sha256: submission.installation_id_sha256,
      statement_sha256: await sha256Hex(submission.statement),
      upload_object_id: submission.upload_object_id,
      sensor_evidence_sha256: sensorSha256,
      sensor_schema_version: submission.sensor_schema_version ?? null,
    }),
  );
}

export function admissionRow(
  id: string,
  principal: AdmissionPrincipal,
  submission: AdmissionSubmission,
  identity: IdentityRow,
  verifierVersion: string,
  decision: AdmissionDecision,
  extra: {
    digest: string;
    sensorSha256: string | null;
    statementSha256: string;
    assetId: string;
    consumedChallengeId: string | null;
    jobId: string | null;
    now: number;
  },
): AdmissionRow {
  return {
    id,
    tenantId: principal.tenantId,
    captureIdentityId: identity.id,
    challengeId: submission.challenge_id,
    consumedChallengeId: extra.consumedChallengeId,
    submissionSha256: extra.digest,
    attestationKind: submission.attestation_kind,
    providerClass: identity.providerClass,
    installationIdSha256: submission.installation_id_sha256,
    uploadObjectId: submission.upload_object_id,
    assetId: extra.assetId,
    statementSha256: extra.statementSha256,
    sensorEvidenceSha256: extra.sensorSha256,
    sensorSchemaVersion: submission.sensor_schema_version ?? null,
    decision: decision.decision,
    reason: decision.reason,
    failedGates: JSON.stringify(decision.failed_gates),
    notEvaluated: JSON.stringify(decision.not_evaluated),
    jobId: extra.jobId,
    identityVersionId: identity.identityVersionId,
    admissionPolicyVersion: decision.versions.admission_policy_version,
    capturePolicyId: decision.versions.capture_policy_id,
    capturePolicyVersion: decision.versions.capture_policy_version,
    governancePolicyVersion: decision.versions.governance_policy_version,
    verifierVersion: verifierVersion,
    trustSnapshotVersion: decision.versions.trust_snapshot_version,
    revocationSnapshotVersion: decision.versions.revocation_snapshot_version,
    evidenceSchemaVersion: ADMISSION_STATEMENT_VERSION,
    createdByKeyId: principal.apiKeyId,
    createdAt: extra.now,
  };
}

/** The submission response (SPEC "Admission submission response"). */
export function admissionResult(row: AdmissionRow) {
  return {
    capture_admission_id: row.id,
    decision: row.decision,
    reason: row.reason as AdmissionReason,
    failed_gates: JSON.parse(row.failedGates) as GateReason[],
    job_id: row.jobId,
  };
}

/** The admission detail (SPEC "Admission detail adds"), plus the gates not evaluated and the sensor schema. */
export function admissionDetail(row: AdmissionRow) {
  return {
    ...admissionResult(row),
    capture_identity_id: row.captureIdentityId,
    challenge_id: row.challengeId,
    attestation_kind: row.attestationKind,
    provider_class: row.providerClass,
    upload_object_id: row.uploadObjectId,
    asset_id: row.assetId,
    not_evaluated: JSON.parse(row.notEvaluated) as GateReason[],
    decided_at: new Date(row.createdAt).toISOString(),
    identity_version_id: row.identityVersionId,
    admission_policy_version: row.admissionPolicyVersion,
    capture_policy_id: row.capturePolicyId,
    capture_policy_version: row.capturePolicyVersion,
    governance_policy_version: row.governancePolicyVersion,
    verifier_version: row.verifierVersion,
    trust_snapshot_version: row.trustSnapshotVersion,
    revocation_snapshot_version: row.revocationSnapshotVersion,
    evidence_schema_version: row.evidenceSchemaVersion,
    sensor_schema_version: row.sensorSchemaVersion,
  };
}
