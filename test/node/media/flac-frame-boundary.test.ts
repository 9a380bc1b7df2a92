/**
 * A FLAC cut exactly on a frame boundary ends with a whole frame (its CRC-16 holds), so only its last frame's header
 * tells it is short: the frame's first sample (fixed-blocksize: frame number × STREAMINFO's block size;
 * variable-blocksize: the sample number) plus its block size falls before STREAMINFO's total samples. The scanner
 * (src/media/c2pa/flac.ts) refuses such a file when signing and at upload completion, keeps accepting one whose total
 * is 0 (unknown), never refuses a valid FLAC (every one the suite uses, real encoder output of every header form in
 * test/fixtures/audio/flac-frames, generate.sh), and verification still judges a signed file cut this way by its
 * data hash, as c2pa-node does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { DevPki } from "../../../src/dev/pki";
import { FlacScanner, frameEndSample } from "../../../src/media/c2pa/flac";
import { C2paManifestReader } from "../../../src/media/c2pa/reader";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { verifyStreamed } from "../../../src/media/c2pa/stream-verify";
import { encodeFlac } from "../../../src/media/codecs/audio/flac-encode";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { largeFlac } from "../../support/flac-media";
import { prng } from "../../support/prng";
import { referenceVerdict } from "../../support/signer-conformance";
import { installDigestStream, largePlan, MemoryBucket, MiB, setUpStreamSigning, streamOf } from "./stream-support";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const FRAMES_DIR = join(FIXTURES, "audio", "flac-frames");
const FRAMES: Record<string, number[]> = JSON.parse(readFileSync(join(FRAMES_DIR, "frames.json"), "utf8"));
const read = (path: string) => new Uint8Array(readFileSync(path));

/** STREAMINFO of each generated file as `metaflac --show-min-blocksize --show-total-samples` reports it. */
const GENERATED: Record<string, { block: number; total: number }> = {
  "fixed.flac": { block: 4096, total: 101430 },
  "variable.flac": { block: 4096, total: 101430 },
  "block200.flac": { block: 200, total: 13420 },
  "variable-block200.flac": { block: 200, total: 13420 },
  "odd-rate.flac": { block: 300, total: 9008 },
  "hz-rate.flac": { block: 1000, total: 10474 },
  "ffmpeg.flac": { block: 4608, total: 62400 },
  "exact.flac": { block: 4608, total: 46080 },
  "unknown-total.flac": { block: 4608, total: 0 },
};

