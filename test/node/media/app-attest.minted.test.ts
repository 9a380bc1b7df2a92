/**
 * The App Attest verifier's rule matrix on minted evidence: a test CA stands in for Apple's, configured as the
 * trust root (the same code path as production, no bypass), and each case breaks exactly one rule.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { APP_ATTEST_VERIFIER_VERSION, AppAttestVerifier, verifyAppAttestAssertion } from "../../../src/media/attestation/app-attest";
import type { AttestationTrust } from "../../../src/media/attestation/types";
import { base64, utf8 } from "../../../src/platform/bytes";
import { type MintAttestationOptions, mintAssertion, mintAttestation, mintTestCa, type TestCa } from "../../support/app-attest-mint";

const APP = "ABCDE12345.com.example.capture";
const NOW = new Date("2026-11-25T10:00:00Z");
const CHALLENGE = utf8("challenge-secret-and-upload-hash");
const verifier = new AppAttestVerifier();

let ca: { root: TestCa; intermediate: TestCa };
let otherCa: { root: TestCa; intermediate: TestCa };
let trust: AttestationTrust;

beforeAll(async () => {
  ca = await mintTestCa(NOW);
  otherCa = await mintTestCa(NOW);
  trust = { version: "t1", apps: [{ appleAppId: APP }], appleRootsPem: ca.root.pem };
});

async function verifyMinted(knobs: Partial<MintAttestationOptions> = {}, overrides: { trust?: AttestationTrust; now?: Date } = {}) {
  const minted = await mintAttestation({ ca, appId: APP, challenge: CHALLENGE, now: NOW, ...knobs });
  const result = await verifier.verify({
    statement: minted.statement,
    expectedChallenge: CHALLENGE,
    trust: overrides.trust ?? trust,
    now: overrides.now ?? NOW,
  });
  return { minted, result };
}

describe("App Attest enrolment on minted evidence", () => {
  it("verifies a well-formed production attestation with its facts", async () => {
    const { minted, result } = await verifyMinted();
    expect(result).toMatchObject({ status: "verified", verifier_version: APP_ATTEST_VERIFIER_VERSION });
    if (result.status !== "verified") return;
    expect(result.facts).toMatchObject({
      app_id: APP,
      app_trusted: true,
      environment: "production",
      counter: 0,
      key_id: base64(minted.keyId),
    });
    expect(result.facts.public_key_spki).toEqual(minted.spki);
    expect(result.facts.challenge).toEqual(CHALLENGE);
  });

  it("accepts a chain that carries the root itself, and several configured roots", async () => {
    const carried = await verifyMinted({ x5c: (leaf, inter, root) => [leaf, inter, root] });
    expect(carried.result.status).toBe("verified");
    const both = await verifyMinted({}, { trust: { ...trust, appleRootsPem: otherCa.root.pem + ca.root.pem } });
    expect(both.result.status).toBe("verified");
  });

  it("development keys are trusted only for apps that allow development", async () => {
    const strict = await verifyMinted({ environment: "development" });
    expect(strict.result.status === "verified" && strict.result.facts).toMatchObject({
      environment: "development",
      app_trusted: false,
      app_id: APP,
    });
    const allowed = await verifyMinted(
      { environment: "development" },
      { trust: { ...trust, apps: [{ appleAppId: APP, appleAllowDevelopment: true }] } },
    );
    expect(allowed.result.status === "verified" && allowed.result.facts).toMatchObject({ environment: "development", app_trusted: true });
  });

  it("an app id no trusted app has verifies as untrusted (the app-identity gate decides)", async () => {
    const { result } = await verifyMinted({ appId: "ZZZZZ99999.com.example.other" });
    expect(result.status === "verified" && result.facts).toMatchObject({ app_id: null, app_trusted: false });
  });

  it("is unavailable without roots or without an Apple app configured", async () => {
    expect((await verifyMinted({}, { trust: { ...trust, appleRootsPem: undefined } })).result.status).toBe("unavailable");
    expect(
      (await verifyMinted({}, { trust: { ...trust, appleRootsPem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" } }))
        .result.status,
    ).toBe("unavailable");
    expect((await verifyMinted({}, { trust: { ...trust, apps: [{ androidPackageName: "com.example" }] } })).result.status).toBe(
      "unavailable",
    );
  });

  const DAY = 86_400_000;
  const invalidCases: [string, RegExp, () => Promise<{ result: { status: string; detail?: string } }>][] = [
    [
      "chain to a root that is not configured",
      /configured root/,
      () => verifyMinted({}, { trust: { ...trust, appleRootsPem: otherCa.root.pem } }),
    ],
    [
      "intermediate that is not a CA",
      /not a CA/,
      async () => {
        const weak = await mintTestCa(NOW, { intermediateIsCa: false });
        return verifyMinted({ ca: weak }, { trust: { ...trust, appleRootsPem: weak.root.pem } });
      },
    ],
    ["x5c in the wrong order", /not a CA/, () => verifyMinted({ x5c: (leaf, inter) => [inter, leaf] })],
    ["x5c with the leaf only", /x5c/, () => verifyMinted({ x5c: (leaf) => [leaf] })],
    [
      "leaf expired",
      /not valid at/,
      () => verifyMinted({ leafNotBefore: new Date(NOW.getTime() - 5 * DAY), leafNotAfter: new Date(NOW.getTime() - DAY) }),
    ],
    [
      "leaf not yet valid",
      /not valid at/,
      () => verifyMinted({ leafNotBefore: new Date(NOW.getTime() + DAY), leafNotAfter: new Date(NOW.getTime() + 5 * DAY) }),
    ],
    ["nonce for another challenge", /nonce does not bind/, () => verifyMinted({ challenge: utf8("another challenge") })],
    ["nonce extension missing", /nonce extension/, () => verifyMinted({ nonce: null })],
    ["nonce of the wrong length", /nonce extension/, () => verifyMinted({ nonce: new Uint8Array(31) })],
    ["credential id is not the key id", /credential id/, () => verifyMinted({ credentialId: new Uint8Array(32) })],
    ["statement key_id is not the key id", /key_id/, () => verifyMinted({ keyId: new Uint8Array(32).fill(7) })],
    ["authData COSE key is another key", /credential public key/, () => verifyMinted({ otherCoseKey: true })],
    ["counter is not 0", /counter/, () => verifyMinted({ counter: 1 })],
    ["AAGUID neither production nor development", /AAGUID/, () => verifyMinted({ environment: "unknown" })],
    ["leaf key on P-384", /P-256/, () => verifyMinted({ leafCurve: "P-384" })],
    ["fmt is not apple-appattest", /format/, () => verifyMinted({ fmt: "packed" })],
  ];
  for (const [name, detail, run] of invalidCases) {
    it(`invalid: ${name}`, async () => {
      const { result } = await run();
      expect(result.status, JSON.stringify(result)).toBe("invalid");
      expect(result.detail).toMatch(detail);
    });
  }

  it("invalid: statements that are not the pinned JSON form", async () => {
    const { minted } = await verifyMinted();
    const good = JSON.parse(minted.statement) as Record<string, string>;
    const statements = [
      "",
      "not json",
      "[]",
      JSON.stringify({ attestation_object: good.attestation_object }),
      JSON.stringify({ ...good, extra: 1 }),
      // Not the canonical padded form: padding dropped, or (when the minted object needs none) one added. Always a
      // change, whatever length the random key material gives the object.
      JSON.stringify({
        ...good,
        attestation_object: good.attestation_object!.endsWith("=")
          ? good.attestation_object!.replace(/=+$/, "")
          : `${good.attestation_object}=`,
      }),
      JSON.stringify({ ...good, key_id: base64(new Uint8Array(16)) }),
      JSON.stringify({ ...good, attestation_object: base64(utf8("not cbor")) }),
      "x".repeat(70_000),
    ];
    for (const statement of statements) {
      const result = await verifier.verify({ statement, expectedChallenge: CHALLENGE, trust, now: NOW });
      expect(result.status, statement.slice(0, 40)).toBe("invalid");
    }
  });
});

describe("App Attest assertions on minted evidence", () => {
  it("verify with increasing counters; a repeated or lower counter verifies but has not advanced", async () => {
    const { minted } = await verifyMinted();
    const clientData = utf8('{"admission":"x"}');
    const base = { clientData, publicKeySpki: minted.spki, appId: APP, trust };
    const first = await verifyAppAttestAssertion({
      ...base,
      assertion: await mintAssertion(minted.keys.privateKey, APP, clientData, 1),
      previousCounter: 0,
    });
    expect(first).toMatchObject({ status: "verified", counter: 1, counter_advanced: true, app_trusted: true });
    const later = await mintAssertion(minted.keys.privateKey, APP, clientData, 7);
    expect(await verifyAppAttestAssertion({ ...base, assertion: later, previousCounter: 1 })).toMatchObject({
      counter: 7,
      counter_advanced: true,
    });
    expect(await verifyAppAttestAssertion({ ...base, assertion: later, previousCounter: 7 })).toMatchObject({
      counter: 7,
      counter_advanced: false,
    });
    expect(await verifyAppAttestAssertion({ ...base, assertion: later, previousCounter: 9 })).toMatchObject({
      counter: 7,
      counter_advanced: false,
    });
    // The app was removed from the trust snapshot since enrolment: a fact for the gates.
    expect(await verifyAppAttestAssertion({ ...base, assertion: later, previousCounter: 1, trust: { ...trust, apps: [] } })).toMatchObject({
      status: "verified",
      app_trusted: false,
    });
  });

  it("invalid: another key, another app, other client data, malformed input", async () => {
    const { minted } = await verifyMinted();
    const other = await verifyMinted();
    const clientData = utf8("payload");
    const assertion = await mintAssertion(minted.keys.privateKey, APP, clientData, 1);
    const base = { assertion, clientData, publicKeySpki: minted.spki, appId: APP, trust, previousCounter: 0 };
    const cases = [
      { ...base, publicKeySpki: other.minted.spki },
      { ...base, publicKeySpki: utf8("not a key") },
      { ...base, assertion: await mintAssertion(minted.keys.privateKey, "ZZZZZ99999.com.example.other", clientData, 1) },
      { ...base, appId: "ZZZZZ99999.com.example.other" },
      { ...base, clientData: utf8("payload!") },
      { ...base, assertion: "" },
      { ...base, assertion: "%%%" },
      { ...base, assertion: base64(utf8("not cbor")) },
    ];
    for (const check of cases) expect((await verifyAppAttestAssertion(check)).status).toBe("invalid");
  });
});
