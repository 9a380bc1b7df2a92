/**
 * Streamed FLAC signing (src/media/c2pa/flac.ts, stream-sign.ts): the output has the structure the embedded signer
 * (c2pa-wasm) gives a FLAC, the reference reader c2pa-node judges it Trusted and catches a flipped byte, our streamed
 * verification agrees, and bad input is refused with nothing written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { DevPki } from "../../../src/dev/pki";
import { verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import { FLAC_STORE_OFFSET, FlacScanner, flacTagHead } from "../../../src/media/c2pa/flac";
import { C2paManifestReader } from "../../../src/media/c2pa/reader";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { scanStored, storeHardBindings, streamedBinding, verifyStreamed } from "../../../src/media/c2pa/stream-verify";
import { flacStreamInfoFacts } from "../../../src/media/inspect/audio";
import { largeFlac } from "../../support/flac-media";
import { referenceVerdict } from "../../support/signer-conformance";
import { largePlan, MemoryBucket, MiB, setUpStreamSigning } from "./stream-support";

const SAMPLE = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "sample.flac")));
let pki: DevPki;
let signer: C2paSigner;
let reader: C2paManifestReader;

beforeAll(async () => {
  ({ pki, signer } = await setUpStreamSigning());
  reader = new C2paManifestReader(pki.rootCertPem, () => undefined);
});

async function sign(bucket: MemoryBucket, bytes: Uint8Array, partBytes?: number) {
  const source = bucket.put("src", bytes);
  return signStreamed({
    bucket: bucket as unknown as R2Bucket,
    source: { key: "src", etag: source.etag },
    outputKey: "out",
    plan: largePlan("audio/flac"),
    signer,
    ...(partBytes ? { partBytes } : {}),
  });
}

/** The bytes a scanner reads in chunks of `size`, then its finish (its hash, or its refusal). */
async function scan(bytes: Uint8Array, size: number, sign = false) {
  const scanner = new FlacScanner(bytes.length, { sign });
  for (let at = 0; at < bytes.length; at += size) await scanner.push(bytes.subarray(at, at + size));
  return { hash: Buffer.from(await scanner.finish()).toString("hex"), scanner };
}

