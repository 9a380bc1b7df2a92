/**
 * The Play Integrity verifier's negative matrix and policy choices, on tokens minted in the test under the test's
 * own keys configured as the app's keys (the same code path as production: there is no bypass): wrong keys,
 * tampering, wrong algorithms (JWE and JWS), unsigned payloads, freshness bounds, package and signer identity,
 * challenge binding (standard requestHash, classic nonce, padded spelling), testing responses, configuration.
 */

import { describe, expect, it } from "vitest";
import { PlayIntegrityVerifier } from "../../../src/media/attestation/play-integrity.ts";
import type { AttestationCheck, AttestationTrust, TrustedApp } from "../../../src/media/attestation/types.ts";
import { hex } from "../../../src/platform/bytes.ts";
import {
  b64url,
  encryptText,
  mintIntegrityToken,
  mintPlayKeys,
  type PlayTestKeys,
  playVerdict,
  signVerdict,
} from "../../support/play-integrity-mint.ts";

const PKG = "org.example.capture";
const NOW = new Date("2026-11-25T09:00:00.000Z");
const MINUTE = 60_000;
const challenge = crypto.getRandomValues(new Uint8Array(32));
const signerDigest = crypto.getRandomValues(new Uint8Array(32));
const verifier = new PlayIntegrityVerifier();
const keys = await mintPlayKeys();
const otherKeys = await mintPlayKeys();

function appWith(k: PlayTestKeys, packageName = PKG, digests: Uint8Array[] = [signerDigest]): TrustedApp {
  return {
    androidPackageName: packageName,
    androidSigningCertDigests: digests.map((d) => hex(d)),
    playIntegrityDecryptionKey: k.decryptionKeyBase64,
    playIntegrityVerificationKeyPem: k.verificationKeyPem,
  };
}
const trustOf = (...apps: TrustedApp[]): AttestationTrust => ({ version: "test-1", apps });
const verdictAt = (timestampMillis = NOW.getTime(), packageName = PKG) =>
  playVerdict({ packageName, challenge, timestampMillis, digestsB64url: [b64url(signerDigest)] });
const checkOf = (statement: string, trust = trustOf(appWith(keys)), now = NOW): AttestationCheck => ({
  statement,
  expectedChallenge: challenge,
  trust,
  now,
});
const run = async (statement: string, trust?: AttestationTrust, now?: Date) => verifier.verify(checkOf(statement, trust, now));

describe("Play Integrity: a well-formed token", () => {
  it("verifies a standard request (requestHash) and reports every fact", async () => {
    const result = await run(await mintIntegrityToken(verdictAt(), keys));
    expect(result).toMatchObject({
      status: "verified",
      facts: {
        kind: "play_integrity",
        provider_class: "google_play_integrity",
        app_id: PKG,
        app_trusted: true,
        app_version: 42,
        device_integrity: ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY", "MEETS_STRONG_INTEGRITY"],
        app_recognition: "PLAY_RECOGNIZED",
        environment: "production",
        issued_at: NOW.toISOString(),
        challenge,
      },
    });
  });

  it("verifies a classic request (nonce), padded or not", async () => {
    const classic = playVerdict({ packageName: PKG, challenge, timestampMillis: NOW.getTime(), field: "nonce" });
    expect((await run(await mintIntegrityToken(classic, keys))).status).toBe("verified");
    const padded = structuredClone(classic) as { requestDetails: { nonce: string } };
    padded.requestDetails.nonce += "=";
    expect((await run(await mintIntegrityToken(padded, keys))).status).toBe("verified");
    padded.requestDetails.nonce += "=";
    expect((await run(await mintIntegrityToken(padded, keys))).status).toBe("invalid");
  });

  it("finds the app among several by its keys, and uses that app's own verification key", async () => {
    const two = trustOf(appWith(otherKeys, "org.example.other"), appWith(keys));
    expect((await run(await mintIntegrityToken(verdictAt(), keys), two)).status).toBe("verified");
    // Two apps misconfigured with one decryption key: the signature and the package pick the right one.
    const shared = { ...keys, signingKey: otherKeys.signingKey, verificationKeyPem: otherKeys.verificationKeyPem };
    const both = trustOf(appWith(keys), appWith(shared, "org.example.other"));
    const result = await run(await mintIntegrityToken(verdictAt(NOW.getTime(), "org.example.other"), shared), both);
    expect(result).toMatchObject({ status: "verified", facts: { app_id: "org.example.other" } });
  });

  it("lists no device label when Google omits the list, and no app identity when the app was not evaluated", async () => {
    const v = verdictAt() as { deviceIntegrity: Record<string, unknown>; appIntegrity: Record<string, unknown> };
    v.deviceIntegrity = {};
    v.appIntegrity = { appRecognitionVerdict: "UNEVALUATED" };
    const result = await run(await mintIntegrityToken(v, keys));
    expect(result).toMatchObject({
      status: "verified",
      facts: { device_integrity: [], app_recognition: "UNEVALUATED", app_id: PKG, app_trusted: false, app_version: null },
    });
  });
});

