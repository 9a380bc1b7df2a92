/**
 * Conformance of the App Attest verifier (src/media/attestation/app-attest.ts) on real devices' evidence: every
 * vector of test/fixtures/capture/apple-app-attest (copied from ../shared/capture-vectors/app-attest; see its
 * README) verifies at its own `verifyAt` under the real Apple App Attestation root, with the facts upstream asserts,
 * and a flipped byte anywhere that matters (authData, a certificate's body or signature, an assertion's signature,
 * authenticator data or client data) is `invalid`. Without the vectors this file fails, it never skips.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_ATTEST_VERIFIER_VERSION, AppAttestVerifier, verifyAppAttestAssertion } from "../../../src/media/attestation/app-attest";
import type { AttestationTrust } from "../../../src/media/attestation/types";
import { base64, fromBase64, utf8 } from "../../../src/platform/bytes";
import { decodeCbor } from "../../../src/platform/cbor";
import { type CborValue, encodeCbor } from "../../../src/platform/cbor-encode";

const DIR = join(import.meta.dirname, "..", "..", "fixtures", "capture", "apple-app-attest");
const index = JSON.parse(readFileSync(join(DIR, "index.json"), "utf8")) as {
  appleAppAttestationRoot: string;
  vectors: { file: string; environment: string; appId: string; hasAssertion: boolean; verifyAt: string | null }[];
};
const ROOT_PEM = readFileSync(join(DIR, index.appleAppAttestationRoot), "utf8");

interface Vector {
  appId: string;
  environment: string;
  attestation: {
    attestationObjectBase64: string;
    keyIdBase64: string;
    challenge: { base64: string };
    clientDataHashBase64: string;
    verifyAt: string;
    expected: { publicKeySpkiBase64: string; credentialIdBase64: string };
  } | null;
  assertions: {
    assertionBase64: string;
    clientDataBase64: string;
    publicKeySpkiBase64: string;
    previousSignCount: number;
    expected: { signCount: number };
    negative?: { clientDataUtf8: string };
  }[];
}

const load = (file: string) => JSON.parse(readFileSync(join(DIR, file), "utf8")) as Vector;
const b64 = (text: string) => {
  const bytes = fromBase64(text);
  if (!bytes) throw new Error(`not canonical base64 in a vector: ${text.slice(0, 20)}…`);
  return bytes;
};
const verifier = new AppAttestVerifier();

function trustFor(appId: string, allowDevelopment: boolean, rootsPem = ROOT_PEM): AttestationTrust {
  return { version: "test-1", apps: [{ appleAppId: appId, appleAllowDevelopment: allowDevelopment }], appleRootsPem: rootsPem };
}

function statementOf(attestationObject: Uint8Array, keyId: string): string {
  return JSON.stringify({ attestation_object: base64(attestationObject), key_id: keyId });
}

/** The attestation object re-encoded with one part replaced (the verifier must not care about CBOR spelling). */
function rebuilt(object: Uint8Array, change: { x5c?: Uint8Array[]; authData?: Uint8Array }): Uint8Array {
  const decoded = decodeCbor(object);
  if (decoded.status !== "ok") throw new Error("vector does not decode");
  const map = decoded.value as Map<string, unknown>;
  const statement = map.get("attStmt") as Map<string, unknown>;
  const x5c = change.x5c ?? (statement.get("x5c") as Uint8Array[]);
  const receipt = statement.get("receipt") as Uint8Array;
  return encodeCbor({
    map: [
      ["fmt", "apple-appattest"],
      [
        "attStmt",
        {
          map: [
            ["x5c", x5c as CborValue[]],
            ["receipt", receipt],
          ],
        },
      ],
      ["authData", change.authData ?? (map.get("authData") as Uint8Array)],
    ],
  });
}

function parts(object: Uint8Array): { x5c: Uint8Array[]; authData: Uint8Array } {
  const decoded = decodeCbor(object);
  if (decoded.status !== "ok") throw new Error("vector does not decode");
  const map = decoded.value as Map<string, unknown>;
  return { x5c: (map.get("attStmt") as Map<string, unknown>).get("x5c") as Uint8Array[], authData: map.get("authData") as Uint8Array };
}

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  const i = at < 0 ? copy.length + at : at;
  copy[i] = copy[i]! ^ 0x01;
  return copy;
}

const attestations = index.vectors.filter((v) => load(v.file).attestation);
const withAssertions = index.vectors.filter((v) => v.hasAssertion);

