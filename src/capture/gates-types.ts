import type { AttestationKind, AttestationResult } from "../media/attestation/types";

/*
 * The inputs and output of the capture admission gates (gates.ts). Everything here is gathered by the capture area
 * (D1 rows, the verifier's result, the challenge check, configuration) before one pure call decides; nothing in
 * these shapes is read from a clock or the network by the gates themselves.
 */

/**
 * The contract's admission reason values (SPEC "Capture"), in gate order after `passed`. The schemas build their
 * enum from this list; its order is the order the gates run in.
 */
export const ADMISSION_REASONS = [
  "passed",
  "capture_identity_revoked",
  "capture_identity_conflict",
  "evidence_unavailable",
  "evidence_invalid",
  "app_identity_mismatch",
  "app_downgrade",
  "os_downgrade",
  "security_level",
  "boot_state",
  "counter_replay",
  "clock_rollback",
  "reinstall_restore",
  "request_mismatch",
  "media_substitution",
  "governance_rejected",
  "asset_closed",
  "commercial_rejected",
  "capture_work_conflict",
  "capture_work_unavailable",
] as const;

export type AdmissionReason = (typeof ADMISSION_REASONS)[number];

/** A reason a gate can fail with: every reason but `passed`. */
export type GateReason = Exclude<AdmissionReason, "passed">;

/** Key storage strength, weakest first (Android's SOFTWARE < TRUSTED_ENVIRONMENT < STRONG_BOX). */
export type SecurityLevel = "software" | "tee" | "strongbox";

/**
 * The capture identity the submission names, as stored. `enrolled` holds what the identity has accepted so far: the
 * enrolment facts, moved forward by each passing admission (the area records the new values after a pass).
 * A null member is "not attested by this provider": the gate comparing it passes.
 */
export interface GateIdentity {
  capture_identity_id: string;
  state: "active" | "revoked";
  /** True when the installation (or the Android key) presented belongs to another active identity of the tenant (found by the area). */
  conflict: boolean;
  kind: AttestationKind;
  enrolled: {
    app_id: string | null;
    /** Same encoding as `AttestedFacts.key_id` for this provider. */
    key_id: string | null;
    /** 64 lowercase hex: SHA-256 of the app's installation id, as sent at enrolment. */
    installation_id_sha256: string | null;
    os_version: number | null;
    os_patch_level: number | null;
    app_version: number | null;
    /** Highest App Attest counter accepted (0 after enrolment). */
    counter: number | null;
    /** ISO 8601: decision time of the identity's latest accepted evidence (enrolment or a passed admission). */
    last_attested_at: string | null;
    /** ISO 8601: provider-stated issue time of that evidence (`AttestedFacts.issued_at`), null when none was stated. */
    last_evidence_issued_at: string | null;
  };
}

/**
 * The admission challenge the submission names; null when no such challenge exists for this tenant. The area checks
 * the secret against the stored hash in constant time and passes only the outcome.
 */
export interface GateChallenge {
  capture_identity_id: string;
  /** ISO 8601; the challenge is expired at and after this instant. */
  expires_at: string;
  /** A previous admission already consumed it. */
  used: boolean;
  secret_matches: boolean;
}

/** What the client submitted, with what the area resolved from it. */
export interface GateSubmission {
  attestation_kind: AttestationKind;
  /** 64 lowercase hex, as sent. */
  installation_id_sha256: string;
  /** The bytes the area bound this admission's evidence to (`AttestationCheck.expectedChallenge`). */
  expected_binding: Uint8Array;
  /** SHA-256 (64 lowercase hex) of the uploaded object as stored; null when the area could not establish it. */
  upload_sha256: string | null;
  /** SHA-256 (64 lowercase hex) of the media the attested statement binds; null when the statement names none. */
  statement_media_sha256: string | null;
}

/** The capture policy in force (configuration, versioned; its id and version are recorded on the decision). */
export interface GatePolicy {
  capture_policy_id: string;
  capture_policy_version: string;
  /** Weakest key storage accepted (see `effectiveSecurityLevel` in gates.ts for providers that attest none). */
  minimum_security_level: SecurityLevel;
  /** Require a verified boot on a locked device (Android key attestation) — see the boot_state gate. */
  require_verified_boot: boolean;
  /** Play Integrity device verdict labels that must all be present when verified boot is required. */
  required_device_integrity: string[];
  /** Play Integrity app verdicts accepted (e.g. ["PLAY_RECOGNIZED"]). */
  allowed_app_recognition: string[];
  /** Evidence environments accepted; "development" covers App Attest sandbox keys and Play test responses. */
  allowed_environments: ("production" | "development")[];
  /** How far the decision clock may trail the identity's last attestation before it counts as a rollback (ms, ≥ 0). */
  clock_skew_tolerance_ms: number;
}

/** Governance (#18): pending deletions and asset legal holds (governance/deletions/state.ts `captureGovernance`). */
export type GateGovernance = { status: "not_configured" } | { status: "allowed" | "rejected"; policy_version: string };

/** The wallet (#12/#17). Until billing exists, the area passes `not_configured` and the gate passes. */
export type GateCommercial = { status: "not_configured" } | { status: "allowed" | "rejected"; policy_version: string };

/** Everything one admission decision is made from. `now` is the decision time (no clock is read). */
export interface GateInput {
  now: Date;
  identity: GateIdentity;
  attestation: AttestationResult;
  challenge: GateChallenge | null;
  submission: GateSubmission;
  policy: GatePolicy;
  /** The trust snapshot the verifier ran under (`AttestationTrust.version`, its revocation list's version or null). */
  trust: { version: string; revocation_version: string | null };
  governance: GateGovernance;
  /** The asset the capture would publish into; null when the admission creates a new one. */
  asset: { closed: boolean } | null;
  commercial: GateCommercial;
  capture_work: {
    /** Another admission for the same upload object is in flight. */
    conflict: boolean;
    /** The signing spine can take a job now (queue and signer configured and ready). */
    available: boolean;
  };
}

/** The version strings recorded on the admission detail (each at most 128 characters). */
export interface GateVersions {
  admission_policy_version: string;
  capture_policy_id: string;
  capture_policy_version: string;
  governance_policy_version: string;
  verifier_version: string;
  trust_snapshot_version: string;
  revocation_snapshot_version: string;
}

/**
 * One decision. Invariants: `failed_gates` lists every failed gate in gate order; `reason` is `failed_gates[0]`, or
 * `passed` exactly when `failed_gates` is empty, which is exactly when `decision` is "pass"; `not_evaluated` lists the
 * gates skipped because their inputs did not exist (never counted as failed).
 */
export interface AdmissionDecision {
  decision: "pass" | "reject";
  reason: AdmissionReason;
  failed_gates: GateReason[];
  not_evaluated: GateReason[];
  versions: GateVersions;
}
