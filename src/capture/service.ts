import type { Database } from "../db/client";
import { createAndroidKeyVerifier } from "../media/attestation/android-key";
import { AppAttestVerifier } from "../media/attestation/app-attest";
import { PlayIntegrityVerifier } from "../media/attestation/play-integrity";
import type { AttestationKind, AttestationTrust, AttestationVerifier, AttestedFacts } from "../media/attestation/types";
import { base64, base64url, equalBytes, fromBase64url, utf8 } from "../platform/bytes";
import { sha256Hex, timingSafeEqual } from "../platform/crypto";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import { evidenceStanding } from "./gates";
import type { GateChallenge } from "./gates-types";
import {
  type ChallengeRow,
  type EnrollmentRow,
  expireUnusedChallenge,
  expireUnusedEnrollment,
  findActiveConflict,
  findChallenge,
  findEnrollment,
  findIdentity,
  type IdentityRow,
  insertChallenge,
  insertEnrollment,
  insertIdentityCompletingEnrollment,
  markRevoked,
} from "./repo";

/*
 * Capture identities (issue #16): enrolment challenges, their completion with a provider attestation verified by
 * src/media/attestation, and revocation. No HTTP here; every outcome is a discriminated union the routes map.
 *
 * Challenge binding: `challenge_secret` is base64url (no padding) of 32 random bytes; those 32 bytes are the
 * verifier's `expectedChallenge`. The secret is stored only as SHA-256 of its ASCII text.
 */

/** How long an enrolment challenge can be completed. */
export const ENROLLMENT_TTL_MS = 10 * 60_000;
/** How long an admission challenge can be used (one capture, taken and uploaded right after asking). */
export const CHALLENGE_TTL_MS = 10 * 60_000;

const VERIFIERS: Record<AttestationKind, AttestationVerifier> = {
  app_attest: new AppAttestVerifier(),
  play_integrity: new PlayIntegrityVerifier(),
  hardware_key_attestation: createAndroidKeyVerifier(),
};

/** The verifier of `kind` (production policy of each). */
export function verifierFor(kind: AttestationKind): AttestationVerifier {
  return VERIFIERS[kind];
}

/** A fresh challenge secret: 43 characters of base64url over 32 CSPRNG bytes. */
export function newChallengeSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The challenge bytes a secret encodes (null when it is not 43 base64url characters of 32 bytes). */
export function challengeBytesOf(secret: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const bytes = fromBase64url(secret);
  return bytes && bytes.length === 32 ? bytes : null;
}

/** Constant-time check of a presented secret against a stored lowercase hex SHA-256. */
export async function secretMatches(presented: string, storedHash: string): Promise<boolean> {
  return timingSafeEqual(utf8(await sha256Hex(presented)), utf8(storedHash));
}

export interface EnrollmentInput {
  tenantId: string;
  apiKeyId: string;
  attestation_kind: AttestationKind;
  installation_id_sha256: string;
}

/** Creates an enrolment; the secret is in the result only (its hash is stored). */
/** Withdraws a challenge whose secret was withheld (its issue could not be audited): it expires now. */
export async function withdrawChallenge(db: Database, kind: "enrollment" | "admission", tenantId: string, id: string): Promise<void> {
  if (kind === "enrollment") await expireUnusedEnrollment(db, tenantId, id, Date.now());
  else await expireUnusedChallenge(db, tenantId, id, Date.now());
}

export async function createEnrollment(db: Database, input: EnrollmentInput, now = Date.now()) {
  const secret = newChallengeSecret();
  const row: EnrollmentRow = {
    id: newId("captureEnrollment"),
    tenantId: input.tenantId,
    attestationKind: input.attestation_kind,
    installationIdSha256: input.installation_id_sha256,
    secretHash: await sha256Hex(secret),
    expiresAt: now + ENROLLMENT_TTL_MS,
    createdAt: now,
    createdByKeyId: input.apiKeyId,
    completedAt: null,
    statementSha256: null,
    captureIdentityId: null,
  };
  await insertEnrollment(db, row);
  return { row, secret };
}

export interface CompletionInput {
  tenantId: string;
  capture_identity_enrollment_id: string;
  attestation_kind: AttestationKind;
  challenge_secret: string;
  statement: string;
}

/** The result of a completion: the identity as first enrolled (a replay answers the same). */
export interface EnrolledIdentity {
  capture_identity_id: string;
  enrolled_at: string;
  identity_version: 1;
  identity_version_id: string;
}

