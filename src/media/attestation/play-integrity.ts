/*
 * Google Play Integrity (issue #16): the statement is the integrity token exactly as the Play Integrity client
 * library hands it to the app (the compact JWE text, five base64url parts). Google encrypts it with the app's
 * decryption key (JWE alg A256KW, enc A256GCM) around a compact JWS (ES256) signed with the app's verification key;
 * both keys are per app and come from the trust snapshot (TrustedApp.playIntegrity*), never from the token.
 *
 * Which app: every configured app with a package name and both keys is tried. AES key wrap carries its own
 * integrity check, so a wrong decryption key fails to unwrap; the inner JWS must then verify with the SAME app's
 * verification key, and only a verified payload is read. That app's package name must equal the payload's
 * requestDetails.requestPackageName (Google issues a token under the keys of the package that requested it).
 *
 * Challenge binding (client contract): the app passes `base64url(expectedChallenge)` (RFC 4648 §5, unpadded; the
 * padded spelling that Android's Base64.URL_SAFE writes is accepted too) as the `requestHash` of a standard request
 * or the `nonce` of a classic request. Google echoes it in requestDetails; its decoded bytes must equal
 * `expectedChallenge` exactly (for a 32-byte challenge: 43 characters, inside both fields' length limits).
 *
 * Freshness: requestDetails.timestampMillis (Google's server clock) must lie within `maxAgeMs` (default 15 min)
 * before `now` and at most `maxFutureSkewMs` (default 2 min) after it. The single-use challenge is the replay
 * defence; the window bounds how long a verdict about a device is believed.
 *
 * Testing responses (testingDetails.isTestingResponse: verdicts a Play Console licence tester chose) are refused as
 * `invalid` unless the verifier is built with `acceptTestingResponses`; accepted ones report environment
 * "development".
 */

import { compactDecrypt, compactVerify, decodeProtectedHeader, importSPKI } from "jose";
import { base64url, equalBytes, fromBase64, fromBase64url, hex } from "../../platform/bytes";
import { type PlayIntegrityVerdict, parsePlayIntegrityVerdict } from "./play-integrity-verdict";
import type { AttestationCheck, AttestationResult, AttestationTrust, AttestationVerifier, AttestedFacts, TrustedApp } from "./types";

/** Recorded on every decision as `verifier_version`. */
export const PLAY_INTEGRITY_VERIFIER_VERSION = "svc-play-integrity/1";

/** Policy knobs of the Play Integrity verifier; the defaults are the production policy. */
export interface PlayIntegrityOptions {
  /** Oldest verdict accepted, by requestDetails.timestampMillis before `now` (default 15 minutes). */
  maxAgeMs?: number;
  /** Largest lead of the verdict timestamp over `now` tolerated as clock skew (default 2 minutes). */
  maxFutureSkewMs?: number;
  /** Accept licence-tester responses (default false); they report environment "development". */
  acceptTestingResponses?: boolean;
}

const MINUTE = 60_000;
// Real tokens are a few kilobytes; the bound keeps a hostile statement from costing one decryption per app.
const MAX_TOKEN_LENGTH = 65_536;
const MAX_PLAINTEXT_LENGTH = 65_536;
const COMPACT_JWE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

interface PlayApp {
  app: TrustedApp;
  packageName: string;
  decryptionKey: Uint8Array;
  verificationKey: CryptoKey;
}

/** The apps of `trust` that can open a token: package name and both keys present and well formed. */
async function playAppsOf(trust: AttestationTrust): Promise<PlayApp[]> {
  const out: PlayApp[] = [];
  for (const app of trust.apps) {
    const packageName = app.androidPackageName;
    if (!packageName || !app.playIntegrityDecryptionKey || !app.playIntegrityVerificationKeyPem) continue;
    const decryptionKey = fromBase64(app.playIntegrityDecryptionKey.trim());
    if (decryptionKey?.length !== 32) continue;
    try {
      // ES256 import fails for anything but an EC P-256 SPKI, so a misconfigured key cannot widen the algorithm.
      const verificationKey = await importSPKI(app.playIntegrityVerificationKeyPem, "ES256");
      out.push({ app, packageName, decryptionKey, verificationKey });
    } catch {
      // An unusable configured key makes that app unusable, not the statement invalid.
    }
  }
  return out;
}

