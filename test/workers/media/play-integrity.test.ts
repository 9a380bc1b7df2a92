/**
 * The Play Integrity verifier in the Workers runtime: jose's A256KW/A256GCM decryption and ES256 verification over
 * workerd's WebCrypto. The real decoded verdict (test/fixtures/capture/play-integrity) wrapped in a token minted
 * under the test's keys verifies at its own time; a flipped byte in each token part, a foreign signature and a
 * foreign decryption key are invalid. The full matrix runs in Node (test/node/media/play-integrity.*.test.ts).
 */
import { describe, expect, it } from "vitest";
import { PlayIntegrityVerifier } from "../../../src/media/attestation/play-integrity";
import type { AttestationTrust } from "../../../src/media/attestation/types";
import { fromBase64url } from "../../../src/platform/bytes";
import vector from "../../fixtures/capture/play-integrity/keiji-pixel6a-android16-classic.decodeIntegrityToken-response.json";
import { encryptText, flipByteInPart, mintIntegrityToken, mintPlayKeys, signVerdict } from "../../support/play-integrity-mint";

const verdict = vector.tokenPayloadExternal;
const issuedAt = new Date(Number(verdict.requestDetails.timestampMillis));
const nonce = fromBase64url(verdict.requestDetails.nonce)!;

describe("Play Integrity in workerd", () => {
  it("verifies the real verdict in a minted token and refuses tampering", async () => {
    const keys = await mintPlayKeys();
    const other = await mintPlayKeys();
    const trust: AttestationTrust = {
      version: "test-1",
      apps: [
        {
          androidPackageName: verdict.requestDetails.requestPackageName,
          androidSigningCertDigests: ["8483bb6c82661a529afe5cbd270fbcde864c93fda2005dc8321f8e1bb486991f"],
          playIntegrityDecryptionKey: keys.decryptionKeyBase64,
          playIntegrityVerificationKeyPem: keys.verificationKeyPem,
        },
      ],
    };
    const verifier = new PlayIntegrityVerifier();
    const check = { expectedChallenge: nonce, trust, now: issuedAt };
    const token = await mintIntegrityToken(verdict, keys);

    expect(await verifier.verify({ ...check, statement: token })).toMatchObject({
      status: "verified",
      verifier_version: "svc-play-integrity/1",
      facts: {
        app_id: "dev.keiji.deviceintegrity",
        app_trusted: true,
        app_recognition: "UNRECOGNIZED_VERSION",
        device_integrity: ["MEETS_DEVICE_INTEGRITY"],
        app_version: 4,
        issued_at: "2025-06-28T05:39:45.015Z",
        challenge: nonce,
      },
    });
    for (let part = 0; part < 5; part++) {
      expect((await verifier.verify({ ...check, statement: flipByteInPart(token, part) })).status, `part ${part}`).toBe("invalid");
    }
    const foreignSig = await encryptText(await signVerdict(verdict, other.signingKey), keys.decryptionKey);
    expect((await verifier.verify({ ...check, statement: foreignSig })).status).toBe("invalid");
    expect((await verifier.verify({ ...check, statement: await mintIntegrityToken(verdict, other) })).status).toBe("invalid");
  });
});