export type CompletionResult =
  | { status: "created" | "replayed"; identity: EnrolledIdentity }
  | { status: "not_found" }
  | { status: "secret_mismatch" }
  | { status: "kind_mismatch" }
  | { status: "expired" }
  | { status: "completed_otherwise" }
  | { status: "evidence_unavailable"; detail: string }
  | { status: "evidence_invalid"; detail: string }
  | { status: "app_untrusted" }
  | { status: "conflict" };

function enrolledView(row: IdentityRow): EnrolledIdentity {
  return {
    capture_identity_id: row.id,
    enrolled_at: new Date(row.createdAt).toISOString(),
    identity_version: 1,
    identity_version_id: row.enrolledVersionId,
  };
}

/** A completed enrolment: the same statement replays its identity, anything else is refused. */
async function completedOutcome(db: Database, enrollment: EnrollmentRow, statementSha256: string): Promise<CompletionResult> {
  if (enrollment.statementSha256 !== statementSha256 || !enrollment.captureIdentityId) return { status: "completed_otherwise" };
  const identity = await findIdentity(db, enrollment.tenantId, enrollment.captureIdentityId);
  return identity ? { status: "replayed", identity: enrolledView(identity) } : { status: "completed_otherwise" };
}

const PLATFORM_OF: Record<AttestationKind, IdentityRow["platform"]> = {
  app_attest: "ios",
  play_integrity: "android",
  hardware_key_attestation: "android",
};

function identityRow(
  enrollment: EnrollmentRow,
  facts: AttestedFacts,
  trust: AttestationTrust,
  verifierVersion: string,
  now: number,
): IdentityRow {
  const versionId = newId("identityVersion");
  const issued = facts.issued_at === null ? Number.NaN : Date.parse(facts.issued_at);
  return {
    id: newId("captureIdentity"),
    tenantId: enrollment.tenantId,
    state: "active",
    enrollmentId: enrollment.id,
    attestationKind: enrollment.attestationKind,
    providerClass: facts.provider_class,
    platform: PLATFORM_OF[enrollment.attestationKind],
    installationIdSha256: enrollment.installationIdSha256,
    appId: facts.app_id,
    keyId: facts.key_id,
    publicKeySpki: facts.public_key_spki ? base64(facts.public_key_spki) : null,
    counter: facts.counter,
    securityLevel: facts.security_level,
    bootState: facts.boot?.state ?? null,
    deviceLocked: facts.boot?.device_locked ?? null,
    osVersion: facts.os_version,
    osPatchLevel: facts.os_patch_level,
    appVersion: facts.app_version,
    environment: facts.environment,
    deviceIntegrity: JSON.stringify(facts.device_integrity),
    appRecognition: facts.app_recognition,
    trustSnapshotVersion: trust.version,
    // Only Android key attestation is checked against the revocation list.
    revocationSnapshotVersion:
      enrollment.attestationKind === "hardware_key_attestation" ? (trust.androidRevocations?.version ?? null) : null,
    verifierVersion,
    identityVersion: 1,
    identityVersionId: versionId,
    enrolledVersionId: versionId,
    lastAttestedAt: now,
    lastEvidenceIssuedAt: Number.isNaN(issued) ? null : issued,
    createdAt: now,
    revokedAt: null,
    revokedByKeyId: null,
  };
}

/**
 * Completes an enrolment. Invariant: an identity is stored only when the secret matches the enrolment's hash, the
 * enrolment is unexpired and of this kind, the kind's verifier answers `verified` for expectedChallenge = the
 * secret's 32 bytes under `trust` at `now`, the chain is not revoked, the app is trusted, and no other active
 * identity of the tenant holds the key or installation. The same completion again (same secret and statement
 * SHA-256) replays the stored result, even after expiry.
 */
