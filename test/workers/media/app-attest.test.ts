/**
 * The App Attest verifier inside workerd: one real vector (warden, iPhone 11, production) verifies at its own time
 * with the real Apple root, its assertion verifies, and a flipped byte is invalid. The full conformance table runs in
 * Node (test/node/media/app-attest.conformance.test.ts); this shows the same code runs in the Workers runtime
 * (pkijs, asn1js and WebCrypto ECDSA P-256/P-384 there).
 */
import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { describe, expect, it } from "vitest";
import { AppAttestVerifier, verifyAppAttestAssertion } from "../../../src/media/attestation/app-attest";
import { base64, fromBase64 } from "../../../src/platform/bytes";
import vector from "../../fixtures/capture/apple-app-attest/warden-iphone11-ios16-production.json";

declare global {
  interface ImportMeta {
    /** Vite's import.meta.glob, declared as vite/client does (vite/client is not in this project's types). */
    glob: ImportGlobFunction;
  }
}

const ROOT_PEM = Object.values(
  import.meta.glob("../../fixtures/capture/apple-app-attest/apple-app-attestation-root-ca.pem", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
)[0] as string;

const bytes = (text: string) => fromBase64(text)!;
const trust = { version: "t", apps: [{ appleAppId: vector.appId }], appleRootsPem: ROOT_PEM };

describe("App Attest in workerd", () => {
  it("verifies the real attestation at its own time, and rejects a flipped byte", async () => {
    const a = vector.attestation;
    const object = bytes(a.attestationObjectBase64);
    const check = {
      statement: JSON.stringify({ attestation_object: a.attestationObjectBase64, key_id: a.keyIdBase64 }),
      expectedChallenge: bytes(a.challenge.base64),
      trust,
      now: new Date(a.verifyAt),
    };
    const result = await new AppAttestVerifier().verify(check);
    expect(result.status, JSON.stringify(result)).toBe("verified");
    expect(result.status === "verified" && result.facts).toMatchObject({
      app_id: vector.appId,
      app_trusted: true,
      environment: "production",
    });

    // A byte near the end of the object: inside authData's credential public key.
    const flipped = new Uint8Array(object);
    flipped[flipped.length - 2]! ^= 0x01;
    const bad = await new AppAttestVerifier().verify({
      ...check,
      statement: JSON.stringify({ attestation_object: base64(flipped), key_id: a.keyIdBase64 }),
    });
    expect(bad.status).toBe("invalid");
  });

  it("verifies the real assertion and reports its counter", async () => {
    const s = vector.assertions[0]!;
    const check = {
      assertion: s.assertionBase64,
      clientData: bytes(s.clientDataBase64),
      publicKeySpki: bytes(s.publicKeySpkiBase64),
      previousCounter: 0,
      appId: vector.appId,
      trust,
    };
    expect(await verifyAppAttestAssertion(check)).toMatchObject({ status: "verified", counter: 1, counter_advanced: true });
    expect((await verifyAppAttestAssertion({ ...check, clientData: new Uint8Array(4) })).status).toBe("invalid");
  });
});