describe("App Attest attestations (real vectors at their own verifyAt)", () => {
  it("covers every vector of the index", () => {
    expect(attestations.length).toBe(12);
    expect(withAssertions.length).toBe(11);
  });

  for (const entry of attestations) {
    const vector = load(entry.file);
    const a = vector.attestation!;
    const object = b64(a.attestationObjectBase64);
    const challenge = b64(a.challenge.base64);
    const now = new Date(a.verifyAt);
    const development = vector.environment === "development";

    describe(entry.file, () => {
      it("verifies with the facts upstream asserts", async () => {
        // Our client contract: clientDataHash = SHA-256(challenge bytes); the vector records the exact hash.
        const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", challenge));
        expect(base64(hash)).toBe(a.clientDataHashBase64);
        const result = await verifier.verify({
          statement: statementOf(object, a.keyIdBase64),
          expectedChallenge: challenge,
          trust: trustFor(vector.appId, development),
          now,
        });
        expect(result.status, JSON.stringify(result)).toBe("verified");
        if (result.status !== "verified") return;
        expect(result.verifier_version).toBe(APP_ATTEST_VERIFIER_VERSION);
        expect(result.facts).toMatchObject({
          kind: "app_attest",
          provider_class: "apple_app_attest",
          app_id: vector.appId,
          app_trusted: true,
          key_id: a.keyIdBase64,
          counter: 0,
          environment: vector.environment,
        });
        expect(a.expected.credentialIdBase64).toBe(a.keyIdBase64);
        expect(base64(result.facts.public_key_spki!)).toBe(a.expected.publicKeySpkiBase64);
        expect(result.facts.challenge).toEqual(challenge);
      });

      it("is invalid with a flipped byte in authData, in a certificate's body or signature", async () => {
        const { x5c, authData } = parts(object);
        const variants = {
          rpIdHash: rebuilt(object, { authData: flipped(authData, 0) }),
          counter: rebuilt(object, { authData: flipped(authData, 36) }),
          credentialKey: rebuilt(object, { authData: flipped(authData, -1) }),
          leafSignature: rebuilt(object, { x5c: [flipped(x5c[0]!, -3), x5c[1]!] }),
          leafBody: rebuilt(object, { x5c: [flipped(x5c[0]!, 200), x5c[1]!] }),
          intermediateSignature: rebuilt(object, { x5c: [x5c[0]!, flipped(x5c[1]!, -3)] }),
          intermediateBody: rebuilt(object, { x5c: [x5c[0]!, flipped(x5c[1]!, 150)] }),
        };
        // Re-encoding alone keeps it valid: the failures below come from the flipped bytes.
        const same = await verifier.verify({
          statement: statementOf(rebuilt(object, {}), a.keyIdBase64),
          expectedChallenge: challenge,
          trust: trustFor(vector.appId, development),
          now,
        });
        expect(same.status).toBe("verified");
        for (const [name, bytes] of Object.entries(variants)) {
          const result = await verifier.verify({
            statement: statementOf(bytes, a.keyIdBase64),
            expectedChallenge: challenge,
            trust: trustFor(vector.appId, development),
            now,
          });
          expect(result.status, name).toBe("invalid");
        }
      });

      it("is invalid for another challenge, another key id, or long after the leaf expired", async () => {
        const base = {
          statement: statementOf(object, a.keyIdBase64),
          expectedChallenge: challenge,
          trust: trustFor(vector.appId, development),
          now,
        };
        expect((await verifier.verify({ ...base, expectedChallenge: flipped(challenge, 0) })).status).toBe("invalid");
        expect((await verifier.verify({ ...base, expectedChallenge: b64(a.clientDataHashBase64) })).status).toBe("invalid");
        expect((await verifier.verify({ ...base, statement: statementOf(object, base64(flipped(b64(a.keyIdBase64), 5))) })).status).toBe(
          "invalid",
        );
        expect((await verifier.verify({ ...base, now: new Date("2026-11-25T00:00:00Z") })).status).toBe("invalid");
      });

      it("reports the app as untrusted when its id is not configured, or a development key is not allowed", async () => {
        const base = { statement: statementOf(object, a.keyIdBase64), expectedChallenge: challenge, now };
        const other = await verifier.verify({ ...base, trust: trustFor("ABCDE12345.com.example.other", true) });
        expect(other.status === "verified" && other.facts).toMatchObject({ app_id: null, app_trusted: false });
        const strict = await verifier.verify({ ...base, trust: trustFor(vector.appId, false) });
        expect(strict.status === "verified" && strict.facts).toMatchObject({ app_id: vector.appId, app_trusted: !development });
        const noRoots = await verifier.verify({ ...base, trust: { version: "t", apps: [{ appleAppId: vector.appId }] } });
        expect(noRoots.status).toBe("unavailable");
      });
    });
  }
});