/**
 * The text a client puts in `requestHash` (standard request) or `nonce` (classic request) for a challenge:
 * unpadded base64url of the challenge bytes.
 */
export function playIntegrityRequestBinding(expectedChallenge: Uint8Array): string {
  return base64url(expectedChallenge);
}

/** Bytes of an echoed nonce / requestHash: unpadded base64url, or its correctly padded spelling; null otherwise. */
function bindingBytesOf(value: string): Uint8Array | null {
  const padded = /^[A-Za-z0-9_-]+={1,2}$/.test(value);
  if (padded && value.length % 4 !== 0) return null;
  return fromBase64url(padded ? value.replace(/=+$/, "") : value);
}

/**
 * Whether the verdict names `app` with its signing certificates: the attested package equals the configured one and
 * every attested certificate digest (base64url SHA-256) is among the configured `androidSigningCertDigests` (hex).
 * No attested digests, or none configured, is not trusted: Play Integrity attests them whenever it evaluates the app.
 */
function appTrustedBy(verdict: PlayIntegrityVerdict, app: TrustedApp): boolean {
  if (verdict.packageName === null || verdict.packageName !== app.androidPackageName) return false;
  const configured = new Set((app.androidSigningCertDigests ?? []).map((d) => d.toLowerCase()));
  if (configured.size === 0 || verdict.certificateSha256Digests.length === 0) return false;
  return verdict.certificateSha256Digests.every((digest) => {
    const bytes = fromBase64url(digest);
    return bytes !== null && bytes.length === 32 && configured.has(hex(bytes));
  });
}

/**
 * Maps a verified, bound verdict to facts. Invariant: pure; `challenge` is the decoded requestHash / nonce,
 * `app_trusted` follows `appTrustedBy` against the app whose keys opened the token; fields Play Integrity does not
 * attest (key, counter, boot, OS) are null. `sdkVersion` is not reported as `os_version`: it is an API level, not
 * the key-attestation OS version the downgrade gate compares.
 */
export function playIntegrityFacts(verdict: PlayIntegrityVerdict, app: TrustedApp, challenge: Uint8Array): AttestedFacts {
  return {
    kind: "play_integrity",
    provider_class: "google_play_integrity",
    app_id: verdict.packageName ?? verdict.requestPackageName,
    app_trusted: appTrustedBy(verdict, app),
    key_id: null,
    public_key_spki: null,
    counter: null,
    challenge,
    security_level: null,
    boot: null,
    os_version: null,
    os_patch_level: null,
    app_version: verdict.versionCode,
    device_integrity: [...verdict.deviceRecognitionVerdict],
    app_recognition: verdict.appRecognitionVerdict,
    environment: verdict.isTestingResponse ? "development" : "production",
    issued_at: new Date(verdict.timestampMillis).toISOString(),
    revoked: null,
  };
}

/**
 * The Play Integrity verifier. Invariant: `verified` only for a token that decrypts (A256KW/A256GCM) under a
 * configured app's decryption key, whose inner JWS verifies (ES256 only) under that same app's verification key,
 * whose verdict parses, names that app as requestPackageName, is fresh at `now`, echoes `expectedChallenge` and is
 * not a refused testing response. `unavailable` when no app has usable Play Integrity keys; otherwise `invalid`.
 */
export class PlayIntegrityVerifier implements AttestationVerifier {
  readonly kind = "play_integrity" as const;
  readonly version = PLAY_INTEGRITY_VERIFIER_VERSION;
  readonly #maxAgeMs: number;
  readonly #maxFutureSkewMs: number;
  readonly #acceptTesting: boolean;

  constructor(options: PlayIntegrityOptions = {}) {
    this.#maxAgeMs = options.maxAgeMs ?? 15 * MINUTE;
    this.#maxFutureSkewMs = options.maxFutureSkewMs ?? 2 * MINUTE;
    this.#acceptTesting = options.acceptTestingResponses ?? false;
  }

