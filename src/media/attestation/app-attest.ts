/*
 * Apple App Attest (issue #16): the enrolment attestation and the assertions of later admissions.
 *
 * Client contract (pinned; the capture area documents it to app developers):
 *  - Enrolment statement (`AttestationCheck.statement`): the JSON text
 *      {"attestation_object": "<standard padded base64 of the CBOR attestation object attestKey returned>",
 *       "key_id": "<the key id generateKey returned: standard padded base64 of 32 bytes>"}
 *    No other members. Both base64 strings must be canonical (what `base64EncodedString()` writes).
 *  - The app passes clientDataHash = SHA-256(challenge bytes) to `attestKey`, where the challenge bytes are exactly
 *    the `expectedChallenge` the server binds the enrolment to. So the leaf's nonce extension must equal
 *    SHA-256(authData ‖ SHA-256(expectedChallenge)). Facts report `challenge` = expectedChallenge (what the nonce
 *    commits to), `key_id` = standard base64 of the key id, `public_key_spki` = the leaf key's P-256 SPKI DER.
 *  - Assertions: `verifyAppAttestAssertion` with the base64 CBOR `generateAssertion` returned and the exact
 *    clientData bytes whose SHA-256 the app passed as clientDataHash.
 *
 * Policy: every certificate (leaf, intermediate, configured root) must be valid at `now`; the receipt inside the
 * attestation is not verified (not needed for admission); the credential public key in authData must equal the leaf
 * key. A development attestation (AAGUID "appattestdevelop") of an app that does not allow development, or an
 * attestation for an app id no trusted app has, verifies with `app_trusted: false` (the app-identity gate decides).
 */

import { base64, concatBytes, equalBytes, fromBase64, utf8 } from "../../platform/bytes";
import { decodeCbor } from "../../platform/cbor";
import {
  appleNonce,
  derEcdsaToRaw,
  type ParsedCert,
  p256Point,
  p256Spki,
  parseCertificate,
  parsePemCertificates,
  verifyChain,
} from "./app-attest-x509";
import type { AttestationCheck, AttestationResult, AttestationTrust, AttestationVerifier, AttestedFacts, TrustedApp } from "./types";

/** Recorded on every decision made with this verifier. */
export const APP_ATTEST_VERIFIER_VERSION = "svc-app-attest/1";

const AAGUID_PRODUCTION = Uint8Array.from([0x61, 0x70, 0x70, 0x61, 0x74, 0x74, 0x65, 0x73, 0x74, 0, 0, 0, 0, 0, 0, 0]); // "appattest" + 7 × 0
const AAGUID_DEVELOPMENT = utf8("appattestdevelop");
const FLAG_ATTESTED_DATA = 0x40;
const FLAG_EXTENSIONS = 0x80;
/** Far above a real statement (≈ 5–7 KB of base64); bounds the work spent on junk. */
const MAX_STATEMENT_CHARS = 64 * 1024;

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

function invalid(detail: string): AttestationResult {
  return { status: "invalid", detail, verifier_version: APP_ATTEST_VERIFIER_VERSION };
}

function unavailable(detail: string): AttestationResult {
  return { status: "unavailable", detail, verifier_version: APP_ATTEST_VERIFIER_VERSION };
}

/** The statement's two byte strings; a string saying why when it is not exactly the pinned JSON form. */
function parseStatement(text: string): { attestationObject: Uint8Array; keyId: Uint8Array } | string {
  if (text.length > MAX_STATEMENT_CHARS) return "statement too large";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "statement is not JSON";
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return "statement is not a JSON object";
  const members = Object.keys(json).sort().join(",");
  if (members !== "attestation_object,key_id") return "statement must have exactly attestation_object and key_id";
  const { attestation_object, key_id } = json as Record<string, unknown>;
  const attestationObject = typeof attestation_object === "string" ? fromBase64(attestation_object) : null;
  const keyId = typeof key_id === "string" ? fromBase64(key_id) : null;
  if (!attestationObject) return "attestation_object is not canonical base64";
  if (keyId?.length !== 32) return "key_id is not canonical base64 of 32 bytes";
  return { attestationObject, keyId };
}