describe("a stream-signed FLAC", () => {
  it("is Trusted by c2pa-node, keeps the FLAC unchanged after the tag, and a flipped byte is caught by both readers", {
    timeout: 120_000,
  }, async () => {
    const input = largeFlac(24 * MiB, 7);
    const bucket = new MemoryBucket();
    const result = await sign(bucket, input);
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const out = bucket.objects.get("out")!.bytes;
    expect(bucket.openUploads.size).toBe(0);
    expect(out.length).toBe(result.output.byte_length);
    expect(out.length).toBe(FLAC_STORE_OFFSET + result.manifest_store.length + input.length);
    // The engine's layout: the ID3v2.4 tag head, the store, then the FLAC's bytes as they were.
    expect(Buffer.from(out.subarray(0, FLAC_STORE_OFFSET)).equals(Buffer.from(flacTagHead(result.manifest_store.length)))).toBe(true);
    expect(
      Buffer.from(out.subarray(FLAC_STORE_OFFSET, FLAC_STORE_OFFSET + result.manifest_store.length)).equals(
        Buffer.from(result.manifest_store),
      ),
    ).toBe(true);
    expect(Buffer.from(out.subarray(out.length - input.length)).equals(Buffer.from(input))).toBe(true);

    const verdict = await referenceVerdict(pki.rootCertPem, "audio/flac", out);
    expect(verdict.failure).toEqual([]);
    expect(verdict.state).toBe("Trusted");
    expect(verdict.activeLabel).toBe(result.active_manifest_label);
    expect(verdict.success).toContain("assertion.dataHash.match");
    expect(verdict.success).toContain("timeStamp.validated");

    const tampered = out.slice();
    tampered[out.length - Math.floor(input.length * 0.4)]! ^= 1;
    const bad = await referenceVerdict(pki.rootCertPem, "audio/flac", tampered);
    expect(bad.state).toBe("Invalid");
    expect(bad.failure).toContain("assertion.dataHash.mismatch");

    const verify = (etag: string) =>
      verifyStreamed({
        bucket: bucket as unknown as R2Bucket,
        key: "out",
        etag,
        mediaType: "audio/flac",
        manifestStore: result.manifest_store,
        reader,
      });
    const ours = await verify(result.output.etag);
    if (ours.status !== "read") throw new Error(JSON.stringify(ours));
    expect(ours.check).toMatchObject({ validation_state: "Trusted", failure_codes: [], asset_binding_checked: true });
    expect(ours.check.success_codes).toContain("assertion.dataHash.match");
    const caught = await verify(bucket.put("out", tampered).etag);
    if (caught.status !== "read") throw new Error(JSON.stringify(caught));
    expect(caught.check.validation_state).toBe("Invalid");
    expect(caught.check.failure_codes).toContain("assertion.dataHash.mismatch");
  });

  it("has the structure the embedded signer gives the same FLAC (tag head, one c2pa.hash.data excluding the store)", {
    timeout: 60_000,
  }, async () => {
    const embedded = await signer.signEmbedded({ bytes: SAMPLE, plan: largePlan("audio/flac") });
    if (embedded.status !== "signed") throw new Error(JSON.stringify(embedded));
    const bucket = new MemoryBucket();
    const streamed = await sign(bucket, SAMPLE);
    if (streamed.status !== "signed") throw new Error(JSON.stringify(streamed));
    const out = bucket.objects.get("out")!.bytes;
    for (const [bytes, store, label] of [
      [embedded.bytes, embedded.manifest_store, embedded.active_manifest_label],
      [out, streamed.manifest_store, streamed.active_manifest_label],
    ] as const) {
      expect(Buffer.from(bytes.subarray(0, FLAC_STORE_OFFSET)).equals(Buffer.from(flacTagHead(store.length)))).toBe(true);
      expect(Buffer.from(bytes.subarray(FLAC_STORE_OFFSET + store.length)).equals(Buffer.from(SAMPLE))).toBe(true);
      const bindings = storeHardBindings(store, label)!;
      expect(Object.keys(bindings)).toEqual(["c2pa.hash.data"]);
      const exclusions = (bindings["c2pa.hash.data"] as Map<string, unknown>).get("exclusions") as Map<string, number>[];
      expect(exclusions.map((e) => Object.fromEntries(e))).toEqual([{ start: FLAC_STORE_OFFSET, length: store.length }]);
      // Our stream check judges both the same way (the engine's own output included).
      const stored = new MemoryBucket();
      const object = stored.put("o", bytes);
      const scanned = await scanStored({ bucket: stored as unknown as R2Bucket, key: "o", etag: object.etag, mediaType: "audio/flac" });
      if (scanned.status !== "scanned") throw new Error(JSON.stringify(scanned));
      expect(Buffer.from(scanned.store!).equals(Buffer.from(store))).toBe(true);
      expect(streamedBinding(scanned, store, label)).toEqual({ status: "checked", code: "assertion.dataHash.match", matched: true });
    }
    // c2pa-wasm read whole (how verification reads files up to its read limit) agrees: Trusted.
    const engine = await WasmReader.fromBytes("audio/flac", out, verifySettingsJson(pki.rootCertPem));
    try {
      const store = JSON.parse(engine.json());
      expect(store.validation_results.activeManifest.failure).toEqual([]);
      expect(store.validation_state).toBe("Trusted");
    } finally {
      engine.free();
    }
  });
});

describe("the FLAC scanner", () => {
  it("gives the same hash whatever the chunking, reads STREAMINFO's duration, and accepts a trailing ID3v1 tag", async () => {
    const flac = largeFlac(200 * 1024, 3);
    const whole = await scan(flac, flac.length);
    for (const size of [1, 3, 4096, 65_537]) expect((await scan(flac, size)).hash).toBe(whole.hash);
    expect(flacStreamInfoFacts(whole.scanner.streamInfo!, 0).duration_seconds).toBeCloseTo((12 * 4096) / 48000, 6); // 12 frames of 4096 samples at 48 kHz
    const tagged = new Uint8Array(flac.length + 128);
    tagged.set(flac);
    tagged.set([0x54, 0x41, 0x47], flac.length);
    await expect(scan(tagged, 4096)).resolves.toBeDefined();
  });
});