export async function completeEnrollment(
  db: Database,
  trust: AttestationTrust,
  input: CompletionInput,
  now = Date.now(),
): Promise<CompletionResult> {
  const enrollment = await findEnrollment(db, input.tenantId, input.capture_identity_enrollment_id);
  if (!enrollment) return { status: "not_found" };
  const challenge = challengeBytesOf(input.challenge_secret);
  if (!challenge || !(await secretMatches(input.challenge_secret, enrollment.secretHash))) return { status: "secret_mismatch" };
  const statementSha256 = await sha256Hex(input.statement);
  if (enrollment.completedAt !== null) return completedOutcome(db, enrollment, statementSha256);
  if (input.attestation_kind !== enrollment.attestationKind) return { status: "kind_mismatch" };
  if (now >= enrollment.expiresAt) return { status: "expired" };

  const result = await verifierFor(enrollment.attestationKind).verify({
    statement: input.statement,
    expectedChallenge: challenge,
    trust,
    now: new Date(now),
  });
  const standing = evidenceStanding(result);
  if (standing.status === "unavailable") return { status: "evidence_unavailable", detail: standing.detail };
  if (standing.status === "invalid") return { status: "evidence_invalid", detail: standing.detail };
  const facts = standing.facts;
  // The verifier guarantees the binding; checked again because an identity must never rest on another challenge.
  if (!facts.challenge || !equalBytes(facts.challenge, challenge)) return { status: "evidence_invalid", detail: "challenge mismatch" };
  if (!facts.app_trusted) return { status: "app_untrusted" };

  if (await findActiveConflict(db, input.tenantId, facts.provider_class, facts.key_id, enrollment.installationIdSha256))
    return { status: "conflict" };
  const row = identityRow(enrollment, facts, trust, result.verifier_version, now);
  if (await insertIdentityCompletingEnrollment(db, row, { statementSha256 })) return { status: "created", identity: enrolledView(row) };
  // A unique index refused it: a concurrent completion of this enrolment, or a concurrent enrolment of the key.
  const after = await findEnrollment(db, input.tenantId, enrollment.id);
  if (after?.completedAt != null) return completedOutcome(db, after, statementSha256);
  return { status: "conflict" };
}

export type RevokeResult = { status: "ok"; row: IdentityRow } | { status: "not_found" };

/** active → revoked (terminal). Revoking a revoked identity changes nothing and answers it again (idempotent). */
export async function revokeIdentity(
  db: Database,
  tenantId: string,
  id: string,
  apiKeyId: string,
  now = Date.now(),
): Promise<RevokeResult> {
  const moved = await markRevoked(db, tenantId, id, apiKeyId, now);
  if (moved) return { status: "ok", row: moved };
  const row = await findIdentity(db, tenantId, id);
  return row ? { status: "ok", row } : { status: "not_found" };
}

/** The API view of an identity (never the SPKI, the enrolment or who revoked it). */
export function identityView(row: IdentityRow) {
  return {
    capture_identity_id: row.id,
    state: row.state,
    attestation_kind: row.attestationKind,
    provider_class: row.providerClass,
    platform: row.platform,
    app_id: row.appId,
    key_id: row.keyId,
    installation_id_sha256: row.installationIdSha256,
    environment: row.environment,
    security_level: row.securityLevel,
    os_version: row.osVersion,
    os_patch_level: row.osPatchLevel,
    app_version: row.appVersion,
    counter: row.counter,
    identity_version: row.identityVersion,
    identity_version_id: row.identityVersionId,
    trust_snapshot_version: row.trustSnapshotVersion,
    revocation_snapshot_version: row.revocationSnapshotVersion,
    verifier_version: row.verifierVersion,
    enrolled_at: iso(row.createdAt),
    revoked_at: iso(row.revokedAt),
  };
}

export type ChallengeResult = { status: "created"; row: ChallengeRow; secret: string } | { status: "not_found" } | { status: "revoked" };

/**
 * Issues a single-use admission challenge for an active identity of the tenant. The secret is in the result only
 * (its SHA-256 is stored); its 32 decoded bytes are what the admission's evidence is bound to.
 */
export async function createChallenge(
  db: Database,
  input: { tenantId: string; apiKeyId: string; capture_identity_id: string },
  now = Date.now(),
): Promise<ChallengeResult> {
  const identity = await findIdentity(db, input.tenantId, input.capture_identity_id);
  if (!identity) return { status: "not_found" };
  if (identity.state !== "active") return { status: "revoked" };
  const secret = newChallengeSecret();
  const row: ChallengeRow = {
    id: newId("captureChallenge"),
    tenantId: input.tenantId,
    captureIdentityId: identity.id,
    secretHash: await sha256Hex(secret),
    expiresAt: now + CHALLENGE_TTL_MS,
    createdAt: now,
    createdByKeyId: input.apiKeyId,
    usedAt: null,
  };
  await insertChallenge(db, row);
  return { status: "created", row, secret };
}

/**
 * The admission gates' view of a submitted challenge (gates-types.ts `GateChallenge`): null when the tenant has no
 * such challenge; the secret compared in constant time against the stored hash. Consuming it is the admission's job.
 */
export async function gateChallengeOf(db: Database, tenantId: string, challengeId: string, secret: string): Promise<GateChallenge | null> {
  const row = await findChallenge(db, tenantId, challengeId);
  if (!row) return null;
  return {
    capture_identity_id: row.captureIdentityId,
    expires_at: new Date(row.expiresAt).toISOString(),
    used: row.usedAt !== null,
    secret_matches: await secretMatches(secret, row.secretHash),
  };
}