/** The decoded `{fmt, attStmt: {x5c, receipt}, authData}` map, or why it is not one. */
function parseAttestationObject(bytes: Uint8Array): { x5c: Uint8Array[]; authData: Uint8Array } | string {
  const decoded = decodeCbor(bytes);
  if (decoded.status !== "ok" || !(decoded.value instanceof Map)) return "attestation object is not a CBOR map";
  const map = decoded.value;
  if (map.size !== 3 || map.get("fmt") !== "apple-appattest") return "attestation object is not of format apple-appattest";
  const statement = map.get("attStmt");
  const authData = map.get("authData");
  if (!(statement instanceof Map) || !(authData instanceof Uint8Array)) return "attestation object lacks attStmt or authData";
  const x5c = statement.get("x5c");
  if (!Array.isArray(x5c) || x5c.length < 2 || x5c.length > 4 || !x5c.every((c) => c instanceof Uint8Array)) {
    return "attStmt.x5c is not a chain of 2 to 4 certificates";
  }
  // Only the receipt may sit beside x5c; it is Apple's, we do not verify it.
  for (const key of statement.keys()) if (key !== "x5c" && key !== "receipt") return "attStmt has unexpected members";
  return { x5c: x5c as Uint8Array[], authData };
}

interface AuthData {
  rpIdHash: Uint8Array;
  counter: number;
  aaguid: Uint8Array;
  credentialId: Uint8Array;
  /** The credential key's uncompressed P-256 point from its COSE_Key. */
  point: Uint8Array;
}

/** Parses enrolment authenticator data (with attested credential data, no extensions), or says why not. */
function parseAuthData(a: Uint8Array): AuthData | string {
  if (a.length < 55) return "authData too short";
  const flags = a[32]!;
  if (!(flags & FLAG_ATTESTED_DATA) || flags & FLAG_EXTENSIONS) return "authData flags are not attested data without extensions";
  const counter = new DataView(a.buffer, a.byteOffset + 33, 4).getUint32(0);
  const idLength = (a[53]! << 8) | a[54]!;
  if (55 + idLength >= a.length) return "authData credential id overruns";
  const decoded = decodeCbor(a.subarray(55 + idLength));
  if (decoded.status !== "ok" || !(decoded.value instanceof Map)) return "authData credential public key is not a COSE key";
  const key = decoded.value;
  const x = key.get(-2);
  const y = key.get(-3);
  const alg = key.get(3);
  if (key.get(1) !== 2 || key.get(-1) !== 1 || (alg !== undefined && alg !== -7)) return "credential public key is not EC2 P-256";
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32) {
    return "credential public key coordinates are not 32 bytes";
  }
  return {
    rpIdHash: a.slice(0, 32),
    counter,
    aaguid: a.slice(37, 53),
    credentialId: a.slice(55, 55 + idLength),
    point: concatBytes([Uint8Array.of(0x04), x, y]),
  };
}

/** The configured roots, or an `unavailable` result when there are none usable. */
function rootsOf(trust: AttestationTrust): ParsedCert[] | AttestationResult {
  if (!trust.appleRootsPem?.trim()) return unavailable("no Apple App Attestation root configured");
  const roots = parsePemCertificates(trust.appleRootsPem);
  if (!roots || roots.length === 0) return unavailable("the configured Apple roots do not parse");
  return roots;
}

/** The trusted app whose app id hashes to `rpIdHash`, if any. */
async function appFor(apps: readonly TrustedApp[], rpIdHash: Uint8Array): Promise<TrustedApp | null> {
  for (const app of apps) {
    if (app.appleAppId && equalBytes(await sha256(utf8(app.appleAppId)), rpIdHash)) return app;
  }
  return null;
}

