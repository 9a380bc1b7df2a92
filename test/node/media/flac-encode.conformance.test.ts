/**
 * #20: our FLAC encoder (src/media/codecs/audio/flac-encode.ts) is lossless by three decoders: Debian's `flac -t`
 * (libFLAC: CRCs and the STREAMINFO MD5 checked), FFmpeg (samples compared bit for bit) and ours (libFLAC in wasm,
 * src/media/codecs/audio), over bit depths 8–24, 1–8 channels, odd rates and tiny lengths; and input it cannot
 * encode losslessly is `failed`, never a wrong stream.
 *
 * Audio: test/fixtures/audio/speech-music.flac, converted by Debian's ffmpeg to each case's rate and channel count.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeFlac } from "../../../src/media/codecs/audio/flac-encode";
import { Md5 } from "../../../src/media/codecs/audio/md5";
import { nodeAudioDecoder } from "../../../src/media/codecs/audio/node";

const SOURCE = join(import.meta.dirname, "..", "..", "fixtures", "audio", "speech-music.flac");
const work = mkdtempSync(join(tmpdir(), "svc-flac-enc-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const decoder = await nodeAudioDecoder();

/** The fixture at `rate` Hz and `channels`, as `bits`-bit integers (FFmpeg's s32 shifted down). */
function pcm(bits: number, channels: number, rate: number, seconds = 7): Int32Array {
  const raw = execFileSync(
    "/usr/bin/ffmpeg",
    ["-v", "error", "-i", SOURCE, "-t", String(seconds), "-ac", String(channels), "-ar", String(rate), "-f", "s32le", "-"],
    { maxBuffer: 1 << 28 },
  );
  const s32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  return Int32Array.from(s32, (v) => v >> (32 - bits));
}

/** FFmpeg's decode of `bytes` as `bits`-bit integers; `flac -t` must pass first. */
function decodeBoth(bytes: Uint8Array, bits: number): Int32Array {
  const file = join(work, `${crypto.randomUUID()}.flac`);
  writeFileSync(file, bytes);
  execFileSync("flac", ["-t", "-s", file]);
  const raw = execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-f", "s32le", "-"], { maxBuffer: 1 << 28 });
  const s32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  return Int32Array.from(s32, (v) => v >> (32 - bits));
}

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe("FLAC encoder", () => {
  it("MD5 matches RFC 1321's test suite", () => {
    const cases: [string, string][] = [
      ["", "d41d8cd98f00b204e9800998ecf8427e"],
      ["abc", "900150983cd24fb0d6963f7d28e17f72"],
      ["12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"],
    ];
    for (const [text, digest] of cases) {
      const md5 = new Md5();
      md5.update(new TextEncoder().encode(text));
      expect(Buffer.from(md5.digest()).toString("hex")).toBe(digest);
    }
  });

  for (const [bits, channels, rate] of [
    [16, 2, 44100],
    [16, 1, 48000],
    [24, 2, 96000],
    [8, 1, 8000],
    [12, 3, 22050],
    [20, 2, 44100],
    [16, 6, 32000],
    [16, 8, 12345],
  ] as const) {
    it(`${bits}-bit, ${channels} channel(s), ${rate} Hz: flac -t passes and FFmpeg decodes exactly the samples`, () => {
      const samples = pcm(bits, channels, rate, channels > 4 ? 3 : 7);
      const out = encodeFlac({ samples, sampleRate: rate, channels, bitsPerSample: bits });
      if (out.status !== "encoded") throw new Error(out.message);
      expect(firstDifference(decodeBoth(out.bytes, bits), samples)).toBe(-1);
      // Lossless compression: smaller than the PCM.
      expect(out.bytes.length).toBeLessThan((samples.length * bits) / 8);
    });
  }

  it("16-bit output decodes bit-exactly through our own decoder too, with metadata blocks kept in order", async () => {
    const samples = Int16Array.from(pcm(16, 2, 44100));
    const comment = new Uint8Array([4, 0, 0, 0, 0x73, 0x76, 0x63, 0x21, 0, 0, 0, 0]);
    const application = new Uint8Array([0x74, 0x65, 0x73, 0x74, 1, 2, 3]);
    const prefix = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 2, 0, 0]);
    const out = encodeFlac({
      samples,
      sampleRate: 44100,
      channels: 2,
      bitsPerSample: 16,
      metadata: [
        { type: 4, body: comment },
        { type: 2, body: application },
      ],
      prefix,
    });
    if (out.status !== "encoded") throw new Error(out.message);
    expect(Array.from(out.bytes.subarray(0, prefix.length))).toEqual(Array.from(prefix));
    const chunks: Int16Array[] = [];
    const result = await decoder.decode(out.bytes, "audio/flac", { start: () => {}, write: (p) => chunks.push(p.slice()) });
    expect(result).toMatchObject({ status: "decoded", sampleRate: 44100, channels: 2, frames: samples.length / 2 });
    const all = new Int16Array(samples.length);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    expect(firstDifference(all, samples)).toBe(-1);
    // The blocks as FFmpeg's metadata reader sees them: the Vorbis comment's vendor string is ours.
    const file = join(work, "meta.flac");
    writeFileSync(file, out.bytes.subarray(prefix.length));
    const listing = execFileSync("metaflac", ["--list", file]).toString();
    expect(listing).toMatch(
      /type: 0 \(STREAMINFO\)[\s\S]*type: 4 \(VORBIS_COMMENT\)[\s\S]*vendor string: svc![\s\S]*type: 2 \(APPLICATION\)/,
    );
  });

  it("tiny, silent, constant and full-scale signals round-trip", () => {
    const cases: [string, Int32Array, number, number][] = [
      ["one frame", new Int32Array([123, -456]), 2, 16],
      ["empty", new Int32Array(0), 1, 16],
      ["silence", new Int32Array(10_000), 2, 16],
      ["constant", new Int32Array(9000).fill(-7), 1, 24],
      ["full-scale square", Int32Array.from({ length: 20_000 }, (_, i) => ((i >> 3) & 1 ? 32767 : -32768)), 2, 16],
      ["white noise 24-bit", Int32Array.from({ length: 12_000 }, () => Math.floor(Math.random() * 2 ** 24) - 2 ** 23), 2, 24],
      ["4100 frames (a short last block)", Int32Array.from({ length: 4100 }, (_, i) => ((i * 37) % 200) - 100), 1, 8],
    ];
    for (const [name, samples, channels, bits] of cases) {
      const out = encodeFlac({ samples, sampleRate: 44100, channels, bitsPerSample: bits });
      if (out.status !== "encoded") throw new Error(`${name}: ${out.message}`);
      if (samples.length === 0) continue; // flac -t takes it; FFmpeg finds no stream to decode in an empty one
      expect(firstDifference(decodeBoth(out.bytes, bits), samples), name).toBe(-1);
    }
  });

  it("refuses what it cannot encode losslessly", () => {
    const base = { samples: new Int32Array(4), sampleRate: 44100, channels: 2, bitsPerSample: 16 };
    const refused = [
      { ...base, channels: 9, samples: new Int32Array(9) },
      { ...base, channels: 0 },
      { ...base, bitsPerSample: 32 },
      { ...base, bitsPerSample: 3 },
      { ...base, samples: new Int32Array(3) },
      { ...base, samples: new Int32Array([0, 0, 40000, 0]) },
      { ...base, sampleRate: 0 },
      { ...base, metadata: [{ type: 0, body: new Uint8Array(34) }] },
      { ...base, metadata: [{ type: 127, body: new Uint8Array(1) }] },
    ];
    for (const input of refused) expect(encodeFlac(input).status).toBe("failed");
  });
});
