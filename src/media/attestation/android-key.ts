/*
 * Android hardware key attestation (provider class `android_key_attestation`).
 *
 * Statement: the certificate chain Android's KeyStore returns for the attested key, as PEM text (CERTIFICATE blocks,
 * leaf first, normally ending with the root certificate; nothing else in the text). The leaf carries the
 * KeyDescription extension whose attestationChallenge must equal `expectedChallenge` byte for byte.
 *
 * The chain is walked by hand (issuer name = next subject, byte for byte; signature of each by the next) because real
 * chains are not RFC 5280 conformant (attestation keys with CA=false sign leaves). It is anchored on the root PUBLIC
 * KEY being one of `trust.googleRootsPem` (Google re-issues root certificates around the same key, and old chains
 * embed expired ones), either as the last certificate's key or as the key that signed the last certificate.
 *
 * Policy choices (tests pin each):
 * - Chains ending in the AOSP software attestation roots are `invalid`: their private keys are public, so nothing
 *   such a chain says is evidence. They are recognised by key hash only to say so in the detail.
 * - Leaf validity is never checked (the device writes those dates; emulators even invert them).
 * - Every other certificate except the anchor must have started (notBefore ≤ now). Expiry: policy "google" (the
 *   default) ignores it for factory-provisioned chains, whose keys are burned into devices and outlive their
 *   certificates, and enforces it for remotely provisioned ones (intermediates named O=Google LLC, short-lived by
 *   design instead of revocation); policy "strict" enforces it everywhere.
 * - Only the leaf may carry a KeyDescription: an attested key signing a further "leaf" would otherwise mint its own.
 * - Unknown authorization tags are skipped (see android-key-der.ts); a known tag twice is refused.
 * - RootOfTrust absent → boot unverified, unlocked; deviceLocked read as BER (0x01 counts as TRUE).
 * - security_level is the weaker of attestationSecurityLevel and keymasterSecurityLevel.
 * - revoked: any certificate of the chain (serial as lowercase hex) listed in `trust.androidRevocations`, whatever
 *   its status (REVOKED and SUSPENDED both withdraw trust); null when no list is configured.
 */
import { equalBytes, hex } from "../../platform/bytes";
import { sha256Hex } from "../../platform/crypto";
import { verifySignedBy } from "./android-key-chain";
import {
  AndroidKeyFormatError,
  type AuthorizationList,
  KEY_DESCRIPTION_OID,
  type KeyDescription,
  parseCertificate,
  parseKeyDescription,
  pemCertificates,
  type RawCertificate,
} from "./android-key-der";
import type { AttestationCheck, AttestationResult, AttestationTrust, AttestationVerifier, AttestedFacts } from "./types";

/** Recorded on every decision; bump when a policy choice above changes. */
export const ANDROID_KEY_VERIFIER_VERSION = "svc-android-key/1";

/** SHA-256 of the SPKI of the AOSP software attestation roots (EC P-256, RSA-1024): recognised, never trusted. */
export const ANDROID_SOFTWARE_ROOT_SPKI_SHA256: readonly string[] = [
  "d5100c7942ef2e8310dc30ef82729680cf48d690735c3f68179a33c7c370f286",
  "f2c4746f545946c100e72297f8f946344d7052f03a2f694221f9c893b0e6f711",
];

/** "google": expiry ignored for factory chains, enforced for remotely provisioned ones; "strict": enforced everywhere. */
export type AndroidExpiryPolicy = "google" | "strict";

/** Verifier policy; the default is Google's (expiry "google"). */
export interface AndroidKeyVerifierOptions {
  expiry?: AndroidExpiryPolicy;
}

const MAX_STATEMENT_CHARS = 64 * 1024;
const MAX_CERTS = 10;
const SECURITY_LEVELS = ["software", "tee", "strongbox"] as const;
const BOOT_STATES = ["verified", "self_signed", "unverified", "failed"] as const;

class Invalid extends Error {}

