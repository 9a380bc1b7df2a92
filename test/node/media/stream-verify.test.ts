import { beforeAll, describe, expect, it } from "vitest";
import { ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import type { DevPki } from "../../../src/dev/pki";
import { c2paEngineMemoryBytes, EngineReadTooLarge, verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { scanStored } from "../../../src/media/c2pa/stream-verify";
import { verifyManifest, verifyStreamedManifest } from "../../../src/media/c2pa/verifier";
import { referenceVerdict } from "../../support/signer-conformance";
import { EXCLUSIONS_EMPTY, withBmffBinding } from "../../support/stream-media";
import {
  largeMp4,
  largePlan,
  largeWav,
  MemoryBucket,
  MiB,
  scanObject,
  setUpStreamSigning,
  signLarge as signLargeWith,
} from "./stream-support";

let pki: DevPki;
let signer: C2paSigner;

beforeAll(async () => {
  ({ pki, signer } = await setUpStreamSigning());
});

const signLarge = (make: () => Uint8Array, mediaType: string) => signLargeWith(signer, make(), mediaType);

/** Our streamed verdict of `bytes` stored in a bucket (read only by streaming), as the reference reports one. */
async function streamedVerdict(bytes: Uint8Array, mediaType: string) {
  const scan = await scanObject(bytes, mediaType);
  if (scan.status !== "scanned") throw new Error(JSON.stringify(scan));
  const verification = await verifyStreamedManifest(scan, mediaType, pki.rootCertPem, () => undefined);
  return verification;
}

/** The position of `text` inside the embedded store of `signed` (the store is the file's last bytes). */
function storeOffset(signed: Uint8Array, store: Uint8Array, text: string): number {
  const base = signed.length - store.length - ((signed.length - store.length) % 2);
  const at = Buffer.from(store).indexOf(Buffer.from(text));
  if (at < 0) throw new Error(`${text} not in the store`);
  // WAV pads the chunk to an even length: find the store's real start.
  const start = Buffer.from(signed).lastIndexOf(Buffer.from(store.subarray(0, 64)));
  expect(start).toBeGreaterThanOrEqual(base - 2);
  return start + at;
}

const sorted = (codes: string[]) => [...codes].sort();

/**
 * The service's engine (c2pa-wasm) reading the WHOLE file, past its published read limit (a test may: Node has the
 * memory): what a verification would answer if the limit did not exist.
 */
async function wholeEngineVerdict(bytes: Uint8Array, mediaType: string) {
  const reader = await WasmReader.fromBytes(mediaType, bytes, verifySettingsJson(pki.rootCertPem));
  try {
    const store = JSON.parse(reader.json());
    const codes = (kind: string): string[] => (store.validation_results?.activeManifest?.[kind] ?? []).map((c: { code: string }) => c.code);
    return {
      state: store.validation_state as string,
      activeLabel: store.active_manifest as string,
      success: codes("success"),
      informational: codes("informational"),
      failure: codes("failure"),
    };
  } finally {
    reader.free();
  }
}

/**
 * c2pa-node 0.8.0 (the reference reader) does not report the informational `signingCredential.ocsp.skipped` that the
 * service's engine (c2pa-wasm 0.13.3) reports for every store, read whole or alone: it is no finding (OCSP fetching is
 * off in both), so the reference's codes are compared with it set aside.
 */
const ENGINE_ONLY_INFORMATIONAL = "signingCredential.ocsp.skipped";

/**
 * Our streamed verdict equals the reference reader's on the whole file: state, active manifest, and every code in
 * the reference's order. It is also exactly the service's own engine reading the whole file (c2pa-wasm 0.13.3 would
 * add an `assertion.dataHash.mismatch` to a WAV whose store has an odd length, followed by a RIFF pad byte: the
 * streaming signer keeps it even, see stream-sign.test.ts).
 */
async function expectSameAsReference(bytes: Uint8Array, mediaType: string) {
  const reference = await referenceVerdict(pki.rootCertPem, mediaType, bytes);
  const ours = await streamedVerdict(bytes, mediaType);
  if (ours.facts.state !== "read") throw new Error(`ours: ${JSON.stringify(ours.facts)}; reference ${JSON.stringify(reference)}`);
  const mine = {
    state: ours.facts.validation_state,
    label: ours.facts.active_manifest_label,
    success: ours.facts.success_codes,
    informational: ours.facts.informational_codes,
    failure: ours.facts.failure_codes,
  };
  expect({ ...mine, informational: mine.informational.filter((c) => c !== ENGINE_ONLY_INFORMATIONAL) }).toEqual({
    state: reference.state,
    label: reference.activeLabel,
    success: reference.success,
    informational: reference.informational,
    failure: reference.failure,
  });
  const whole = await wholeEngineVerdict(bytes, mediaType);
  const engine = {
    state: whole.state,
    label: whole.activeLabel,
    success: whole.success,
    informational: whole.informational,
    failure: whole.failure,
  };
  expect(engine).toEqual(mine);
  return { reference, ours };
}

describe.each([
  ["video/mp4", () => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "assertion.bmffHash.match", "assertion.bmffHash.mismatch"],
  ["audio/wav", () => largeWav(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "assertion.dataHash.match", "assertion.dataHash.mismatch"],
  // The same BMFF bytes as QuickTime and M4A: the other streamed types, read by the same scanner.
  ["video/quicktime", () => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "assertion.bmffHash.match", "assertion.bmffHash.mismatch"],
  ["audio/mp4", () => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "assertion.bmffHash.match", "assertion.bmffHash.mismatch"],
])("streamed verification of a stream-signed %s just over the engine's read limit", (mediaType, make, match, mismatch) => {
  let signed: Uint8Array;
  let store: Uint8Array;
  let label: string;
  beforeAll(async () => {
    ({ signed, store, label } = await signLarge(make, mediaType));
    expect(signed.length).toBeGreaterThan(ENGINE_READ_MAXIMUM_BYTES);
  }, 120_000);

  it("as signed: Trusted, with the reference reader's codes", { timeout: 120_000 }, async () => {
    const { reference, ours } = await expectSameAsReference(signed, mediaType);
    expect(reference).toMatchObject({ state: "Trusted", activeLabel: label, failure: [] });
    expect(ours.facts.state === "read" && ours.facts.success_codes).toContain(match);
    expect(ours.fileStore).toEqual(store);
    expect(ours.signer?.common_name).toBeTruthy();
    expect(ours.claims?.ai_generated).toBe(true);
    expect(ours.assertion_labels).toContain("svc.creator");
  });

  it("one media byte flipped: Invalid with the binding mismatch, as the reference says", { timeout: 120_000 }, async () => {
    const tampered = signed.slice();
    tampered[Math.floor(signed.length * 0.5)]! ^= 0x10;
    const { reference } = await expectSameAsReference(tampered, mediaType);
    expect(reference).toMatchObject({ state: "Invalid" });
    expect(reference.failure).toContain(mismatch);
  });

  it("an assertion of the manifest changed: Invalid with the reference's codes", { timeout: 120_000 }, async () => {
    const tampered = signed.slice();
    // The creator assertion's reference (inside its CBOR): the claim still names the old hash of the assertion.
    tampered[storeOffset(signed, store, "crref_0123456789abcdef") + 6]! ^= 0x01;
    const { reference, ours } = await expectSameAsReference(tampered, mediaType);
    expect(reference).toMatchObject({ state: "Invalid" });
    expect(ours.facts.state === "read" && ours.facts.failure_codes).toContain("assertion.hashedURI.mismatch");
  });

  it("the claim changed: Invalid with the reference's codes", { timeout: 120_000 }, async () => {
    const tampered = signed.slice();
    // The claim names the asset's title: one letter of it changed breaks the claim signature.
    tampered[storeOffset(signed, store, `large.${mediaType.split("/")[1]}`) + 1]! ^= 0x01;
    const { reference } = await expectSameAsReference(tampered, mediaType);
    expect(reference).toMatchObject({ state: "Invalid" });
  });
});

describe("streamed verification refuses what it cannot judge, and holds nothing whole", () => {
  it("a file whose store is not the streaming signer's form is refused (413 upstream), not guessed", async () => {
    // An MP4 signed embedded by the engine itself (its BMFF hash excludes free/skip too: another form).
    const small = largeMp4(64 * 1024);
    const embedded = await signer.signEmbedded({ bytes: small, plan: largePlan("video/mp4") });
    if (embedded.status !== "signed") throw new Error(JSON.stringify(embedded));
    const bucket = new MemoryBucket();
    const stored = bucket.put("obj", embedded.bytes);
    const scan = await scanStored({ bucket: bucket as unknown as R2Bucket, key: "obj", etag: stored.etag, mediaType: "video/mp4" });
    if (scan.status !== "scanned") throw new Error(JSON.stringify(scan));
    // The engine reads this small file whole; its form is another than the streaming signer's.
    const whole = await verifyManifest({ bytes: embedded.bytes, mediaType: "video/mp4" }, pki.rootCertPem, () => undefined);
    expect(whole.facts.state).toBe("read");
    await expect(verifyStreamedManifest(scan, "video/mp4", pki.rootCertPem, () => undefined)).rejects.toBeInstanceOf(EngineReadTooLarge);
  });

  it("a large MP4 without a manifest is absent, with the note that a remote reference was not looked for", async () => {
    const { facts, warnings } = await streamedVerdict(largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "video/mp4");
    expect(facts.state).toBe("absent");
    expect(warnings.join(" ")).toMatch(/remote manifest/);
  });

  it("a truncated or changed object is not scanned as if whole", async () => {
    const bucket = new MemoryBucket();
    const mp4 = largeMp4(1 * MiB);
    const stored = bucket.put("obj", mp4.subarray(0, mp4.length - 1000));
    const source = { bucket: bucket as unknown as R2Bucket, key: "obj", mediaType: "video/mp4" };
    expect(await scanStored({ ...source, etag: stored.etag })).toMatchObject({ status: "malformed" });
    expect(await scanStored({ ...source, etag: "stale" })).toEqual({ status: "unavailable" });
  });

  it("the engine's memory stays that of the store, not of the file", { timeout: 120_000 }, async () => {
    const { signed } = await signLarge(() => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "video/mp4");
    const before = c2paEngineMemoryBytes();
    await streamedVerdict(signed, "video/mp4");
    // A whole read of this file would grow the engine by about the file's size; a store read leaves it where it was.
    expect(c2paEngineMemoryBytes() - before).toBeLessThan(4 * MiB);
  });
});

describe("a store before the media whose binding the stream cannot judge", () => {
  /** `store` with its active manifest's c2pa.hash.bmff.v2 content replaced by {hash, alg, exclusions: []}. */
  const otherBindingStore = (store: Uint8Array) => withBmffBinding(store, EXCLUSIONS_EMPTY).store;

  it("is not judged, and the scan stops after the store instead of streaming the whole file", { timeout: 120_000 }, async () => {
    const { signed, store } = await signLarge(() => largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "video/mp4");
    const boxLength = 45 + store.length;
    const media = signed.subarray(0, signed.length - boxLength);
    const ftypLength = new DataView(media.buffer, media.byteOffset).getUint32(0);
    const other = otherBindingStore(store);
    const box = new Uint8Array(45 + other.length);
    box.set(signed.subarray(signed.length - boxLength, signed.length - boxLength + 45));
    new DataView(box.buffer).setUint32(0, box.length);
    box.set(other, 45);
    // ftyp, the C2PA box, then the rest of the media (as embedding signers lay a file out).
    const file = new Uint8Array(media.length + box.length);
    file.set(media.subarray(0, ftypLength));
    file.set(box, ftypLength);
    file.set(media.subarray(ftypLength), ftypLength + box.length);

    const bucket = new MemoryBucket();
    const stored = bucket.put("obj", file);
    let delivered = 0;
    const counting = {
      get: async (key: string, options?: { onlyIf?: { etagMatches?: string } }) => {
        const object = await bucket.get(key, options);
        if (!object || !("body" in object) || !object.body) return object;
        const body = object.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              delivered += chunk.length;
              controller.enqueue(chunk);
            },
          }),
        );
        return { ...object, body };
      },
    };
    const source = { bucket: counting as unknown as R2Bucket, key: "obj", etag: stored.etag, mediaType: "video/mp4" };
    expect((await scanStored(source, { stopEarly: true })).status).toBe("binding_unsupported");
    expect(delivered).toBeLessThan(2 * MiB);
    // Without the early stop the whole file is scanned, and the stream check then refuses it all the same.
    delivered = 0;
    const scanned = await scanStored(source);
    expect(delivered).toBe(file.length);
    if (scanned.status !== "scanned") throw new Error(scanned.status);
    await expect(verifyStreamedManifest(scanned, "video/mp4", pki.rootCertPem, () => undefined)).rejects.toBeInstanceOf(EngineReadTooLarge);
  });
});
