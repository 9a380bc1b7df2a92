/**
 * #19: verifyManifest reuses the engine's trust verdict on a store read before under the same anchors
 * (trust-verdicts.ts): from the third read of the same store, c2pa-wasm reads without trust checks and the learnt
 * verdict is applied. Checked: every read reports exactly what a read with trust checks reports (trusted, untrusted
 * under other anchors, no anchors, untimed); the verdict is applied only to a timestamped store; the same store in a
 * changed asset (its hard binding broken) is read with trust checks again and reported tampered; other anchors are
 * another key.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { respondTimestamp } from "../../../src/dev/tsa-responder";
import { initC2paEngine, verifySettingsJson, WasmBuilder, WasmReader } from "../../../src/media/c2pa/engine";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { type CrJsonSignature, type SignerSummary, signerSummaryFromCrJson } from "../../../src/media/c2pa/signer-summary";
import { trustVerdictsApplied } from "../../../src/media/c2pa/trust-verdicts";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import { verifyManifest } from "../../../src/media/c2pa/verifier";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const SAMPLE = new Uint8Array(readFileSync(join(FIXTURES, "media", "sample-1mp.jpg")));
let pki: DevPki;
let other: DevPki;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(respondTimestamp);
  pki = await mintDevPki({ algorithm: "ES256" });
  other = await mintDevPki({ algorithm: "ES256" });
});

async function signed(timestamped: boolean): Promise<Uint8Array> {
  const signer = new C2paSigner({
    certChainPem: pki.signerChainPem,
    privateKey: pki.signerKeyPkcs8Pem,
    tsa: timestamped ? { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem } : null,
  });
  const plan = { title: "a.jpg", media_type: "image/jpeg", intent: { kind: "opened" as const }, assertions: [] };
  const out = await signer.signEmbedded({ bytes: SAMPLE, plan });
  if (out.status !== "signed") throw new Error(JSON.stringify(out));
  return out.bytes;
}

/** The engine's own reading with trust checks: validation state and codes. */
async function engineReading(bytes: Uint8Array, anchors: string | null) {
  const reader = await WasmReader.fromBytes("image/jpeg", bytes, verifySettingsJson(anchors));
  try {
    const store = JSON.parse(reader.json());
    const active = store.validation_results?.activeManifest ?? {};
    const codes = (list?: { code: string }[]) => (list ?? []).map((c) => c.code);
    return {
      validation_state: store.validation_state === "Trusted" || store.validation_state === "Valid" ? store.validation_state : "Invalid",
      success_codes: codes(active.success),
      failure_codes: codes(active.failure),
      informational_codes: codes(active.informational),
    };
  } finally {
    reader.free();
  }
}

// The engine path (trust verdicts serve it alone): the fast validator (fast-validator.ts) judges these JPEGs itself.
const verify = (bytes: Uint8Array, anchors: string | null) =>
  verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined, { fastValidator: false });

describe("trust verdicts of stores read before (trust-verdicts.ts)", () => {
  it("every read reports what a read with trust checks reports; the verdict is applied from the third read", async () => {
    const bytes = await signed(true);
    for (const [name, anchors, state] of [
      ["trusted", () => pki.rootCertPem, "Trusted"],
      ["other anchors (untrusted)", () => other.rootCertPem, "Valid"],
      ["no anchors", () => null, "Valid"],
    ] as const) {
      const reference = await engineReading(bytes, anchors());
      expect(reference.validation_state, name).toBe(state);
      const first = await verify(bytes, anchors());
      const before = trustVerdictsApplied();
      const reads = [first];
      for (let i = 0; i < 4; i++) reads.push(await verify(bytes, anchors()));
      for (const r of reads) {
        expect(r.facts, name).toMatchObject(reference);
        expect(r.facts, name).toEqual(first.facts);
        expect(r.signer, name).toEqual(first.signer);
        expect(r.claims, name).toEqual(first.claims);
        expect(r.assertion_labels, name).toEqual(first.assertion_labels);
      }
      // Applied on reads 3, 4, 5 of a trusted store; one with a failure code (signingCredential.untrusted) is always
      // read with trust checks, and without anchors there is nothing to learn.
      expect(trustVerdictsApplied() - before, name).toBe(name === "trusted" ? 3 : 0);
    }
  });

  it("an untimed store is always read with trust checks", async () => {
    const bytes = await signed(false);
    const before = trustVerdictsApplied();
    const reference = await engineReading(bytes, pki.rootCertPem);
    for (let i = 0; i < 4; i++) expect((await verify(bytes, pki.rootCertPem)).facts).toMatchObject(reference);
    expect(trustVerdictsApplied()).toBe(before);
  });

  it("the same store in a changed asset is read with trust checks again and reported as the engine reports it", async () => {
    const bytes = await signed(true);
    for (let i = 0; i < 3; i++) await verify(bytes, pki.rootCertPem); // learnt, and applied once
    const changed = bytes.slice();
    changed[changed.length - 100]! ^= 0x01; // inside the entropy-coded data, outside the store
    const before = trustVerdictsApplied();
    const reference = await engineReading(changed, pki.rootCertPem);
    expect(reference.failure_codes).toContain("assertion.dataHash.mismatch");
    const got = await verify(changed, pki.rootCertPem);
    expect(got.facts).toMatchObject(reference);
    expect(trustVerdictsApplied()).toBe(before);
    // and the unchanged file still gets the verdict
    expect((await verify(bytes, pki.rootCertPem)).facts).toMatchObject({ validation_state: "Trusted" });
    expect(trustVerdictsApplied()).toBe(before + 1);
  });
});

