import { createExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../../src/index";
import { fromBase64, fromBase64url, fromHex } from "../../../src/platform/bytes";
import {
  applicationIdEntry,
  CN,
  dn,
  int,
  KEY_DESCRIPTION_OID,
  keyDescription,
  mintCert,
  mintParty,
  O,
  type Party,
  rootOfTrustEntry,
  tagged,
  toPem,
} from "../../support/android-key-mint";
import { type MintAttestationOptions, mintAttestation, type TestCa } from "../../support/app-attest-mint";
import { b64url, mintIntegrityToken, type PlayTestKeys, playVerdict } from "../../support/play-integrity-mint";
import { api, testEnv } from "../support/helpers";
import { CAPTURE_TEST_MATERIAL, TEST_ANDROID_PACKAGE, TEST_ANDROID_SIGNING_DIGEST, TEST_APPLE_APP_ID } from "./trust-fixture";

export const idem = () => ({ "idempotency-key": crypto.randomUUID() });

/** A fresh installation id hash (64 lowercase hex). */
export function installation(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function enrolRequest(key: string, kind = "app_attest", installationId = installation()) {
  return api("/v1/capture-identity-enrollments", {
    method: "POST",
    key,
    body: { attestation_kind: kind, installation_id_sha256: installationId },
    headers: idem(),
  });
}

/** POST /v1/capture-identity-enrollments; expects 201. */
export async function enrolment(key: string, kind = "app_attest", installationId = installation()): Promise<any> {
  const res = await enrolRequest(key, kind, installationId);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export function complete(key: string, body: Record<string, unknown>) {
  return api("/v1/capture-identities", { method: "POST", key, body, headers: idem() });
}

async function pkcs8(b64: string, namedCurve: "P-256" | "P-384"): Promise<CryptoKey> {
  return crypto.subtle.importKey("pkcs8", fromBase64(b64) as Uint8Array<ArrayBuffer>, { name: "ECDSA", namedCurve }, false, ["sign"]);
}

function derOfPem(pem: string): Uint8Array {
  return fromBase64(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""))!;
}

/** The committed test Apple CA (configured as the App Attestation root by the test binding). */
export async function appleCa(): Promise<{ root: TestCa; intermediate: TestCa }> {
  const m = CAPTURE_TEST_MATERIAL;
  const key = await pkcs8(m.appleIntermediateKeyPkcs8, "P-384");
  const ca = (name: string, pem: string, privateKey: CryptoKey | null): TestCa =>
    ({ name, pem, der: derOfPem(pem), keys: { privateKey, publicKey: null } }) as unknown as TestCa;
  return {
    root: ca("Test App Attestation Root CA", m.appleRootPem, null),
    intermediate: ca(m.appleIntermediateName, m.appleIntermediatePem, key),
  };
}

/** An App Attest enrolment statement bound to `secret` (its 32 decoded bytes), with knobs. */
export async function appAttestStatement(secret: string, options: Partial<MintAttestationOptions> = {}) {
  return mintAttestation({ ca: await appleCa(), appId: TEST_APPLE_APP_ID, challenge: fromBase64url(secret)!, now: new Date(), ...options });
}

/** The committed test app's Play Integrity keys. */
export async function playKeys(): Promise<PlayTestKeys> {
  const m = CAPTURE_TEST_MATERIAL;
  return {
    decryptionKey: fromBase64(m.playDecryptionKeyBase64)!,
    decryptionKeyBase64: m.playDecryptionKeyBase64,
    signingKey: await pkcs8(m.playSigningKeyPkcs8, "P-256"),
    verificationKeyPem: m.playVerificationKeyPem,
  };
}

/**
 * A Play Integrity token for the test app whose requestHash is the secret text (= base64url of its bytes), or
 * base64url of `challenge` when given (an admission binding); `edit` changes the verdict before it is signed.
 */
export async function playStatement(
  secret: string,
  packageName = TEST_ANDROID_PACKAGE,
  edit?: (verdict: any) => void,
  challenge?: Uint8Array,
): Promise<string> {
  const verdict = playVerdict({
    packageName,
    challenge: challenge ?? fromBase64url(secret)!,
    timestampMillis: Date.now() - 1000,
    digestsB64url: [b64url(fromHex(TEST_ANDROID_SIGNING_DIGEST))],
  });
  edit?.(verdict);
  return mintIntegrityToken(verdict, await playKeys());
}

/** Calls the Worker with `env` in place of the test bindings (a deployment configured otherwise). */
export function callWith(env: Record<string, unknown>, path: string, key: string, body: unknown) {
  return worker.fetch(
    new Request(`http://svc.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...idem() },
      body: JSON.stringify(body),
    }),
    { ...testEnv, ...env } as never,
    createExecutionContext(),
  );
}

export async function expectError(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.code, text).toBe(code);
  expect(body.request_id).toMatch(/^req_[a-z2-7]{16}$/);
  return body;
}

/** Enrols and completes an identity of `kind` (App Attest or Play Integrity); returns the 201 body. */
export async function enrolledIdentity(key: string, kind: "app_attest" | "play_integrity" = "app_attest", installationId = installation()) {
  const e = await enrolment(key, kind, installationId);
  const statement =
    kind === "app_attest" ? (await appAttestStatement(e.challenge_secret)).statement : await playStatement(e.challenge_secret);
  const res = await complete(key, {
    capture_identity_enrollment_id: e.capture_identity_enrollment_id,
    attestation_kind: kind,
    challenge_secret: e.challenge_secret,
    statement,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json() as Promise<any>;
}

/** What an Android test attestation states (defaults: verified boot, locked, TEE, OS 15.0.0, patch 2026-10, app 42). */
export interface AndroidFacts {
  bootState?: number;
  locked?: boolean;
  securityLevel?: number;
  osVersion?: number;
  patchLevel?: number;
  appVersion?: number;
}

/**
 * An Android key attestation chain (PEM, leaf first) under the committed test Google root, bound to `secret` (its
 * 32 bytes) or to `challenge` when given (an admission binding).
 */
export async function androidStatement(
  secret: string,
  leaf?: Party,
  facts: AndroidFacts = {},
  challenge?: Uint8Array,
): Promise<{ pem: string; leaf: Party }> {
  const rootKey = await pkcs8(CAPTURE_TEST_MATERIAL.googleRootKeyPkcs8, "P-256");
  const rootName = dn([
    [O, "Test Google"],
    [CN, "Test Hardware Attestation Root"],
  ]);
  const interName = dn([[CN, "Test TEE attestation key"]]);
  const intermediate = await mintParty();
  const leafParty = leaf ?? (await mintParty());
  const now = Date.now();
  const interDer = await mintCert({
    subject: interName,
    issuer: rootName,
    subjectSpki: intermediate.spki,
    issuerKey: rootKey,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 365 * 86_400_000),
  });
  const kd = keyDescription({
    challenge: challenge ?? fromBase64url(secret)!,
    attestationSecurityLevel: facts.securityLevel ?? 1,
    keymasterSecurityLevel: facts.securityLevel ?? 1,
    softwareEnforced: [applicationIdEntry([[TEST_ANDROID_PACKAGE, facts.appVersion ?? 42]], [fromHex(TEST_ANDROID_SIGNING_DIGEST)])],
    hardwareEnforced: [
      rootOfTrustEntry(facts.bootState ?? 0, facts.locked ?? true),
      tagged(705, int(facts.osVersion ?? 150000)),
      tagged(706, int(facts.patchLevel ?? 202610)),
    ],
  });
  const leafDer = await mintCert({
    subject: dn([[CN, "Android Keystore Key"]]),
    issuer: interName,
    subjectSpki: leafParty.spki,
    issuerKey: intermediate.keys.privateKey,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 365 * 86_400_000),
    extensions: [{ oid: KEY_DESCRIPTION_OID, value: kd }],
  });
  return { pem: toPem([leafDer, interDer, derOfPem(CAPTURE_TEST_MATERIAL.googleRootPem)]), leaf: leafParty };
}