async function loadRoots(trust: AttestationTrust | undefined): Promise<RawCertificate[] | null> {
  if (!trust?.googleRootsPem?.trim()) return null;
  try {
    const roots: RawCertificate[] = [];
    for (const root of pemCertificates(trust.googleRootsPem).map(parseCertificate)) {
      // The AOSP software root's private key is public: configured by mistake, it must still anchor nothing.
      if (!ANDROID_SOFTWARE_ROOT_SPKI_SHA256.includes(await sha256Hex(root.spki))) roots.push(root);
    }
    return roots.length > 0 ? roots : null;
  } catch {
    return null;
  }
}

/** Index of the first certificate that is NOT trusted by key (the anchor itself is not date-checked). */
async function anchor(chain: RawCertificate[], roots: RawCertificate[]): Promise<number> {
  const last = chain[chain.length - 1]!;
  if (roots.some((r) => equalBytes(r.spki, last.spki))) return chain.length - 1;
  for (const root of roots) {
    if (equalBytes(root.subject, last.issuer) && (await verifySignedBy(last.signatureAlgorithmOid, last.tbs, last.signature, root.spki))) {
      return chain.length;
    }
  }
  if (ANDROID_SOFTWARE_ROOT_SPKI_SHA256.includes(await sha256Hex(last.spki))) {
    throw new Invalid("chain ends in the Android software attestation root: security level software, not trusted");
  }
  throw new Invalid("chain does not end at a configured Google attestation root key");
}

async function walk(chain: RawCertificate[], anchored: number, now: Date, expiry: AndroidExpiryPolicy): Promise<void> {
  for (let i = 0; i + 1 < chain.length; i++) {
    const cert = chain[i]!;
    const issuer = chain[i + 1]!;
    if (!equalBytes(cert.issuer, issuer.subject)) throw new Invalid(`certificate ${i}: issuer name does not match certificate ${i + 1}`);
    if (!(await verifySignedBy(cert.signatureAlgorithmOid, cert.tbs, cert.signature, issuer.spki))) {
      throw new Invalid(`certificate ${i}: signature does not verify`);
    }
  }
  const middle = chain.slice(1, anchored);
  const remote = middle.some((c) => c.subjectOrganizations.includes("Google LLC"));
  const checkExpiry = expiry === "strict" || remote;
  middle.forEach((cert, k) => {
    if (now < cert.notBefore) throw new Invalid(`certificate ${k + 1}: not yet valid`);
    if (checkExpiry && now > cert.notAfter) throw new Invalid(`certificate ${k + 1}: expired`);
  });
}

/** Status-list keys normalised like `serialHex` (lowercase, no leading zeros), so an operator's casing cannot hide a match. */
function listedSerials(entries: Record<string, unknown>): Set<string> {
  return new Set(
    Object.keys(entries).map((k) =>
      k
        .trim()
        .toLowerCase()
        .replace(/^0+(?=.)/, ""),
    ),
  );
}

function appFacts(list: AuthorizationList["applicationId"], trust: AttestationTrust) {
  if (!list || list.packages.length === 0) return { app_id: null, app_trusted: false, app_version: null };
  const digests = list.signatureDigests.map((d) => hex(d));
  const trusted = trust.apps.find((app) => {
    const allowed = (app.androidSigningCertDigests ?? []).map((d) => d.toLowerCase());
    return (
      app.androidPackageName !== undefined &&
      list.packages.some((p) => p.name === app.androidPackageName) &&
      digests.length > 0 &&
      // Every signer the platform reports must be one we know: one foreign signer means a different app.
      digests.every((d) => allowed.includes(d))
    );
  });
  const pkg = (trusted && list.packages.find((p) => p.name === trusted.androidPackageName)) || list.packages[0]!;
  return { app_id: pkg.name, app_trusted: trusted !== undefined, app_version: pkg.version };
}

function level(value: number, what: string): (typeof SECURITY_LEVELS)[number] {
  const l = SECURITY_LEVELS[value];
  if (!l) throw new AndroidKeyFormatError(`${what}: unknown security level ${value}`);
  return l;
}

