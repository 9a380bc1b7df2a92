import type { AttestationResult, AttestedFacts } from "../media/attestation/types";
import { equalBytes } from "../platform/bytes";
import {
  ADMISSION_REASONS,
  type AdmissionDecision,
  type AdmissionReason,
  type GateCommercial,
  type GateGovernance,
  type GateInput,
  type GateReason,
  type GateVersions,
  type SecurityLevel,
} from "./gates-types";

/*
 * The capture admission gates (issue #16): one pure decision from everything the capture area gathered. Every gate
 * runs, in the fixed order of GATE_ORDER, and every failure is reported; the contract's single `reason` is the first
 * failure. The order puts what the identity is first (revoked, conflicting), then whether there is evidence at all,
 * then what the evidence says about app and device (strongest claims first), then freshness and the request binding,
 * then the media, then the business gates (governance, asset, commercial) and last whether the work can be taken.
 *
 * Facts come only from evidence that passed both evidence gates (verified and not on the revocation list). Without
 * facts the gates that only read facts (app_identity_mismatch through counter_replay) are not evaluated and are
 * listed in `not_evaluated`, never in `failed_gates`; clock_rollback and request_mismatch still check their parts that
 * need no facts.
 */

export { ADMISSION_REASONS, type AdmissionDecision, type AdmissionReason, type GateInput, type GateReason } from "./gates-types";

/** Every gate in the order it runs and in which the first failure becomes the reason. */
export const GATE_ORDER: readonly GateReason[] = ADMISSION_REASONS.filter((r): r is GateReason => r !== "passed");

/** The gate logic's own version; `admission_policy_version` extends it with the commercial and governance sources. */
export const ADMISSION_GATES_VERSION = "svc.capture-admission.v1";

/** Recorded for a gate whose authority does not exist yet (commercial before #17, governance before #18). */
export const NOT_CONFIGURED = "not_configured";

/** Contract limit for each version string of the admission detail. */
const MAX_VERSION_CHARS = 128;

/** What each reason means, for the README and the API documentation. */
export const REASON_MEANINGS: Record<AdmissionReason, string> = {
  passed: "every gate passed; a signing job was created",
  capture_identity_revoked: "the capture identity was revoked (terminal)",
  capture_identity_conflict: "the installation (or the Android key) presented belongs to another active identity of the tenant",
  evidence_unavailable:
    "the deployment has nothing configured to check this kind of evidence (roots, app keys), or Android evidence has no revocation list to be checked against",
  evidence_invalid: "the statement does not verify (format, signature, chain, binding) or its chain is revoked",
  app_identity_mismatch: "the evidence names an app that is not trusted, not the enrolled one, or from a refused environment",
  app_downgrade: "the app version is lower than one this identity already attested",
  os_downgrade: "the OS version or security patch level is lower than this identity already attested",
  security_level: "the attested key storage is weaker than the policy's minimum",
  boot_state: "the device did not attest a verified boot on a locked device (or the required integrity verdicts)",
  counter_replay: "the assertion counter did not increase past the last accepted one",
  clock_rollback: "the evidence or the decision clock is earlier than this identity's last accepted attestation",
  reinstall_restore: "the installation id differs from the enrolled one (reinstall or restore onto another install)",
  request_mismatch: "the challenge is unknown, another identity's, expired, used or wrong, or the evidence is bound elsewhere",
  media_substitution: "the uploaded object's SHA-256 is not the one the attested statement binds",
  governance_rejected:
    "a governance rule refuses the capture (svc.governance-capture.v1): a deletion of the account or of the target asset is queued or running, or a legal hold on the target asset is active",
  asset_closed: "the target asset is closed",
  commercial_rejected: "the account's commercial state (wallet) refuses the work",
  capture_work_conflict: "a job for the upload's asset is already in flight (another admission's or a sign request's)",
  capture_work_unavailable:
    "the signing pipeline cannot take this work (no signer or recipe for the media type, or the image cannot be decoded)",
};

type Outcome = "pass" | "fail" | "not_evaluated";

/** Each gate sees the input and the trusted facts (null when the evidence gates did not both pass). */
type Gate = (input: GateInput, facts: AttestedFacts | null) => Outcome;

const HEX64 = /^[0-9a-f]{64}$/;
const RANK: Record<SecurityLevel, number> = { software: 0, tee: 1, strongbox: 2 };

const verdict = (failed: boolean): Outcome => (failed ? "fail" : "pass");
const lower = (now: number | null, then: number | null): boolean => now !== null && then !== null && now < then;

/** ISO 8601 → epoch ms; NaN for anything unparseable (callers fail closed on it). */
function instant(text: string): number {
  return Date.parse(text);
}

/**
 * The key storage strength a provider's evidence stands for. Android key attestation states it (the verifier gives
 * the weaker of attestation and KeyMint levels). App Attest keys exist only inside the Secure Enclave, a separate
 * security processor: "strongbox". Play Integrity attests no key: MEETS_STRONG_INTEGRITY requires hardware-backed
 * boot attestation, so it counts as "tee", anything less as "software". Anything else: "software".
 */
