/*
 * Device attestation for capture admissions (issue #16). Each provider's evidence is checked by one
 * `AttestationVerifier`; what it establishes comes back as facts, and the capture area's admission gates (not the
 * verifiers) turn facts into the contract's reasons. Trust roots, app identities and revocation lists are
 * configuration handed in (`AttestationTrust`), never constants, so operators and tests install their own; there is
 * no way to skip a check.
 */

export type AttestationKind = "app_attest" | "play_integrity" | "hardware_key_attestation";

/** The contract's provider classes (admission detail `provider_class`). */
export type ProviderClass = "apple_app_attest" | "google_play_integrity" | "android_key_attestation";

/** One app the deployment accepts captures from, as each provider names it. */
export interface TrustedApp {
  /** Apple: `TEAMID.bundle.id`. */
  appleAppId?: string;
  /** Apple: accept development (sandbox) attestations too (default: production only). */
  appleAllowDevelopment?: boolean;
  /** Android: the package name. */
  androidPackageName?: string;
  /** Android: SHA-256 digests of the app's signing certificates, lowercase hex. */
  androidSigningCertDigests?: string[];
  /** Play Integrity: the app's decryption key (base64, 32 bytes AES) and verification key (SPKI PEM, EC P-256). */
  playIntegrityDecryptionKey?: string;
  playIntegrityVerificationKeyPem?: string;
}

/** The trust snapshot a decision is made under; `version` is recorded on every decision. */
export interface AttestationTrust {
  version: string;
  apps: TrustedApp[];
  /** Apple App Attestation root CA(s), PEM. */
  appleRootsPem?: string;
  /** Google hardware attestation roots, PEM: anchored on their public keys, not certificate bytes. */
  googleRootsPem?: string;
  /** Android attestation revocation status list (Google's JSON format) and its version. */
  androidRevocations?: { version: string; entries: Record<string, { status: string; reason?: string }> };
}

/** What a verifier established from evidence it verified. Fields a provider does not attest are null. */
export interface AttestedFacts {
  kind: AttestationKind;
  provider_class: ProviderClass;
  /** The app the evidence names (Apple app id, Android package). */
  app_id: string | null;
  /** Whether that app (and its signing certificates, where attested) is one of the trusted apps. */
  app_trusted: boolean;
  /** Provider's key identity: App Attest key id (base64), Android leaf public key SHA-256 (hex); null for Play Integrity. */
  key_id: string | null;
  /** SPKI DER of the attested key (to check later assertions), when there is one. */
  public_key_spki: Uint8Array | null;
  /** App Attest counter, when attested. */
  counter: number | null;
  /** The challenge bytes the evidence is bound to, exactly as attested (compare bytes, not strings). */
  challenge: Uint8Array | null;
  security_level: "strongbox" | "tee" | "software" | null;
  boot: { state: "verified" | "self_signed" | "unverified" | "failed"; device_locked: boolean } | null;
  os_version: number | null;
  os_patch_level: number | null;
  app_version: number | null;
  /** Play Integrity device verdicts as given (e.g. MEETS_DEVICE_INTEGRITY); empty otherwise. */
  device_integrity: string[];
  /** Play Integrity app verdict (PLAY_RECOGNIZED, ...), null otherwise. */
  app_recognition: string | null;
  environment: "production" | "development" | null;
  /** When the provider says the evidence was made (Play Integrity timestamp), else null. */
  issued_at: string | null;
  /** Revocation status of the chain under the configured list (Android), null when not applicable. */
  revoked: boolean | null;
}

/**
 * Result of checking one piece of evidence. `invalid`: the evidence does not verify (bad signature, chain, format,
 * binding): the gates answer `evidence_invalid`. `unavailable`: nothing configured to check it with (no roots, no
 * key for that app): `evidence_unavailable`. Never throws.
 */
export type AttestationResult =
  | { status: "verified"; facts: AttestedFacts; verifier_version: string }
  | { status: "invalid"; detail: string; verifier_version: string }
  | { status: "unavailable"; detail: string; verifier_version: string };

/** What a statement must be bound to, and when it is checked (injectable clock: vectors verify at their own time). */
export interface AttestationCheck {
  /** The statement as submitted (base64 or text, per provider; each verifier documents its encoding). */
  statement: string;
  /** The exact bytes our challenge binds the evidence to (e.g. SHA-256 of challenge secret ‖ upload hash). */
  expectedChallenge: Uint8Array;
  trust: AttestationTrust;
  now: Date;
}

/**
 * Invariant: `verify` returns `verified` only when every signature, the chain to a configured root, the binding to
 * `expectedChallenge` and the provider's own format rules hold at `now`; anything else is `invalid` or
 * `unavailable`, with a detail that never echoes secrets.
 */
export interface AttestationVerifier {
  readonly kind: AttestationKind;
  /** Recorded on every decision (admission detail `verifier_version`), e.g. "svc-app-attest/1". */
  readonly version: string;
  verify(check: AttestationCheck): Promise<AttestationResult>;
}