describe("Play Integrity: keys and tampering", () => {
  it("is invalid under another app's decryption key or signed by another key", async () => {
    expect(await run(await mintIntegrityToken(verdictAt(), otherKeys))).toMatchObject({
      status: "invalid",
      detail: "token does not decrypt under any configured app's key",
    });
    const foreignSig = await encryptText(await signVerdict(verdictAt(), otherKeys.signingKey), keys.decryptionKey);
    expect(await run(foreignSig)).toMatchObject({
      status: "invalid",
      detail: "verdict signature does not verify under the app's verification key",
    });
  });

  it("never reads a payload that is only encrypted, not signed", async () => {
    expect((await run(await encryptText(JSON.stringify(verdictAt()), keys.decryptionKey))).status).toBe("invalid");
    const header = b64url(new TextEncoder().encode(JSON.stringify({ alg: "none" })));
    const unsigned = `${header}.${b64url(new TextEncoder().encode(JSON.stringify(verdictAt())))}.`;
    expect((await run(await encryptText(unsigned, keys.decryptionKey))).status).toBe("invalid");
  });

  it("refuses other JWS algorithms: HS256 keyed with the verification key's PEM, ES384", async () => {
    const hmac = await signVerdict(verdictAt(), new TextEncoder().encode(keys.verificationKeyPem), { alg: "HS256" });
    expect((await run(await encryptText(hmac, keys.decryptionKey))).status).toBe("invalid");
    const p384 = await mintPlayKeys("ES384");
    const es384 = await encryptText(await signVerdict(verdictAt(), p384.signingKey, { alg: "ES384" }), keys.decryptionKey);
    expect((await run(es384, trustOf(appWith({ ...keys, verificationKeyPem: p384.verificationKeyPem })))).status).not.toBe("verified");
    expect((await run(es384)).status).toBe("invalid");
  });

  it("refuses other JWE algorithms: dir, A256GCMKW, A128KW, other content encryption", async () => {
    const jws = await signVerdict(verdictAt(), keys.signingKey);
    const variants = [
      { alg: "dir", enc: "A256GCM" },
      { alg: "A256GCMKW", enc: "A256GCM" },
      { alg: "A256KW", enc: "A256CBC-HS512" },
      { alg: "A256KW", enc: "A128GCM" },
    ];
    for (const header of variants) {
      const result = await run(await encryptText(jws, keys.decryptionKey, header));
      // "dir" has no encrypted key, so it already fails the compact shape (five non-empty parts).
      const detail = header.alg === "dir" ? "statement is not a compact JWE integrity token" : "token is not A256KW/A256GCM";
      expect(result, JSON.stringify(header)).toMatchObject({ status: "invalid", detail });
    }
    const a128 = await encryptText(jws, keys.decryptionKey.slice(0, 16), { alg: "A128KW", enc: "A256GCM" });
    expect((await run(a128)).status).toBe("invalid");
  });

  it("opens a DEF-compressed token, but not one that inflates beyond 64 KiB", async () => {
    const zip = { alg: "A256KW", enc: "A256GCM", zip: "DEF" };
    const jws = await signVerdict(verdictAt(), keys.signingKey);
    expect((await run(await encryptText(jws, keys.decryptionKey, zip))).status).toBe("verified");
    const bomb = await signVerdict({ ...verdictAt(), padding: " ".repeat(100_000) }, keys.signingKey);
    const token = await encryptText(bomb, keys.decryptionKey, zip);
    expect(token.length).toBeLessThan(10_000);
    expect((await run(token)).status).toBe("invalid");
  });

  it("refuses statements that are not one compact JWE", async () => {
    const token = await mintIntegrityToken(verdictAt(), keys);
    const jws = await signVerdict(verdictAt(), keys.signingKey);
    for (const statement of ["", jws, ` ${token}`, `${token}\n`, `${token}.x`, "a.b.c.d.e", "x".repeat(70_000)]) {
      expect((await run(statement)).status).toBe("invalid");
    }
    expect((await run(undefined as unknown as string)).status).toBe("invalid");
  });
});