  async verify(check: AttestationCheck): Promise<AttestationResult> {
    try {
      return await this.#verify(check);
    } catch {
      return this.#invalid("statement could not be processed");
    }
  }

  #invalid(detail: string): AttestationResult {
    return { status: "invalid", detail, verifier_version: this.version };
  }

  async #verify(check: AttestationCheck): Promise<AttestationResult> {
    const token = check.statement;
    if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !COMPACT_JWE.test(token)) {
      return this.#invalid("statement is not a compact JWE integrity token");
    }
    let header: { alg?: unknown; enc?: unknown };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return this.#invalid("token header is malformed");
    }
    if (header.alg !== "A256KW" || header.enc !== "A256GCM") return this.#invalid("token is not A256KW/A256GCM");

    const apps = await playAppsOf(check.trust);
    if (apps.length === 0) {
      return { status: "unavailable", detail: "no app has Play Integrity keys configured", verifier_version: this.version };
    }

    // Only payloads whose signature verified are collected; nothing is read from a merely decrypted one.
    const opened: { app: PlayApp; payload: Uint8Array }[] = [];
    let decrypted = false;
    for (const app of apps) {
      let inner: string;
      try {
        const { plaintext } = await compactDecrypt(token, app.decryptionKey, {
          keyManagementAlgorithms: ["A256KW"],
          contentEncryptionAlgorithms: ["A256GCM"],
          maxDecompressedLength: MAX_PLAINTEXT_LENGTH,
        });
        inner = utf8Strict.decode(plaintext);
      } catch {
        continue;
      }
      decrypted = true;
      try {
        const { payload } = await compactVerify(inner, app.verificationKey, { algorithms: ["ES256"] });
        opened.push({ app, payload });
      } catch {
        // Keys of two apps may be misconfigured as shared; try the others before giving up.
      }
    }
    if (!decrypted) return this.#invalid("token does not decrypt under any configured app's key");
    if (opened.length === 0) return this.#invalid("verdict signature does not verify under the app's verification key");

    let match: { app: PlayApp; verdict: PlayIntegrityVerdict } | null = null;
    for (const { app, payload } of opened) {
      let json: unknown;
      try {
        json = JSON.parse(utf8Strict.decode(payload));
      } catch {
        return this.#invalid("verdict is not JSON");
      }
      const parsed = parsePlayIntegrityVerdict(json);
      if (!parsed.ok) return this.#invalid(parsed.detail);
      if (parsed.verdict.requestPackageName === app.packageName) {
        match = { app, verdict: parsed.verdict };
        break;
      }
    }
    if (match === null) return this.#invalid("requestPackageName is not the app whose keys opened the token");
    const { verdict } = match;

    const nowMs = check.now instanceof Date ? check.now.getTime() : Number.NaN;
    // An invalid clock would make every comparison false and so pass the window: refuse instead.
    if (!Number.isFinite(nowMs)) return this.#invalid("no valid verification time");
    const ageMs = nowMs - verdict.timestampMillis;
    if (ageMs > this.#maxAgeMs) return this.#invalid("verdict is older than the freshness window");
    if (-ageMs > this.#maxFutureSkewMs) return this.#invalid("verdict timestamp is in the future");

    // An empty echo could only match an empty challenge, which no caller should ever bind.
    const challenge = verdict.binding.value === "" ? null : bindingBytesOf(verdict.binding.value);
    if (challenge === null) return this.#invalid(`requestDetails.${verdict.binding.field} is not base64url`);
    if (!equalBytes(challenge, check.expectedChallenge)) {
      return this.#invalid(`requestDetails.${verdict.binding.field} does not bind the expected challenge`);
    }

    if (verdict.isTestingResponse && !this.#acceptTesting) return this.#invalid("testing responses are not accepted");

    return { status: "verified", facts: playIntegrityFacts(verdict, match.app.app, challenge), verifier_version: this.version };
  }
}