async function verifyAttestation(check: AttestationCheck): Promise<AttestationResult> {
  const roots = rootsOf(check.trust);
  if (!Array.isArray(roots)) return roots;
  if (!check.trust.apps.some((a) => a.appleAppId)) return unavailable("no trusted app has an Apple app id");

  const statement = parseStatement(check.statement);
  if (typeof statement === "string") return invalid(statement);
  const object = parseAttestationObject(statement.attestationObject);
  if (typeof object === "string") return invalid(object);

  const chain: ParsedCert[] = [];
  for (const der of object.x5c) {
    const parsed = parseCertificate(der);
    if (!parsed) return invalid("attStmt.x5c holds a certificate that does not parse");
    chain.push(parsed);
  }
  const chainProblem = await verifyChain(chain, roots, check.now);
  if (chainProblem) return invalid(chainProblem);
  const leaf = chain[0]!.cert;

  const auth = parseAuthData(object.authData);
  if (typeof auth === "string") return invalid(auth);

  // The nonce ties authData and our challenge to the chain Apple signed.
  const clientDataHash = await sha256(check.expectedChallenge);
  const nonce = appleNonce(leaf);
  if (!nonce) return invalid("leaf certificate lacks the App Attest nonce extension");
  if (!equalBytes(nonce, await sha256(concatBytes([object.authData, clientDataHash])))) {
    return invalid("nonce does not bind authData to the expected challenge");
  }

  const point = p256Point(leaf);
  if (!point) return invalid("leaf key is not an EC P-256 key");
  const keyId = await sha256(point);
  if (!equalBytes(keyId, auth.credentialId)) return invalid("authData credential id is not the leaf key id");
  if (!equalBytes(keyId, statement.keyId)) return invalid("key_id is not the attested key's id");
  if (!equalBytes(point, auth.point)) return invalid("authData credential public key is not the leaf key");
  if (auth.counter !== 0) return invalid("enrolment counter is not 0");

  const environment = equalBytes(auth.aaguid, AAGUID_PRODUCTION)
    ? "production"
    : equalBytes(auth.aaguid, AAGUID_DEVELOPMENT)
      ? "development"
      : null;
  if (!environment) return invalid("authData AAGUID is neither App Attest production nor development");

  const app = await appFor(check.trust.apps, auth.rpIdHash);
  const facts: AttestedFacts = {
    kind: "app_attest",
    provider_class: "apple_app_attest",
    app_id: app?.appleAppId ?? null,
    app_trusted: app !== null && (environment === "production" || app.appleAllowDevelopment === true),
    key_id: base64(keyId),
    public_key_spki: p256Spki(point),
    counter: 0,
    // Verified above: the nonce commits to SHA-256 of exactly these bytes.
    challenge: new Uint8Array(check.expectedChallenge),
    security_level: null,
    boot: null,
    os_version: null,
    os_patch_level: null,
    app_version: null,
    device_integrity: [],
    app_recognition: null,
    environment,
    issued_at: null,
    revoked: null,
  };
  return { status: "verified", facts, verifier_version: APP_ATTEST_VERIFIER_VERSION };
}

/**
 * The App Attest enrolment verifier. Invariant: `verified` only when the x5c chain reaches a configured Apple root
 * with every certificate valid at `now`, the leaf's nonce equals SHA-256(authData ‖ SHA-256(expectedChallenge)), the
 * key id (SHA-256 of the leaf's uncompressed point) equals authData's credential id and the statement's key_id, the
 * credential key is the leaf key, the counter is 0 and the AAGUID is production or development. The app id and
 * environment are facts (`app_id`, `app_trusted`, `environment`), not failures. Never throws.
 */
export class AppAttestVerifier implements AttestationVerifier {
  readonly kind = "app_attest" as const;
  readonly version = APP_ATTEST_VERIFIER_VERSION;

  async verify(check: AttestationCheck): Promise<AttestationResult> {
    try {
      return await verifyAttestation(check);
    } catch {
      // Not expected (every parser above returns its failure); a verifier never throws.
      return invalid("attestation could not be processed");
    }
  }
}