describe("App Attest assertions (real vectors)", () => {
  for (const entry of withAssertions) {
    const vector = load(entry.file);
    vector.assertions.forEach((s, i) => {
      const check = {
        assertion: s.assertionBase64,
        clientData: b64(s.clientDataBase64),
        publicKeySpki: b64(s.publicKeySpkiBase64),
        previousCounter: s.previousSignCount,
        appId: vector.appId,
        trust: trustFor(vector.appId, true),
      };

      it(`${entry.file} #${i} verifies with counter ${s.expected.signCount}`, async () => {
        const result = await verifyAppAttestAssertion(check);
        expect(result).toEqual({
          status: "verified",
          counter: s.expected.signCount,
          counter_advanced: true,
          app_trusted: true,
          verifier_version: APP_ATTEST_VERIFIER_VERSION,
        });
        // A second use of the same counter verifies but has not advanced: the gate says counter_replay.
        const replay = await verifyAppAttestAssertion({ ...check, previousCounter: s.expected.signCount });
        expect(replay).toMatchObject({ status: "verified", counter_advanced: false });
      });

      it(`${entry.file} #${i} is invalid with a flipped byte, other client data or another app`, async () => {
        const bytes = b64(s.assertionBase64);
        const decoded = decodeCbor(bytes);
        if (decoded.status !== "ok") throw new Error("assertion does not decode");
        const map = decoded.value as Map<string, Uint8Array>;
        const reencode = (signature: Uint8Array, authenticatorData: Uint8Array) =>
          base64(
            encodeCbor({
              map: [
                ["signature", signature],
                ["authenticatorData", authenticatorData],
              ],
            }),
          );
        const sig = map.get("signature")!;
        const auth = map.get("authenticatorData")!;
        expect((await verifyAppAttestAssertion({ ...check, assertion: reencode(sig, auth) })).status).toBe("verified");
        for (const assertion of [reencode(flipped(sig, -2), auth), reencode(sig, flipped(auth, 36)), reencode(sig, flipped(auth, 3))]) {
          expect((await verifyAppAttestAssertion({ ...check, assertion })).status).toBe("invalid");
        }
        expect((await verifyAppAttestAssertion({ ...check, clientData: flipped(check.clientData, 0) })).status).toBe("invalid");
        if (s.negative)
          expect((await verifyAppAttestAssertion({ ...check, clientData: utf8(s.negative.clientDataUtf8) })).status).toBe("invalid");
        expect((await verifyAppAttestAssertion({ ...check, appId: "ABCDE12345.com.example.other" })).status).toBe("invalid");
        expect((await verifyAppAttestAssertion({ ...check, publicKeySpki: flipped(check.publicKeySpki, -1) })).status).toBe("invalid");
      });
    });
  }
});

/** Where `needle` starts in `haystack` (-1 if absent). */
function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe("a flipped bit anywhere is invalid (sweeps)", () => {
  it("every third byte of a real attestation object outside the receipt; the receipt itself is not verified", async () => {
    const vector = load("warden-iphone11-ios16-production.json");
    const a = vector.attestation!;
    const object = b64(a.attestationObjectBase64);
    const decoded = decodeCbor(object);
    if (decoded.status !== "ok") throw new Error("vector does not decode");
    const receipt = ((decoded.value as Map<string, unknown>).get("attStmt") as Map<string, unknown>).get("receipt") as Uint8Array;
    const start = indexOf(object, receipt);
    expect(start).toBeGreaterThan(0);
    const check = (bytes: Uint8Array) =>
      verifier.verify({
        statement: statementOf(bytes, a.keyIdBase64),
        expectedChallenge: b64(a.challenge.base64),
        trust: trustFor(vector.appId, false),
        now: new Date(a.verifyAt),
      });
    const survivors: number[] = [];
    for (let i = 0; i < object.length; i += 3) {
      if (i >= start && i < start + receipt.length) continue;
      if ((await check(flipped(object, i))).status !== "invalid") survivors.push(i);
    }
    expect(survivors).toEqual([]);
    // Policy: Apple's receipt rides along unverified (admissions do not need it).
    expect((await check(flipped(object, start + 100))).status).toBe("verified");
  });

  it("every byte of every real assertion", async () => {
    for (const entry of withAssertions) {
      const vector = load(entry.file);
      for (const s of vector.assertions) {
        const bytes = b64(s.assertionBase64);
        const base = {
          clientData: b64(s.clientDataBase64),
          publicKeySpki: b64(s.publicKeySpkiBase64),
          previousCounter: 0,
          appId: vector.appId,
          trust: trustFor(vector.appId, true),
        };
        for (let i = 0; i < bytes.length; i++) {
          const result = await verifyAppAttestAssertion({ ...base, assertion: base64(flipped(bytes, i)) });
          expect(result.status, `${entry.file} byte ${i}`).toBe("invalid");
        }
      }
    }
  });
});