async function facts(leaf: RawCertificate, chain: RawCertificate[], kd: KeyDescription, trust: AttestationTrust): Promise<AttestedFacts> {
  const attLevel = level(kd.attestationSecurityLevel, "attestationSecurityLevel");
  const kmLevel = level(kd.keymasterSecurityLevel, "keymasterSecurityLevel");
  const weaker = SECURITY_LEVELS[Math.min(SECURITY_LEVELS.indexOf(attLevel), SECURITY_LEVELS.indexOf(kmLevel))]!;
  const hw = kd.hardwareEnforced;
  const sw = kd.softwareEnforced;
  // softwareEnforced is what the Android OS says, not the secure hardware: for a TEE or StrongBox key the boot
  // state and OS versions count only when the hardware enforces them (absent there: unverified, unlocked, unknown).
  const hardware = weaker !== "software";
  const rot = hardware ? hw.rootOfTrust : (hw.rootOfTrust ?? sw.rootOfTrust);
  const state = rot ? BOOT_STATES[rot.verifiedBootState] : "unverified";
  if (!state) throw new AndroidKeyFormatError(`rootOfTrust: unknown verifiedBootState ${rot?.verifiedBootState}`);
  const listed = trust.androidRevocations ? listedSerials(trust.androidRevocations.entries) : null;
  return {
    kind: "hardware_key_attestation",
    provider_class: "android_key_attestation",
    ...appFacts(sw.applicationId ?? hw.applicationId, trust),
    key_id: await sha256Hex(leaf.spki),
    public_key_spki: leaf.spki,
    counter: null,
    challenge: kd.attestationChallenge,
    security_level: weaker,
    boot: { state, device_locked: rot?.deviceLocked ?? false },
    os_version: hardware ? (hw.osVersion ?? null) : (hw.osVersion ?? sw.osVersion ?? null),
    os_patch_level: hardware ? (hw.osPatchLevel ?? null) : (hw.osPatchLevel ?? sw.osPatchLevel ?? null),
    device_integrity: [],
    app_recognition: null,
    environment: null,
    issued_at: null,
    revoked: listed ? chain.some((c) => listed.has(c.serialHex)) : null,
  };
}

/**
 * Creates the Android key attestation verifier. Invariant: `verified` only when the PEM chain walks by name and
 * signature to a configured Google root key under the expiry policy, only the leaf carries a well-formed
 * KeyDescription, and its attestationChallenge equals `expectedChallenge`; no roots configured → `unavailable`.
 */
export function createAndroidKeyVerifier(options: AndroidKeyVerifierOptions = {}): AttestationVerifier {
  const expiry = options.expiry ?? "google";
  const version = ANDROID_KEY_VERIFIER_VERSION;
  return {
    kind: "hardware_key_attestation",
    version,
    async verify(check: AttestationCheck): Promise<AttestationResult> {
      const roots = await loadRoots(check.trust);
      if (!roots) return { status: "unavailable", detail: "no readable Google attestation roots configured", verifier_version: version };
      try {
        // An Invalid Date compares false both ways and would silently disable every validity check.
        if (Number.isNaN(check.now.getTime())) throw new Invalid("no valid verification time");
        if (typeof check.statement !== "string" || check.statement.length > MAX_STATEMENT_CHARS) throw new Invalid("statement too large");
        // An empty challenge binds nothing (the service's own are 32 bytes; real vectors use shorter ones).
        if (!(check.expectedChallenge instanceof Uint8Array) || check.expectedChallenge.length === 0)
          throw new Invalid("empty expected challenge");
        const chain = pemCertificates(check.statement).map(parseCertificate);
        if (chain.length < 2 || chain.length > MAX_CERTS) throw new Invalid(`chain of ${chain.length} certificates`);
        const leaf = chain[0]!;
        const extension = leaf.extensions.get(KEY_DESCRIPTION_OID);
        if (!extension) throw new Invalid("leaf has no key attestation extension");
        if (chain.slice(1).some((c) => c.extensions.has(KEY_DESCRIPTION_OID))) {
          throw new Invalid("a certificate above the leaf carries a key attestation extension");
        }
        await walk(chain, await anchor(chain, roots), check.now, expiry);
        const kd = parseKeyDescription(extension);
        if (!equalBytes(kd.attestationChallenge, check.expectedChallenge)) throw new Invalid("attestation challenge does not match");
        return { status: "verified", facts: await facts(leaf, chain, kd, check.trust), verifier_version: version };
      } catch (e) {
        const detail = e instanceof Invalid || e instanceof AndroidKeyFormatError ? e.message : "malformed statement";
        return { status: "invalid", detail, verifier_version: version };
      }
    },
  };
}
