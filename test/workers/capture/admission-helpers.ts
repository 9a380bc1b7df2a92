import { expect } from "vitest";
import { admissionBinding } from "../../../src/capture/evidence";
import { base64, fromBase64url, fromHex } from "../../../src/platform/bytes";
import type { Party } from "../../support/android-key-mint";
import { mintAssertion } from "../../support/app-attest-mint";
import { api, fixture, sha256HexOf, uploadAsset } from "../support/helpers";
import { type AndroidFacts, androidStatement, appAttestStatement, complete, enrolment, idem, installation, playStatement } from "./helpers";
import { TEST_APPLE_APP_ID } from "./trust-fixture";

/*
 * Admission test helpers: identities whose device keys the test holds, uploads, challenges, and statements in the
 * pinned admission format (src/capture/evidence.ts), minted through the same code paths a device uses.
 */

export interface AppAttestDevice {
  kind: "app_attest";
  capture_identity_id: string;
  installation: string;
  keys: CryptoKeyPair;
}

export interface AndroidDevice {
  kind: "hardware_key_attestation";
  capture_identity_id: string;
  installation: string;
  /** The key enrolled with the identity (signs each admission's binding). */
  enrolled: Party;
}

export interface PlayDevice {
  kind: "play_integrity";
  capture_identity_id: string;
  installation: string;
}

export type Device = AppAttestDevice | AndroidDevice | PlayDevice;

export async function appAttestDevice(key: string, installationId = installation()): Promise<AppAttestDevice> {
  const e = await enrolment(key, "app_attest", installationId);
  const minted = await appAttestStatement(e.challenge_secret);
  const res = await complete(key, {
    capture_identity_enrollment_id: e.capture_identity_enrollment_id,
    attestation_kind: "app_attest",
    challenge_secret: e.challenge_secret,
    statement: minted.statement,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return {
    kind: "app_attest",
    capture_identity_id: (await res.json<any>()).capture_identity_id,
    installation: installationId,
    keys: minted.keys,
  };
}

export async function androidDevice(key: string, installationId = installation()): Promise<AndroidDevice> {
  const e = await enrolment(key, "hardware_key_attestation", installationId);
  const { pem, leaf } = await androidStatement(e.challenge_secret);
  const res = await complete(key, {
    capture_identity_enrollment_id: e.capture_identity_enrollment_id,
    attestation_kind: "hardware_key_attestation",
    challenge_secret: e.challenge_secret,
    statement: pem,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return {
    kind: "hardware_key_attestation",
    capture_identity_id: (await res.json<any>()).capture_identity_id,
    installation: installationId,
    enrolled: leaf,
  };
}

export async function playDevice(key: string, installationId = installation()): Promise<PlayDevice> {
  const e = await enrolment(key, "play_integrity", installationId);
  const res = await complete(key, {
    capture_identity_enrollment_id: e.capture_identity_enrollment_id,
    attestation_kind: "play_integrity",
    challenge_secret: e.challenge_secret,
    statement: await playStatement(e.challenge_secret),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { kind: "play_integrity", capture_identity_id: (await res.json<any>()).capture_identity_id, installation: installationId };
}

/** A captured photo uploaded through the public flow. */
export async function capturedUpload(key: string, name = "sample.jpg") {
  const bytes = fixture(name);
  const uploaded = await uploadAsset(key, bytes, "image/jpeg", "capture");
  return { ...uploaded, sha256: await sha256HexOf(bytes) };
}

export async function challengeFor(key: string, captureIdentityId: string): Promise<{ challenge_id: string; challenge_secret: string }> {
  const res = await api("/v1/capture-admission-challenges", {
    method: "POST",
    key,
    body: { capture_identity_id: captureIdentityId },
    headers: idem(),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function bindingOf(secret: string, mediaSha256: string): Promise<Uint8Array> {
  return admissionBinding(fromBase64url(secret)!, fromHex(mediaSha256));
}

/** A DER ECDSA-SHA256 signature of `data` by `key` (what Android's SHA256withECDSA returns). */
export async function derSignature(key: CryptoKey, data: Uint8Array): Promise<Uint8Array> {
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, data as Uint8Array<ArrayBuffer>));
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0 && !(b[i + 1]! & 0x80)) i++;
    const v = b.subarray(i);
    return v[0]! & 0x80 ? Uint8Array.of(0x02, v.length + 1, 0, ...v) : Uint8Array.of(0x02, v.length, ...v);
  };
  const body = Uint8Array.of(...int(raw.subarray(0, 32)), ...int(raw.subarray(32)));
  return Uint8Array.of(0x30, body.length, ...body);
}

export interface StatementOptions {
  /** The media hash the device attests (default: the upload's). */
  mediaSha256?: string;
  /** App Attest counter (default 1). */
  counter?: number;
  /** Play Integrity: verdict overrides, applied to the minted verdict. */
  play?: (verdict: any) => void;
  /** Android: the fresh key's attestation options. */
  android?: AndroidFacts;
  /** Android: sign the binding with this key instead of the enrolled one. */
  signer?: Party;
}

/** An admission statement for `device`, bound to `secret` and the media hash. */
export async function admissionStatement(device: Device, secret: string, mediaSha256: string, o: StatementOptions = {}): Promise<string> {
  const media = o.mediaSha256 ?? mediaSha256;
  const binding = await bindingOf(secret, media);
  switch (device.kind) {
    case "app_attest":
      return JSON.stringify({
        media_sha256: media,
        assertion: await mintAssertion(device.keys.privateKey, TEST_APPLE_APP_ID, binding, o.counter ?? 1),
      });
    case "play_integrity":
      return JSON.stringify({ media_sha256: media, token: await playStatement(secret, undefined, o.play, binding) });
    case "hardware_key_attestation": {
      const { pem } = await androidStatement(secret, undefined, o.android, binding);
      const signature = await derSignature((o.signer ?? device.enrolled).keys.privateKey, binding);
      return JSON.stringify({ media_sha256: media, certificate_chain: pem, signature: base64(signature) });
    }
  }
}

export interface AdmissionBody {
  attestation_kind: string;
  capture_identity_id: string;
  challenge_id: string;
  challenge_secret: string;
  installation_id_sha256: string;
  statement: string;
  upload_object_id: string;
  sensor_evidence?: Record<string, unknown> | null;
  sensor_schema_version?: string | null;
}

/** A complete, passing submission for `device` (fresh challenge, fresh upload unless given). */
export async function admissionBody(
  key: string,
  device: Device,
  options: StatementOptions & {
    upload?: { objectId: string; sha256: string };
    challenge?: { challenge_id: string; challenge_secret: string };
  } = {},
): Promise<AdmissionBody> {
  const upload = options.upload ?? (await capturedUpload(key));
  const challenge = options.challenge ?? (await challengeFor(key, device.capture_identity_id));
  return {
    attestation_kind: device.kind,
    capture_identity_id: device.capture_identity_id,
    challenge_id: challenge.challenge_id,
    challenge_secret: challenge.challenge_secret,
    installation_id_sha256: device.installation,
    statement: await admissionStatement(device, challenge.challenge_secret, upload.sha256, options),
    upload_object_id: upload.objectId,
  };
}

export function admit(key: string, body: unknown, headers: Record<string, string> = {}) {
  return api("/v1/capture-admissions", { method: "POST", key, body, headers });
}