/** The scanner's refusal message for `bytes` fed in chunks of `size`, or null when it accepts them. */
async function refusal(bytes: Uint8Array, size: number, options: { sign: boolean; totalSamples?: boolean }): Promise<string | null> {
  const scanner = new FlacScanner(bytes.length, options);
  try {
    for (let at = 0; at < bytes.length; at += size) await scanner.push(bytes.subarray(at, at + size));
    await scanner.finish();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

beforeAll(() => installDigestStream());

it("the generated fixtures are what generate.sh documents (every frame offset listed, each file whole)", () => {
  expect(Object.keys(FRAMES).sort()).toEqual(Object.keys(GENERATED).sort());
  for (const [name, offsets] of Object.entries(FRAMES)) {
    const bytes = read(join(FRAMES_DIR, name));
    for (const at of offsets) expect([bytes[at], bytes[at + 1]! & 0xfe], `${name} frame at ${at}`).toEqual([0xff, 0xf8]);
    const { total } = GENERATED[name]!;
    const frames = offsets.length;
    if (total > 0) expect(Math.ceil(total / GENERATED[name]!.block), name).toBe(frames);
    // Variable-blocksize files carry the blocking-strategy bit in every frame.
    expect(
      offsets.every((at) => (bytes[at + 1]! & 1) === (name.startsWith("variable") ? 1 : 0)),
      name,
    ).toBe(true);
  }
});

describe("a FLAC cut on a frame boundary", () => {
  for (const [name, { block, total }] of Object.entries(GENERATED)) {
    it(`${name}: whole, accepted whatever the chunking; cut after each frame, ${total ? "refused" : "accepted (total unknown)"}`, async () => {
      const bytes = read(join(FRAMES_DIR, name));
      for (const size of [1, 3, 7, 4096, bytes.length]) {
        expect(await refusal(bytes, size, { sign: true }), `whole, chunks of ${size}`).toBeNull();
        expect(await refusal(bytes, size, { sign: false }), `whole, verify mode, chunks of ${size}`).toBeNull();
      }
      const offsets = FRAMES[name]!;
      for (let k = 1; k < offsets.length; k++) {
        const cut = bytes.subarray(0, offsets[k]);
        for (const size of [1, 4096]) {
          const message = await refusal(cut, size, { sign: true });
          if (total === 0) expect(message, `cut after frame ${k}`).toBeNull();
          else
            expect(message, `cut after frame ${k}`).toBe(
              `the FLAC's last frame ends at sample ${k * block} of the ${total} its STREAMINFO states (truncated, or STREAMINFO overstates the length: flac -t fails such a file; re-encode it)`,
            );
        }
        // Verification does not judge the length: a signed file cut this way is a data hash mismatch, below.
        expect(await refusal(cut, 4096, { sign: false, totalSamples: false })).toBeNull();
      }
    });
  }

  it("with an ID3v1 tag after the cut: still refused; the whole file with one: accepted", async () => {
    const bytes = read(join(FRAMES_DIR, "fixed.flac"));
    const tag = new Uint8Array(128);
    tag.set([0x54, 0x41, 0x47]);
    const withTag = (b: Uint8Array) => {
      const out = new Uint8Array(b.length + 128);
      out.set(b);
      out.set(tag, b.length);
      return out;
    };
    expect(await refusal(withTag(bytes), 1000, { sign: true })).toBeNull();
    const cut = bytes.subarray(0, FRAMES["fixed.flac"]!.at(-1));
    expect(await refusal(withTag(cut), 1000, { sign: true })).toMatch(/last frame ends at sample 98304 of the 101430/);
  });

  it("is refused at upload completion (the streamed inspection: corrupt), the whole file is ok", async () => {
    const bytes = read(join(FRAMES_DIR, "variable.flac"));
    const cut = bytes.subarray(0, FRAMES["variable.flac"]!.at(-3));
    const refused = await inspectStreamed(streamOf(cut), cut.length, "audio/flac", "audio");
    expect(refused.inspection).toEqual({
      status: "corrupt",
      message:
        "the FLAC's last frame ends at sample 90112 of the 101430 its STREAMINFO states (truncated, or STREAMINFO overstates the length: flac -t fails such a file; re-encode it)",
    });
    expect((await inspectStreamed(streamOf(bytes), bytes.length, "audio/flac", "audio")).inspection.status).toBe("ok");
  });

  it("a large FLAC (largeFlac) cut on frame boundaries: refused; whole: accepted", async () => {
    const bytes = largeFlac(12 * MiB, 4);
    expect(await refusal(bytes, 1 * MiB, { sign: true })).toBeNull();
    // Frames 0–127 code their number in one byte (16394 bytes a frame), later ones in two (16395).
    const boundary = (frames: number) => 42 + Math.min(frames, 128) * 16394 + Math.max(0, frames - 128) * 16395;
    for (const frames of [1, 128, 129, 500, Math.floor((bytes.length - 42) / 16395) - 1]) {
      expect(bytes[boundary(frames)], `frame ${frames}`).toBe(0xff);
      expect(await refusal(bytes.subarray(0, boundary(frames)), 1 * MiB, { sign: true })).toMatch(
        new RegExp(`last frame ends at sample ${frames * 4096} of`),
      );
    }
  });
});

describe("the frame header (RFC 9639 §9.1)", () => {
  // STREAMINFO bodies: fixed 4096-sample blocks, and a stream whose minimum and maximum block sizes differ.
  const info = (min: number, max: number) => Uint8Array.of(min >> 8, min & 0xff, max >> 8, max & 0xff, ...new Uint8Array(30));
  const crc8 = (b: number[]) => {
    let c = 0;
    for (const x of b) {
      c ^= x;
      for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    }
    return c;
  };
  const header = (bytes: number[]) => {
    const h = new Uint8Array(16);
    h.set([...bytes, crc8(bytes)]);
    return { h, n: bytes.length + 1 };
  };

  it("reads every block size code, the coded number's lengths, and the sample rate's extra bytes", () => {
    const cases: [number[], number | null][] = [
      [[0xff, 0xf8, 0x19, 0x08, 0x00], 192], // code 1: 192, frame 0
      [[0xff, 0xf8, 0x29, 0x08, 0x02], 2 * 4096 + 576], // code 2: 576 (fixed: frame 2 × STREAMINFO's 4096)
      [[0xff, 0xf8, 0x59, 0x08, 0x01], 4096 + 4608], // code 5: 4608
      [[0xff, 0xf8, 0x69, 0x08, 0x01, 0x09], 4096 + 10], // code 6: 8-bit, + 1
      [[0xff, 0xf8, 0x79, 0x08, 0x01, 0x0c, 0x35], 4096 + 3126], // code 7: 16-bit, + 1
      [[0xff, 0xf8, 0x89, 0x08, 0x01], 4096 + 256], // code 8: 256
      [[0xff, 0xf8, 0xf9, 0x08, 0x01], 4096 + 32768], // code 15: 32768
      [[0xff, 0xf8, 0x8c, 0x08, 0x01, 0x16], 4096 + 256], // rate 12: 8-bit kHz after the number
      [[0xff, 0xf8, 0x7d, 0x08, 0x01, 0x00, 0x63, 0x2b, 0x11], 4096 + 100], // block 16-bit then rate 13 16-bit
      [[0xff, 0xf8, 0x89, 0x08, 0xc2, 0x80], 128 * 4096 + 256], // 2-byte number: frame 128
      [[0xff, 0xf9, 0x89, 0x08, 0xf0, 0x98, 0x80, 0x80], 98304 + 256], // variable: sample 98304 in 4 bytes
      [[0xff, 0xf9, 0x89, 0x08, 0xfe, 0xbf, 0xbf, 0xbf, 0xbf, 0xbf, 0xbf], 2 ** 36 - 1 + 256], // 7 bytes: 36 bits
      [[0xff, 0xf8, 0x89, 0x08, 0xfe, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81], null], // 7 bytes: not for a frame number
      [[0xff, 0xf8, 0x09, 0x08, 0x00], null], // block size code 0: reserved
      [[0xff, 0xf8, 0x8f, 0x08, 0x00], null], // sample rate code 15: forbidden
      [[0xff, 0xf8, 0x89, 0xb8, 0x00], null], // channel assignment 11: reserved
      [[0xff, 0xf8, 0x89, 0x06, 0x00], null], // bit depth code 3: reserved
      [[0xff, 0xf8, 0x89, 0x09, 0x00], null], // the reserved bit set
      [[0xff, 0xf8, 0x89, 0x08, 0x80], null], // a continuation byte as the number's first
      [[0xff, 0xf8, 0x89, 0x08, 0xc2, 0x00], null], // a bad continuation byte
    ];
    for (const [bytes, expected] of cases) {
      const { h, n } = header(bytes);
      expect(frameEndSample(h, n, info(4096, 4096)), bytes.map((b) => b.toString(16)).join(" ")).toBe(expected);
    }
    const { h, n } = header([0xff, 0xf8, 0x89, 0x08, 0x01]);
    h[n - 1]! ^= 1;
    expect(frameEndSample(h, n, info(4096, 4096)), "a bad CRC-8").toBeNull();
    expect(frameEndSample(h, n - 1, info(4096, 4096)), "the header cut short").toBeNull();
    // Fixed-blocksize frames past the first in a stream whose STREAMINFO block sizes differ: the start is not stated.
    const fixed = header([0xff, 0xf8, 0x89, 0x08, 0x01]);
    expect(frameEndSample(fixed.h, fixed.n, info(1024, 4096))).toBeNull();
    const first = header([0xff, 0xf8, 0x89, 0x08, 0x00]);
    expect(frameEndSample(first.h, first.n, info(1024, 4096))).toBe(256);
  });
});

describe("never refuses a valid FLAC", () => {
  it("the suite's FLAC fixtures and our encoder's output, whole, in either mode and any chunking", async () => {
    const files: [string, Uint8Array][] = [
      ["media/sample.flac", read(join(FIXTURES, "media", "sample.flac"))],
      ["audio/speech-music.flac", read(join(FIXTURES, "audio", "speech-music.flac"))],
      ["largeFlac 1 frame", largeFlac(1, 2)],
      ["largeFlac 3 MiB", largeFlac(3 * MiB, 3)],
    ];
    const rand = prng(42);
    for (const [rate, channels, bits, frames] of [
      [44100, 2, 16, 4096 * 5 + 17],
      [48000, 1, 24, 4096],
      [8000, 2, 8, 100],
      [96000, 6, 16, 4096 * 2 + 4095],
    ] as const) {
      const samples = new Int32Array(frames * channels);
      for (let i = 0; i < samples.length; i++) samples[i] = Math.round((rand() - 0.5) * 2 ** (bits - 2));
      const out = encodeFlac({ samples, sampleRate: rate, channels, bitsPerSample: bits });
      if (out.status !== "encoded") throw new Error(out.message);
      files.push([`encodeFlac ${rate}/${channels}/${bits}/${frames}`, out.bytes]);
    }
    for (const [name, bytes] of files) {
      for (const size of [1, 4093, bytes.length]) {
        if (size === 1 && bytes.length > 1 * MiB) continue;
        expect(await refusal(bytes, size, { sign: true }), `${name}, chunks of ${size}`).toBeNull();
        expect(await refusal(bytes, size, { sign: false }), `${name}, verify mode, chunks of ${size}`).toBeNull();
      }
    }
  });
});

describe("verification of a stream-signed FLAC cut on a frame boundary after signing", () => {
  let pki: DevPki;
  let signer: C2paSigner;
  let reader: C2paManifestReader;
  beforeAll(async () => {
    ({ pki, signer } = await setUpStreamSigning());
    reader = new C2paManifestReader(pki.rootCertPem, () => undefined);
  });

  it("is a data hash mismatch, as c2pa-node reports it", { timeout: 120_000 }, async () => {
    const input = read(join(FRAMES_DIR, "fixed.flac"));
    const bucket = new MemoryBucket();
    const source = bucket.put("src", input);
    const result = await signStreamed({
      bucket: bucket as unknown as R2Bucket,
      source: { key: "src", etag: source.etag },
      outputKey: "out",
      plan: largePlan("audio/flac"),
      signer,
    });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    const out = bucket.objects.get("out")!.bytes;
    const cut = out.subarray(0, out.length - input.length + FRAMES["fixed.flac"]!.at(-1)!);
    const verdict = await referenceVerdict(pki.rootCertPem, "audio/flac", cut);
    expect(verdict.state).toBe("Invalid");
    expect(verdict.failure).toContain("assertion.dataHash.mismatch");
    const ours = await verifyStreamed({
      bucket: bucket as unknown as R2Bucket,
      key: "out",
      etag: bucket.put("out", cut).etag,
      mediaType: "audio/flac",
      manifestStore: result.manifest_store,
      reader,
    });
    if (ours.status !== "read") throw new Error(JSON.stringify(ours));
    expect(ours.check.validation_state).toBe("Invalid");
    expect(ours.check.failure_codes).toContain("assertion.dataHash.mismatch");
  });
});