export function effectiveSecurityLevel(facts: AttestedFacts): SecurityLevel {
  if (facts.security_level !== null) return facts.security_level;
  if (facts.provider_class === "apple_app_attest") return "strongbox";
  if (facts.provider_class === "google_play_integrity") {
    return facts.device_integrity.includes("MEETS_STRONG_INTEGRITY") ? "tee" : "software";
  }
  return "software";
}

/**
 * Whether verified evidence can be used at all, the one rule shared by enrolment and admission: a chain on the
 * configured revocation list is invalid (Google withdrew trust in that key), and an Android chain checked without a
 * revocation list is unavailable (it says nothing about leaked attestation keys, the keyboxes root tools replay).
 */
export function evidenceStanding(
  attestation: AttestationResult,
): { status: "usable"; facts: AttestedFacts } | { status: "invalid"; detail: string } | { status: "unavailable"; detail: string } {
  if (attestation.status === "invalid") return { status: "invalid", detail: attestation.detail };
  if (attestation.status === "unavailable") return { status: "unavailable", detail: attestation.detail };
  const f = attestation.facts;
  if (f.revoked === true) return { status: "invalid", detail: "the attestation chain is revoked" };
  if (f.provider_class === "android_key_attestation" && f.revoked === null)
    return { status: "unavailable", detail: "no Android revocation status list is configured" };
  return { status: "usable", facts: f };
}

function needsFacts(check: (input: GateInput, facts: AttestedFacts) => boolean): Gate {
  return (input, facts) => (facts === null ? "not_evaluated" : verdict(check(input, facts)));
}

/** The gates; a Record so a reason without a gate does not compile. */
const GATES: Record<GateReason, Gate> = {
  capture_identity_revoked: ({ identity }) => verdict(identity.state !== "active"),

  capture_identity_conflict: ({ identity }) => verdict(identity.conflict),

  // An Android chain checked without a revocation status list proves nothing about leaked attestation keys (the
  // keyboxes that root tools replay): without the list there is no usable evidence.
  evidence_unavailable: ({ attestation }) => verdict(evidenceStanding(attestation).status === "unavailable"),

  evidence_invalid: ({ attestation }) => verdict(evidenceStanding(attestation).status === "invalid"),

  app_identity_mismatch: needsFacts(({ identity, policy }, f) => {
    if (!f.app_trusted) return true;
    if (identity.enrolled.app_id !== null && f.app_id !== identity.enrolled.app_id) return true;
    if (f.environment !== null && !policy.allowed_environments.includes(f.environment)) return true;
    // Play Integrity always states an app verdict; a missing one is not a recognised app.
    if (
      f.provider_class === "google_play_integrity" &&
      (f.app_recognition === null || !policy.allowed_app_recognition.includes(f.app_recognition))
    ) {
      return true;
    }
    return false;
  }),

  app_downgrade: needsFacts(({ identity }, f) => lower(f.app_version, identity.enrolled.app_version)),

  // Version and patch level compared separately: a lower patch level removes security fixes whatever the version.
  os_downgrade: needsFacts(
    ({ identity }, f) => lower(f.os_version, identity.enrolled.os_version) || lower(f.os_patch_level, identity.enrolled.os_patch_level),
  ),

  security_level: needsFacts(({ policy }, f) => RANK[effectiveSecurityLevel(f)] < RANK[policy.minimum_security_level]),

  boot_state: needsFacts(({ policy }, f) => {
    // Play Integrity's device verdict is its only word on the device: always required, whatever the boot policy,
    // and at least MEETS_DEVICE_INTEGRITY (an empty required list would let a device with no verdict through).
    if (f.provider_class === "google_play_integrity") {
      const required = policy.required_device_integrity.length ? policy.required_device_integrity : ["MEETS_DEVICE_INTEGRITY"];
      if (!required.every((label) => f.device_integrity.includes(label))) return true;
    }
    if (!policy.require_verified_boot) return false;
    if (f.boot !== null) return f.boot.state !== "verified" || !f.boot.device_locked;
    if (f.provider_class === "google_play_integrity") return false;
    // App Attest evidence carries no boot fact, so this policy asks nothing more of it; any other provider without
    // one cannot show a verified boot.
    return f.provider_class !== "apple_app_attest";
  }),

  // An identity that has a counter (App Attest) must present a strictly larger one; a missing counter proves nothing.
  counter_replay: needsFacts(({ identity }, f) => {
    const last = identity.enrolled.counter;
    // An App Attest identity always has a counter: a missing or non-finite one is no proof of freshness.
    if (last === null) return identity.kind === "app_attest";
    if (!Number.isFinite(last)) return true;
    return f.counter === null || !Number.isFinite(f.counter) || f.counter <= last;
  }),

  clock_rollback: ({ now, identity, policy }, facts) => {
    const decidedAt = now.getTime();
    if (Number.isNaN(decidedAt)) return "fail";
    const { last_attested_at, last_evidence_issued_at } = identity.enrolled;
    if (last_attested_at !== null) {
      const last = instant(last_attested_at);
      const tolerance = policy.clock_skew_tolerance_ms;
      if (!Number.isFinite(tolerance) || tolerance < 0) return "fail";
      if (Number.isNaN(last) || decidedAt < last - tolerance) return "fail";
    }
    // The provider's own clock must not go backwards either (an older verdict presented after a newer one).
    if (facts?.issued_at && last_evidence_issued_at !== null) {
      const issued = instant(facts.issued_at);
      const last = instant(last_evidence_issued_at);
      if (Number.isNaN(issued) || Number.isNaN(last) || issued < last) return "fail";
    }
    return "pass";
  },

  reinstall_restore: ({ identity, submission }) => {
    const enrolled = identity.enrolled.installation_id_sha256;
    return verdict(enrolled !== null && submission.installation_id_sha256 !== enrolled);
  },

  request_mismatch: ({ now, identity, challenge, submission }, facts) => {
    if (challenge === null || challenge.capture_identity_id !== identity.capture_identity_id) return "fail";
    const expires = instant(challenge.expires_at);
    if (Number.isNaN(expires) || !(now.getTime() < expires) || challenge.used || !challenge.secret_matches) return "fail";
    if (submission.attestation_kind !== identity.kind) return "fail";
    if (facts === null) return "pass";
    if (facts.kind !== identity.kind) return "fail";
    // Only App Attest has a stable key per identity; Android attests a fresh key per challenge, Play Integrity none.
    if (identity.kind === "app_attest" && (identity.enrolled.key_id === null || facts.key_id !== identity.enrolled.key_id)) return "fail";
    // Our challenges are 32 bytes: a short binding binds nothing.
    if (submission.expected_binding.length < 16) return "fail";
    // Verifiers already require this binding; checked again so the decision never rests on one component.
    return verdict(facts.challenge === null || !equalBytes(facts.challenge, submission.expected_binding));
  },

  media_substitution: ({ submission: { upload_sha256: stored, statement_media_sha256: bound } }) =>
    verdict(stored === null || bound === null || !HEX64.test(stored) || stored !== bound),

  governance_rejected: ({ governance }) => verdict(governance.status === "rejected"),

  asset_closed: ({ asset }) => verdict(asset?.closed === true),

  commercial_rejected: ({ commercial }) => verdict(commercial.status === "rejected"),

  capture_work_conflict: ({ capture_work }) => verdict(capture_work.conflict),

  capture_work_unavailable: ({ capture_work }) => verdict(!capture_work.available),
};