describe("Play Integrity: freshness (15 min back, 2 min ahead by default)", () => {
  it("accepts the bounds and refuses beyond them", async () => {
    const token = await mintIntegrityToken(verdictAt(), keys);
    const at = (ms: number) => run(token, undefined, new Date(NOW.getTime() + ms));
    expect((await at(15 * MINUTE)).status).toBe("verified");
    expect(await at(15 * MINUTE + 1)).toMatchObject({ status: "invalid", detail: "verdict is older than the freshness window" });
    expect((await at(-2 * MINUTE)).status).toBe("verified");
    expect(await at(-2 * MINUTE - 1)).toMatchObject({ status: "invalid", detail: "verdict timestamp is in the future" });
  });

  it("is invalid without a valid verification time", async () => {
    const token = await mintIntegrityToken(verdictAt(), keys);
    expect(await run(token, undefined, new Date(Number.NaN))).toMatchObject({ status: "invalid", detail: "no valid verification time" });
  });

  it("honours configured windows", async () => {
    const strict = new PlayIntegrityVerifier({ maxAgeMs: MINUTE, maxFutureSkewMs: 0 });
    const token = await mintIntegrityToken(verdictAt(), keys);
    expect((await strict.verify(checkOf(token, undefined, new Date(NOW.getTime() + 2 * MINUTE)))).status).toBe("invalid");
    expect((await strict.verify(checkOf(token, undefined, new Date(NOW.getTime() - 1)))).status).toBe("invalid");
    expect((await strict.verify(checkOf(token))).status).toBe("verified");
  });
});

describe("Play Integrity: app identity", () => {
  it("is invalid when requestPackageName is not the app whose keys opened the token", async () => {
    const v = verdictAt() as { requestDetails: Record<string, unknown> };
    v.requestDetails["requestPackageName"] = "org.example.evil";
    expect(await run(await mintIntegrityToken(v, keys))).toMatchObject({
      status: "invalid",
      detail: "requestPackageName is not the app whose keys opened the token",
    });
  });

  it("reports an untrusted app for another attested package or signer, or when no signer digest is configured", async () => {
    const v = verdictAt() as { appIntegrity: Record<string, unknown> };
    v.appIntegrity["packageName"] = "org.example.repackaged";
    expect(await run(await mintIntegrityToken(v, keys))).toMatchObject({
      status: "verified",
      facts: { app_id: "org.example.repackaged", app_trusted: false },
    });
    const token = await mintIntegrityToken(verdictAt(), keys);
    const other = crypto.getRandomValues(new Uint8Array(32));
    expect(await run(token, trustOf(appWith(keys, PKG, [other])))).toMatchObject({ facts: { app_trusted: false } });
    expect(await run(token, trustOf(appWith(keys, PKG, [])))).toMatchObject({ facts: { app_trusted: false } });
    expect(await run(token, trustOf(appWith(keys, PKG, [other, signerDigest])))).toMatchObject({ facts: { app_trusted: true } });
    const twoSigners = verdictAt() as { appIntegrity: Record<string, unknown> };
    twoSigners.appIntegrity["certificateSha256Digest"] = [b64url(signerDigest), b64url(other)];
    expect(await run(await mintIntegrityToken(twoSigners, keys))).toMatchObject({ facts: { app_trusted: false } });
  });
});