/** What an assertion is checked against: the key and counter recorded for the capture identity at enrolment. */
export interface AppAttestAssertionCheck {
  /** Standard padded base64 of the CBOR map {signature, authenticatorData} that `generateAssertion` returned. */
  assertion: string;
  /** The exact bytes whose SHA-256 the app passed to `generateAssertion` as clientDataHash. */
  clientData: Uint8Array;
  /** SPKI DER of the attested key (`AttestedFacts.public_key_spki` at enrolment). */
  publicKeySpki: Uint8Array;
  /** The highest counter accepted so far for this key (0 after enrolment). */
  previousCounter: number;
  /** The app id the identity was enrolled for (`AttestedFacts.app_id`). */
  appId: string;
  trust: AttestationTrust;
}

/**
 * Result of one assertion. `verified` says the signature and app binding hold; whether the counter moved forward is
 * a fact (`counter_advanced`) for the admission gates (`counter_replay`), as is `app_trusted` (the app id is still
 * one of the trusted apps). `invalid`: the assertion does not verify.
 */
export type AppAttestAssertionResult =
  | { status: "verified"; counter: number; counter_advanced: boolean; app_trusted: boolean; verifier_version: string }
  | { status: "invalid"; detail: string; verifier_version: string };

/**
 * Verifies an App Attest assertion. Invariant: `verified` only when the DER ECDSA P-256 signature verifies under
 * `publicKeySpki` over nonce = SHA-256(authenticatorData ‖ SHA-256(clientData)) and authenticatorData's rpIdHash is
 * SHA-256(appId); `counter` is the signed counter as given. Never throws.
 */
export async function verifyAppAttestAssertion(check: AppAttestAssertionCheck): Promise<AppAttestAssertionResult> {
  const fail = (detail: string): AppAttestAssertionResult => ({ status: "invalid", detail, verifier_version: APP_ATTEST_VERIFIER_VERSION });
  try {
    const bytes = check.assertion.length <= MAX_STATEMENT_CHARS ? fromBase64(check.assertion) : null;
    if (!bytes) return fail("assertion is not canonical base64");
    const decoded = decodeCbor(bytes);
    if (decoded.status !== "ok" || !(decoded.value instanceof Map) || decoded.value.size !== 2) return fail("assertion is not a CBOR map");
    const signature = decoded.value.get("signature");
    const authenticatorData = decoded.value.get("authenticatorData");
    if (!(signature instanceof Uint8Array) || !(authenticatorData instanceof Uint8Array)) {
      return fail("assertion lacks signature or authenticatorData");
    }
    // 37 bytes: rpIdHash, flags, counter. Apple sets the AT flag without attested data, so the flags are not read.
    if (authenticatorData.length !== 37) return fail("authenticatorData is not 37 bytes");
    const raw = derEcdsaToRaw(signature, 32);
    if (!raw) return fail("signature is not a DER ECDSA P-256 signature");
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey(
        "spki",
        check.publicKeySpki as Uint8Array<ArrayBuffer>,
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["verify"],
      );
    } catch {
      return fail("public key is not an EC P-256 SPKI");
    }
    const nonce = await sha256(concatBytes([authenticatorData, await sha256(check.clientData)]));
    // WebCrypto hashes the nonce once more: that is the ECDSA-SHA256 signature Apple makes over the nonce.
    if (!(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, raw, nonce as Uint8Array<ArrayBuffer>))) {
      return fail("signature does not verify");
    }
    if (!equalBytes(authenticatorData.subarray(0, 32), await sha256(utf8(check.appId)))) return fail("rpIdHash is not the app id's");
    const counter = new DataView(authenticatorData.buffer, authenticatorData.byteOffset + 33, 4).getUint32(0);
    return {
      status: "verified",
      counter,
      counter_advanced: counter > check.previousCounter,
      app_trusted: check.trust.apps.some((a) => a.appleAppId === check.appId),
      verifier_version: APP_ATTEST_VERIFIER_VERSION,
    };
  } catch {
    return fail("assertion could not be processed");
  }
}