const sourceVersion = (source: GateGovernance | GateCommercial): string =>
  source.status === "not_configured" ? NOT_CONFIGURED : source.policy_version;

/**
 * `admission_policy_version`: the gates' version plus the commercial and governance sources the decision consulted,
 * e.g. "svc.capture-admission.v1+commercial:not_configured+governance:not_configured".
 */
export function admissionPolicyVersion(governance: GateGovernance, commercial: GateCommercial): string {
  return `${ADMISSION_GATES_VERSION}+commercial:${sourceVersion(commercial)}+governance:${sourceVersion(governance)}`;
}

function versionsOf(input: GateInput): GateVersions {
  const versions: GateVersions = {
    admission_policy_version: admissionPolicyVersion(input.governance, input.commercial),
    capture_policy_id: input.policy.capture_policy_id,
    capture_policy_version: input.policy.capture_policy_version,
    governance_policy_version: sourceVersion(input.governance),
    verifier_version: input.attestation.verifier_version,
    trust_snapshot_version: input.trust.version,
    revocation_snapshot_version: input.trust.revocation_version ?? "none",
  };
  for (const [name, value] of Object.entries(versions)) {
    // Configuration error, not a client input: refuse to record a version the contract cannot carry.
    if (value.length === 0 || value.length > MAX_VERSION_CHARS) throw new RangeError(`${name} must be 1..${MAX_VERSION_CHARS} characters`);
  }
  return versions;
}

/**
 * Decides one admission. Invariants: pure (no I/O, no clock: `input.now` is the decision time) and deterministic;
 * every gate of GATE_ORDER is evaluated unless its inputs do not exist (then it is in `not_evaluated`);
 * `failed_gates` holds every failure in GATE_ORDER; `reason` is `failed_gates[0]`, or `passed` when none failed,
 * exactly when `decision` is "pass". Throws only a RangeError for a configured version string that is empty or over
 * 128 characters.
 */
export function decideAdmission(input: GateInput): AdmissionDecision {
  const { attestation } = input;
  // Facts only from usable evidence (verified, not revoked, and for Android checked against a revocation list).
  const standing = evidenceStanding(attestation);
  const facts = standing.status === "usable" ? standing.facts : null;
  const failed: GateReason[] = [];
  const notEvaluated: GateReason[] = [];
  for (const gate of GATE_ORDER) {
    const outcome = GATES[gate](input, facts);
    if (outcome === "fail") failed.push(gate);
    else if (outcome === "not_evaluated") notEvaluated.push(gate);
  }
  const versions = versionsOf(input);
  const first = failed[0];
  return first === undefined
    ? { decision: "pass", reason: "passed", failed_gates: [], not_evaluated: notEvaluated, versions }
    : { decision: "reject", reason: first, failed_gates: failed, not_evaluated: notEvaluated, versions };
}