describe("Play Integrity: challenge binding", () => {
  it("is invalid for another challenge, a non-base64url echo, both or neither of nonce and requestHash", async () => {
    const other = playVerdict({ packageName: PKG, challenge: challenge.slice(1), timestampMillis: NOW.getTime() });
    expect(await run(await mintIntegrityToken(other, keys))).toMatchObject({
      status: "invalid",
      detail: "requestDetails.requestHash does not bind the expected challenge",
    });
    const edits: ((r: Record<string, unknown>) => void)[] = [
      (r) => {
        r["requestHash"] = `${r["requestHash"]}!`;
      },
      (r) => {
        r["nonce"] = r["requestHash"];
      },
      (r) => {
        delete r["requestHash"];
      },
      (r) => {
        r["requestHash"] = hex(challenge);
      },
      (r) => {
        r["requestHash"] = "";
      },
    ];
    for (const edit of edits) {
      const v = verdictAt() as { requestDetails: Record<string, unknown> };
      edit(v.requestDetails);
      expect((await run(await mintIntegrityToken(v, keys))).status).toBe("invalid");
    }
  });
});

describe("Play Integrity: verdict format", () => {
  it("is invalid when a member the decision reads is missing or mistyped", async () => {
    const edits: ((v: Record<string, Record<string, unknown>>) => void)[] = [
      (v) => {
        delete v["requestDetails"];
      },
      (v) => {
        v["requestDetails"]!["timestampMillis"] = "17e11";
      },
      (v) => {
        v["requestDetails"]!["timestampMillis"] = -1;
      },
      (v) => {
        delete v["deviceIntegrity"];
      },
      (v) => {
        v["deviceIntegrity"]!["deviceRecognitionVerdict"] = "MEETS_DEVICE_INTEGRITY";
      },
      (v) => {
        delete v["appIntegrity"]!["appRecognitionVerdict"];
      },
      (v) => {
        v["appIntegrity"]!["versionCode"] = "4.2";
      },
      (v) => {
        v["testingDetails"] = { isTestingResponse: "false" };
      },
    ];
    for (const edit of edits) {
      const v = verdictAt() as Record<string, Record<string, unknown>>;
      edit(v);
      expect((await run(await mintIntegrityToken(v, keys))).status).toBe("invalid");
    }
    const notJson = await encryptText(await signVerdict(new TextEncoder().encode("not json"), keys.signingKey), keys.decryptionKey);
    expect(await run(notJson)).toMatchObject({ status: "invalid", detail: "verdict is not JSON" });
  });

  it("passes unknown members and numeric int64 fields through", async () => {
    const v = verdictAt() as Record<string, Record<string, unknown>>;
    v["requestDetails"]!["timestampMillis"] = NOW.getTime();
    v["appIntegrity"]!["versionCode"] = 7;
    v["futureSignals"] = { anything: [1, 2] };
    expect(await run(await mintIntegrityToken(v, keys))).toMatchObject({ status: "verified", facts: { app_version: 7 } });
  });
});

describe("Play Integrity: testing responses and configuration", () => {
  it("refuses licence-tester responses unless accepted, then reports development", async () => {
    const v = { ...verdictAt(), testingDetails: { isTestingResponse: true } };
    const token = await mintIntegrityToken(v, keys);
    expect(await run(token)).toMatchObject({ status: "invalid", detail: "testing responses are not accepted" });
    const lenient = new PlayIntegrityVerifier({ acceptTestingResponses: true });
    expect(await lenient.verify(checkOf(token))).toMatchObject({ status: "verified", facts: { environment: "development" } });
  });

  it("is unavailable when no app has a package name and both well-formed keys", async () => {
    const token = await mintIntegrityToken(verdictAt(), keys);
    const full = appWith(keys);
    const configs: TrustedApp[][] = [
      [],
      [{ ...full, playIntegrityVerificationKeyPem: undefined }],
      [{ ...full, playIntegrityDecryptionKey: undefined }],
      [{ ...full, androidPackageName: undefined }],
      [{ ...full, playIntegrityDecryptionKey: keys.decryptionKeyBase64.slice(0, 20) }],
      [{ ...full, playIntegrityVerificationKeyPem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" }],
      [{ ...full, playIntegrityVerificationKeyPem: (await mintPlayKeys("ES384")).verificationKeyPem }],
    ];
    for (const apps of configs) {
      const result = await run(token, trustOf(...apps));
      expect(result).toMatchObject({ status: "unavailable", detail: "no app has Play Integrity keys configured" });
      expect(JSON.stringify(result)).not.toContain(keys.decryptionKeyBase64);
    }
  });
});