/** The APP11 segments before the first scan of a JPEG, as [start, end) ranges. */
function app11Segments(b: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  for (let pos = 2; pos + 4 <= b.length && b[pos] === 0xff && b[pos + 1] !== 0xda; pos += 2 + ((b[pos + 2]! << 8) | b[pos + 3]!)) {
    if (b[pos + 1] === 0xeb) out.push([pos, pos + 2 + ((b[pos + 2]! << 8) | b[pos + 3]!)]);
  }
  return out;
}

describe("trust verdicts against a file our extraction and the engine read differently (#19 review)", () => {
  it("a trusted store's verdict is not lent to another store the engine reads from a file carrying the trusted one", async () => {
    // The victim's file: a trusted, timestamped store A, verified twice (its verdict learnt).
    const victim = await signed(true);
    for (let i = 0; i < 2; i++) expect((await verify(victim, pki.rootCertPem)).facts).toMatchObject({ validation_state: "Trusted" });
    const victimReading = await verify(victim, pki.rootCertPem);
    const [[segStart, segEnd]] = app11Segments(victim) as [[number, number]];
    const segmentA = victim.slice(segStart, segEnd);
    const labelA = victimReading.facts.state === "read" ? victimReading.facts.active_manifest_label : "";

    // The attacker: A's APP11 segment copied after the entropy-coded data (where the engine's JPEG parser does not
    // look for segments, and ours does), the whole signed under the attacker's own, untrusted key with A's label.
    const at = SAMPLE.length - 2;
    const input = new Uint8Array(SAMPLE.length + segmentA.length);
    input.set(SAMPLE.subarray(0, at));
    input.set(segmentA, at);
    input.set(SAMPLE.subarray(at), at + segmentA.length);
    const fromJson = WasmBuilder.fromJson;
    WasmBuilder.fromJson = (json: string, settings?: string) =>
      fromJson.call(WasmBuilder, JSON.stringify({ ...JSON.parse(json), label: labelA }), settings);
    let forged: Uint8Array;
    try {
      const signer = new C2paSigner({
        certChainPem: other.signerChainPem,
        privateKey: other.signerKeyPkcs8Pem,
        tsa: { kind: "internal", chainPem: other.tsaChainPem, keyPkcs8Pem: other.tsaKeyPkcs8Pem },
      });
      const plan = { title: "a.jpg", media_type: "image/jpeg", intent: { kind: "opened" as const }, assertions: [] };
      const out = await signer.signEmbedded({ bytes: input, plan });
      if (out.status !== "signed") throw new Error(JSON.stringify(out));
      forged = out.bytes;
    } finally {
      WasmBuilder.fromJson = fromJson;
    }
    // Its own store's segment renamed (bytes its hard binding excludes) so that our extraction skips it and finds A.
    const [[bStart]] = app11Segments(forged) as [[number, number]];
    forged[bStart + 4] = 0x58;
    forged[bStart + 5] = 0x58;

    // Our extraction locates the store the engine reads (APP11 before the first scan, whatever its CI), not A.
    const located = extractManifestStore(forged, "image/jpeg");
    const locatedA = extractManifestStore(victim, "image/jpeg");
    expect(located.status === "ok" && locatedA.status === "ok").toBe(true);
    if (located.status === "ok" && locatedA.status === "ok")
      expect(Buffer.from(located.store).equals(Buffer.from(locatedA.store))).toBe(false);

    // Without anchors the engine finds no failure in the attacker's store: the signer reported must still be the
    // one the engine checked (its crJSON), never the one of the store our extraction located.
    const plain = await verify(forged, null);
    expect(plain.facts).toMatchObject({ state: "read", failure_codes: [] });
    const reader = await WasmReader.fromBytes("image/jpeg", forged, verifySettingsJson(null));
    let engineSigner: SignerSummary | null;
    try {
      engineSigner = signerSummaryFromCrJson(JSON.parse(reader.crJson()) as CrJsonSignature, labelA);
    } finally {
      reader.free();
    }
    expect(engineSigner?.serial_number).toBeTruthy();
    expect(engineSigner?.serial_number).not.toBe(victimReading.signer?.serial_number);
    expect(plain.signer?.serial_number).toBe(engineSigner?.serial_number);

    const reference = await engineReading(forged, pki.rootCertPem);
    expect(reference.validation_state).not.toBe("Trusted");
    for (let i = 0; i < 3; i++) {
      const got = await verify(forged, pki.rootCertPem);
      expect(got.facts).toMatchObject({ validation_state: reference.validation_state });
      expect(got.signer).not.toEqual(victimReading.signer);
    }
  });
});
