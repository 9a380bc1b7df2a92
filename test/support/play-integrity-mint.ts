/*
 * Test stand-ins for Google's side of Play Integrity: per-app keys made in the test (configured as the app's
 * decryption and verification keys) and integrity tokens minted with them exactly as Google shapes them (a compact
 * JWS, ES256, encrypted as a compact JWE, A256KW/A256GCM). Runs in Node and workerd (jose over WebCrypto).
 */

import { CompactEncrypt, CompactSign, exportSPKI, generateKeyPair } from "jose";

/** One app's Play Integrity keys: the configured forms (base64, SPKI PEM) and the test's signing half. */
export interface PlayTestKeys {
  decryptionKey: Uint8Array;
  /** As Play Console shows it: standard base64 of the 32 AES bytes. */
  decryptionKeyBase64: string;
  signingKey: CryptoKey;
  verificationKeyPem: string;
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Fresh keys for one app (an EC P-256 signing pair; ES384 makes a P-384 one for wrong-algorithm cases). */
export async function mintPlayKeys(alg: "ES256" | "ES384" = "ES256"): Promise<PlayTestKeys> {
  const decryptionKey = crypto.getRandomValues(new Uint8Array(32));
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    decryptionKey,
    decryptionKeyBase64: base64Of(decryptionKey),
    signingKey: privateKey,
    verificationKeyPem: await exportSPKI(publicKey),
  };
}

/** Signs `payload` (an object is JSON-encoded) as a compact JWS. */
export async function signVerdict(
  payload: unknown,
  key: CryptoKey | Uint8Array,
  header: { alg: string; [k: string]: unknown } = { alg: "ES256" },
): Promise<string> {
  const bytes = payload instanceof Uint8Array ? payload : new TextEncoder().encode(JSON.stringify(payload));
  return new CompactSign(bytes).setProtectedHeader(header).sign(key);
}

/** Encrypts `text` as a compact JWE (Google's header by default). */
export async function encryptText(
  text: string,
  key: Uint8Array,
  header: { alg: string; enc: string; [k: string]: unknown } = { alg: "A256KW", enc: "A256GCM" },
): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(text)).setProtectedHeader(header).encrypt(key);
}

/** A well-formed integrity token carrying `verdict`, under `keys`. */
export async function mintIntegrityToken(verdict: unknown, keys: PlayTestKeys): Promise<string> {
  return encryptText(await signVerdict(verdict, keys.signingKey), keys.decryptionKey);
}

/** base64url without padding (what clients send as requestHash / nonce). */
export function b64url(bytes: Uint8Array): string {
  return base64Of(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The compact serialisation with one byte of part `part` (decoded) flipped, re-encoded canonically. */
export function flipByteInPart(compact: string, part: number): string {
  const parts = compact.split(".");
  const text = parts[part]!;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const i = bytes.length >> 1;
  bytes[i] = bytes[i]! ^ 0x01;
  parts[part] = b64url(bytes);
  return parts.join(".");
}

/** A standard-request verdict for `packageName`, bound to `challenge`, made at `timestampMillis`; members overridable. */
export function playVerdict(options: {
  packageName: string;
  challenge: Uint8Array;
  timestampMillis: number;
  digestsB64url?: string[];
  field?: "requestHash" | "nonce";
}): Record<string, unknown> {
  return {
    requestDetails: {
      requestPackageName: options.packageName,
      timestampMillis: String(options.timestampMillis),
      [options.field ?? "requestHash"]: b64url(options.challenge),
    },
    appIntegrity: {
      appRecognitionVerdict: "PLAY_RECOGNIZED",
      packageName: options.packageName,
      certificateSha256Digest: options.digestsB64url ?? [],
      versionCode: "42",
    },
    deviceIntegrity: { deviceRecognitionVerdict: ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY", "MEETS_STRONG_INTEGRITY"] },
    accountDetails: { appLicensingVerdict: "LICENSED" },
    environmentDetails: { playProtectVerdict: "NO_ISSUES", appAccessRiskVerdict: {} },
  };
}
