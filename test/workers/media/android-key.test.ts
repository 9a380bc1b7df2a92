import { describe, expect, it } from "vitest";
import { createAndroidKeyVerifier } from "../../../src/media/attestation/android-key";
import { fromBase64 } from "../../../src/platform/bytes";
// Real vector (test/fixtures/capture/android, Apache-2.0, android/keyattestation): Pixel 9a, EC CA1 root, RKP.
import chainPem from "../../fixtures/capture/android/chains/tegu-sdk36-TEE_EC_2026_ROOT.pem?raw";
import rootsJson from "../../fixtures/capture/android/roots/roots.json?raw";
import { CN, dn, KEY_DESCRIPTION_OID, keyDescription, mintCert, mintParty, rootOfTrustEntry, toPem } from "../../support/android-key-mint";

// The same verifier inside workerd: WebCrypto RSA-4096 / P-384 / P-256 verification and asn1js parsing.
describe("Android key attestation in the Workers runtime", () => {
  const trust = { version: "t1", apps: [], googleRootsPem: (JSON.parse(rootsJson) as string[]).join("\n") };

  it("verifies a real chain at its verifyAt and refuses it with a flipped challenge", async () => {
    const verifier = createAndroidKeyVerifier();
    const now = new Date("2026-02-24T00:56:03.060Z");
    const challenge = new TextEncoder().encode("6417f92c-daef-4cc1-8828-5bb39338ffd5");
    const ok = await verifier.verify({ statement: chainPem, expectedChallenge: challenge, trust, now });
    expect(ok.status).toBe("verified");
    expect(ok.status === "verified" && ok.facts.boot).toEqual({ state: "verified", device_locked: true });
    const wrong = challenge.slice();
    wrong[0]! ^= 1;
    expect((await verifier.verify({ statement: chainPem, expectedChallenge: wrong, trust, now })).status).toBe("invalid");
  });

  it("verifies a minted chain under a test root and refuses it under Google's", async () => {
    const root = await mintParty();
    const leaf = await mintParty();
    const name = dn([[CN, "Test Root"]]);
    const validity = { notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2030-01-01T00:00:00Z") };
    const rootDer = await mintCert({ subject: name, issuer: name, subjectSpki: root.spki, issuerKey: root.keys.privateKey, ...validity });
    const challenge = fromBase64("AAECAwQFBgc=")!;
    const kd = keyDescription({ challenge, hardwareEnforced: [rootOfTrustEntry(2, false)] });
    const leafDer = await mintCert({
      subject: dn([[CN, "Android Keystore Key"]]),
      issuer: name,
      subjectSpki: leaf.spki,
      issuerKey: root.keys.privateKey,
      ...validity,
      extensions: [{ oid: KEY_DESCRIPTION_OID, value: kd }],
    });
    const statement = toPem([leafDer, rootDer]);
    const now = new Date("2027-01-01T00:00:00Z");
    const verifier = createAndroidKeyVerifier();
    const mine = await verifier.verify({
      statement,
      expectedChallenge: challenge,
      trust: { ...trust, googleRootsPem: toPem([rootDer]) },
      now,
    });
    expect(mine.status).toBe("verified");
    expect((await verifier.verify({ statement, expectedChallenge: challenge, trust, now })).status).toBe("invalid");
  });
});