describe("an ID3v2 tag before fLaC (not C2PA)", () => {
  /** An ID3v2.3 tag: one TIT2 frame, then 20 bytes of padding. */
  function tagged(flac: Uint8Array): Uint8Array {
    const frame = [0x54, 0x49, 0x54, 0x32, 0, 0, 0, 6, 0, 0, 0, 0x61, 0x62, 0x63, 0x64, 0x65];
    const body = [...frame, ...new Array<number>(20).fill(0)];
    const out = new Uint8Array(10 + body.length + flac.length);
    out.set([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, body.length], 0);
    out.set(body, 10);
    out.set(flac, 10 + body.length);
    return out;
  }

  it("is walked when verifying (no store, every byte hashed) and refused when signing", async () => {
    const flac = largeFlac(100 * 1024, 9);
    const bytes = tagged(flac);
    const { scanner, hash } = await scan(bytes, 7);
    expect(scanner.store).toBeNull();
    expect(hash).toBe(Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex"));
    await expect(scan(bytes, 4096, true)).rejects.toThrow(/starts with an ID3v2 tag/);
    const bucket = new MemoryBucket();
    expect(await sign(bucket, bytes)).toMatchObject({ status: "unsupported" });
    expect(bucket.openUploads.size).toBe(0);
  });
});

/** A FLAC whose first metadata block header is replaced by `header` (4 bytes). */
function withFirstBlock(header: number[]): Uint8Array {
  const flac = largeFlac(12 * MiB, 5).slice();
  flac.set(header, 4);
  return flac;
}

/** A FLAC with a second metadata block of header `header` inserted after STREAMINFO (no longer the last block). */
function withSecondBlock(header: number[]): Uint8Array {
  const flac = largeFlac(12 * MiB, 5);
  const out = new Uint8Array(flac.length + 4);
  out.set(flac.subarray(0, 42));
  out[4] = 0x00;
  out.set(header, 42);
  out.set(flac.subarray(42), 46);
  return out;
}

describe("streamed FLAC signing refuses bad input and writes nothing", () => {
  it.each([
    ["a truncated FLAC (cut inside a frame)", "malformed", () => largeFlac(12 * MiB, 5).subarray(0, 11 * MiB), /CRC-16/],
    ["a FLAC cut inside its metadata", "malformed", () => largeFlac(12 * MiB, 5).subarray(0, 30), /past the end/],
    ["a STREAMINFO length past the end", "malformed", () => withFirstBlock([0x80, 0xff, 0xff, 0xff]), /STREAMINFO/],
    ["a block length past the end", "malformed", () => withSecondBlock([0x84, 0xff, 0xff, 0xff]), /past the end/],
    ["audio read as blocks (STREAMINFO not marked last)", "malformed", () => withFirstBlock([0x00, 0, 0, 34]), /./],
    ["no STREAMINFO first", "malformed", () => withFirstBlock([0x84, 0, 0, 34]), /STREAMINFO/],
    ["bytes that are not FLAC", "malformed", () => new Uint8Array(12 * MiB).fill(7), /not a FLAC/],
    [
      "a flipped byte of the last frame (its CRC-16)",
      "malformed",
      () => {
        const flac = largeFlac(12 * MiB, 5).slice();
        flac[flac.length - 100]! ^= 1;
        return flac;
      },
      /CRC-16/,
    ],
  ])("%s → %s", { timeout: 60_000 }, async (_name, status, make, message) => {
    const bucket = new MemoryBucket();
    const result = await sign(bucket, make());
    expect(result.status).toBe(status);
    expect((result as { message: string }).message).toMatch(message);
    expect(bucket.objects.has("out")).toBe(false);
    expect(bucket.openUploads.size).toBe(0);
  });

  it("a FLAC that already carries a manifest → unsupported", { timeout: 60_000 }, async () => {
    const bucket = new MemoryBucket();
    const first = await sign(bucket, SAMPLE);
    if (first.status !== "signed") throw new Error(JSON.stringify(first));
    const again = new MemoryBucket();
    const result = await sign(again, bucket.objects.get("out")!.bytes);
    expect(result).toMatchObject({ status: "unsupported", message: expect.stringMatching(/already carries a C2PA manifest/) });
    expect(again.objects.has("out")).toBe(false);
    expect(again.openUploads.size).toBe(0);
  });

  it("a changed source object → source_unavailable, nothing written", async () => {
    const bucket = new MemoryBucket();
    bucket.put("src", SAMPLE);
    const result = await signStreamed({
      bucket: bucket as unknown as R2Bucket,
      source: { key: "src", etag: "stale" },
      outputKey: "out",
      plan: largePlan("audio/flac"),
      signer,
    });
    expect(result.status).toBe("source_unavailable");
    expect(bucket.objects.has("out")).toBe(false);
  });
});
