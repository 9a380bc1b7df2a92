/**
 * Conformance of our own Chromaprint (wasm/chromaprint, src/media/fingerprint/audio) with libchromaprint:
 *
 * - test_stereo_44100.raw fed as mono 44100 Hz (upstream tests/test_api.cpp TestFp): the exact compressed string
 *   and hash, and the raw values they decode to;
 * - silence (Test2SilenceFp / Test2SilenceRawFp): raw values, string, hash;
 * - test.mp3 as fpcalc saw it: fpcalc has FFmpeg resample to 11025 Hz mono (swresample with chromaprint's
 *   "compatible mode" options); that PCM (test.mp3.swr11025.wav, made once with ffmpeg, see the fixtures README)
 *   must give fpcalc's 59 raw values exactly; the same MP3 decoded at its own rate and resampled by our port of
 *   libchromaprint's internal resampler must come close (a different resampler: ~1 % of bits differ);
 * - the encoder against upstream's TestEncodeFingerprint bytes, the decoder round trip;
 * - libchromaprint itself (Debian's 1.5.1, through FFmpeg's `chromaprint` muxer, which feeds it the PCM at its own
 *   rate): equal raw values at rates from 8 kHz to 192 kHz, mono and stereo (the upstream resampler's every path);
 * - streaming: any split of the samples into writes gives the same values; channel mixing; bad input and the
 *   memory bound.
 *
 * The vectors live in test/fixtures/fp-vectors/chromaprint (copied from ../shared/fp-vectors; see its README);
 * without them this file fails, it never skips.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  alignFingerprints,
  CHROMAPRINT_MAX_RATE,
  Chromaprinter,
  chromaprintHash,
  compressChromaprint,
  decodeChromaprint,
  encodeChromaprint,
} from "../../../src/media/fingerprint/audio";
import { prng } from "../../support/prng";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const VECTORS = join(ROOT, "test", "fixtures", "fp-vectors", "chromaprint");
for (const f of ["expected.txt", "test_stereo_44100.raw", "test.mp3", "test.mp3.fpcalc.out", "test.mp3.swr11025.wav"]) {
  if (!existsSync(join(VECTORS, f))) throw new Error(`chromaprint vector ${f} missing in ${VECTORS}: cannot test`);
}
const WASM = join(ROOT, "wasm", "build", "chromaprint.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);
const compileWasm = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);
const chromaprintModule = compileWasm(readFileSync(WASM));

/** The int16 samples of a raw s16le file, or of a WAV file's data chunk. */
function pcm(path: string): Int16Array {
  const b = new Uint8Array(readFileSync(path));
  if (!path.endsWith(".wav")) return new Int16Array(b.buffer, 0, b.length >> 1);
  const view = new DataView(b.buffer);
  for (let at = 12; at + 8 <= b.length; at += 8 + view.getUint32(at + 4, true)) {
    if (String.fromCharCode(...b.subarray(at, at + 4)) === "data")
      return new Int16Array(b.slice(at + 8, at + 8 + view.getUint32(at + 4, true)).buffer);
  }
  throw new Error(`${path}: no data chunk`);
}

/** Raw fingerprint of `samples`, written in one go or in the given chunk lengths (cycled). */
function fingerprint(samples: Int16Array, rate: number, channels: number, chunks?: number[]): Uint32Array {
  const cp = new Chromaprinter(chromaprintModule);
  cp.start(rate, channels);
  if (!chunks) cp.write(samples);
  else {
    for (let off = 0, i = 0; off < samples.length; i++) {
      const n = chunks[i % chunks.length]!;
      cp.write(samples.subarray(off, off + n));
      off += n;
    }
  }
  const raw = cp.finish();
  expect(cp.state, cp.error ?? "").toBe("idle");
  return raw;
}

const expected = readFileSync(join(VECTORS, "expected.txt"), "utf8");
const vector1 = /test_stereo_44100\.raw\talgorithm=TEST2\trate=44100\tchannels=1\tfingerprint=(\S+)\thash=(\d+)/.exec(expected);
if (!vector1) throw new Error("expected.txt: test_stereo_44100 row not found");
const FP1 = vector1[1]!;
const HASH1 = Number(vector1[2]);
const FPCALC = readFileSync(join(VECTORS, "test.mp3.fpcalc.out"), "utf8")
  .match(/FINGERPRINT=([\d,]+)/)![1]!
  .split(",")
  .map(Number);

describe("chromaprint: upstream vectors, exact", () => {
  const stereo = pcm(join(VECTORS, "test_stereo_44100.raw"));

  it("test_stereo_44100.raw as mono 44100 Hz: fingerprint string, hash and raw values", () => {
    const raw = fingerprint(stereo, 44100, 1);
    // The WAV copy (for workerd, where Vite inlines only known asset types) holds the same samples.
    expect(Array.from(pcm(join(VECTORS, "test_stereo_44100.wav")))).toEqual(Array.from(stereo));
    const decoded = decodeChromaprint(FP1);
    if (decoded.status !== "decoded") throw new Error(decoded.message);
    expect(decoded.algorithm).toBe(1);
    expect(Array.from(raw)).toEqual(Array.from(decoded.raw));
    expect(encodeChromaprint(raw)).toBe(FP1);
    expect(chromaprintHash(raw)).toBe(HASH1);
  });

  it("silence: 130 x 1024 zero samples at 44100 Hz", () => {
    const cp = new Chromaprinter(chromaprintModule);
    cp.start(44100, 1);
    const zeros = new Int16Array(1024);
    for (let i = 0; i < 130; i++) cp.write(zeros);
    const raw = cp.finish();
    expect(Array.from(raw)).toEqual([627964279, 627964279, 627964279]);
    expect(encodeChromaprint(raw)).toBe("AQAAA0mUaEkSRZEGAA");
    expect(chromaprintHash(raw)).toBe(627964279);
  });

  it("test.mp3 as fpcalc fed it (FFmpeg-resampled to 11025 Hz mono): fpcalc's 59 raw values", () => {
    const raw = fingerprint(pcm(join(VECTORS, "test.mp3.swr11025.wav")), 11025, 1);
    expect(Array.from(raw)).toEqual(FPCALC);
  });

  it("test.mp3 decoded at 44100 Hz and resampled by our port of the internal resampler: close to fpcalc", () => {
    const mp3 = execFileSync("ffmpeg", ["-v", "error", "-i", join(VECTORS, "test.mp3"), "-f", "s16le", "-"], {
      maxBuffer: 1 << 24,
    });
    const samples = new Int16Array(new Uint8Array(mp3).buffer, 0, mp3.length >> 1);
    const raw = fingerprint(samples, 44100, 1);
    expect(raw.length).toBe(FPCALC.length);
    const a = alignFingerprints(raw, Uint32Array.from(FPCALC), { minOverlap: FPCALC.length });
    expect(a?.offset).toBe(0);
    // Measured: 42/59 equal values, 1.06 % of bits (the ffmpeg/mpg123 decoders differ by a few LSBs at most).
    expect(a!.bitErrorRate).toBeLessThan(0.03);
    expect(a!.equalFrames).toBeGreaterThanOrEqual(30);
  });

  it("libchromaprint (FFmpeg's chromaprint muxer) gives the same raw values at other rates and channel counts", () => {
    const muxers = execFileSync("ffmpeg", ["-hide_banner", "-muxers"]).toString();
    if (!/\bchromaprint\b/.test(muxers)) throw new Error("this ffmpeg has no chromaprint muxer (Debian's ffmpeg has): cannot test");
    for (const [rate, channels] of [
      [8000, 1],
      [22050, 1],
      [44100, 2],
      [48000, 2],
      [96000, 2],
      [192000, 1],
    ] as const) {
      const pcmBytes = execFileSync(
        "ffmpeg",
        ["-v", "error", "-i", join(VECTORS, "test.mp3"), "-ar", String(rate), "-ac", String(channels), "-f", "s16le", "-"],
        { maxBuffer: 1 << 26 },
      );
      const ref = execFileSync(
        "ffmpeg",
        [
          "-v",
          "error",
          "-f",
          "s16le",
          "-ar",
          String(rate),
          "-ac",
          String(channels),
          "-i",
          "-",
          "-f",
          "chromaprint",
          "-fp_format",
          "raw",
          "-",
        ],
        { input: pcmBytes, maxBuffer: 1 << 26 },
      );
      const expectedRaw = new Uint32Array(new Uint8Array(ref).buffer, 0, ref.length >> 2);
      const samples = new Int16Array(new Uint8Array(pcmBytes).buffer, 0, pcmBytes.length >> 1);
      const raw = fingerprint(samples, rate, channels);
      expect(raw.length, `${rate} Hz x ${channels}`).toBeGreaterThan(40);
      expect(Array.from(raw), `${rate} Hz x ${channels}`).toEqual(Array.from(expectedRaw));
    }
  });

  it("encoder: upstream TestEncodeFingerprint bytes and base64", () => {
    expect(Array.from(compressChromaprint([1, 0], 55))).toEqual([55, 0, 0, 2, 65, 0]);
    expect(encodeChromaprint([1, 0], 55)).toBe("NwAAAkEA");
    expect(encodeChromaprint([])).toBe("AQAAAA");
  });

  it("decoder: round trip of random fingerprints; garbage gives a status, never a throw", () => {
    const rand = prng(20);
    for (let t = 0; t < 50; t++) {
      const n = Math.floor(rand() * 300);
      const raw = Uint32Array.from({ length: n }, () => (rand() < 0.1 ? 0xffffffff : Math.floor(rand() * 2 ** 32)));
      const d = decodeChromaprint(encodeChromaprint(raw, 1));
      expect(d.status === "decoded" && Array.from(d.raw)).toEqual(Array.from(raw));
    }
    for (const bad of [
      "",
      "A",
      "AQAA",
      "AQ//",
      "AQAAC0kkZUqYRE",
      "!!!!",
      "_____________",
      "AP___w",
      "AQAAC0kkZUqYREkUnFAXHk8uuMZl6EfO4zu-4ABKFGESWIIMEQ",
    ]) {
      const d = decodeChromaprint(bad);
      if (d.status === "decoded") expect(d.raw.length).toBeLessThan(64);
    }
    expect(decodeChromaprint(undefined as unknown as string).status).toBe("failed");
  });
});

describe("chromaprint: streaming and channels", () => {
  const stereo = pcm(join(VECTORS, "test_stereo_44100.raw"));

  it("any split into writes gives identical values (mono, stereo, 5 channels; resampled and not)", () => {
    const rand = prng(7);
    const long = new Int16Array(stereo.length * 2);
    for (let i = 0; i < 2; i++) long.set(stereo, i * stereo.length);
    for (const [rate, channels] of [
      [44100, 1],
      [44100, 2],
      [22050, 5],
      [11025, 1],
      [48000, 2],
    ] as const) {
      const whole = fingerprint(long, rate, channels);
      expect(whole.length).toBeGreaterThan(0);
      const splits = [[1], [3, 7, 1], [4095, 1, 32768, 2], [65536 + 11], [Math.floor(rand() * 5000) + 1, Math.floor(rand() * 90000) + 1]];
      for (const chunks of splits) expect(Array.from(fingerprint(long, rate, channels, chunks))).toEqual(Array.from(whole));
    }
  });

  it("channels are averaged: identical channels give the mono fingerprint", () => {
    const mono = stereo.subarray(0, 120_000);
    const mono1 = fingerprint(mono, 44100, 1);
    for (const channels of [2, 3, 6]) {
      const inter = new Int16Array(mono.length * channels);
      for (let i = 0; i < mono.length; i++) inter.fill(mono[i]!, i * channels, (i + 1) * channels);
      expect(Array.from(fingerprint(inter, 44100, channels))).toEqual(Array.from(mono1));
    }
  });
});

describe("chromaprint: bad input and bounds", () => {
  it("bad parameters leave a failed state and an empty fingerprint, never a throw", () => {
    const cp = new Chromaprinter(chromaprintModule);
    for (const [rate, ch] of [
      [0, 1],
      [Number.NaN, 1],
      [1000, 1],
      [-44100, 2],
      [44100.5, 1],
      [1e9, 1],
      [CHROMAPRINT_MAX_RATE + 1, 1],
      [Number.POSITIVE_INFINITY, 1],
      [44100, 0],
      [44100, -1],
      [44100, 65],
      [44100, Number.NaN],
    ]) {
      cp.start(rate!, ch!);
      expect(cp.state).toBe("failed");
      expect(cp.error).toBeTruthy();
      cp.write(new Int16Array(100000).fill(1000));
      expect(cp.finish().length).toBe(0);
    }
    expect(cp.fingerprint(new Int16Array(10), 0, 1).status).toBe("failed");
    expect(() => new Chromaprinter(chromaprintModule, { maxFrames: 0 })).toThrow(RangeError);
  });

  it("too little audio gives an empty fingerprint: 0 samples, 1 sample, a partial frame, write before start", () => {
    const cp = new Chromaprinter(chromaprintModule);
    cp.write(new Int16Array(10));
    expect(cp.finish().length).toBe(0);
    for (const [n, rate, ch] of [
      [0, 44100, 1],
      [1, 44100, 1],
      [1, 44100, 2],
      [1, 1001, 1],
      [1, 384000, 1],
      [3, 44100, 2],
      [20000, 44100, 1],
    ] as const) {
      const r = cp.fingerprint(new Int16Array(n).fill(-32768), rate, ch);
      expect(r).toEqual({ status: "computed", raw: new Uint32Array(0), truncated: false });
    }
    expect(cp.finish().length).toBe(0); // finish twice
    cp.write("nope" as unknown as Int16Array);
    expect(cp.finish().length).toBe(0);
  });

  it("extreme rates and full-scale noise: values computed, memory stays small", () => {
    const rand = prng(3);
    const noise = Int16Array.from({ length: 400_000 }, () => (rand() < 0.5 ? -32768 : 32767));
    const cp = new Chromaprinter(chromaprintModule);
    for (const rate of [1001, 8000, 11025, 44100, 96000, 384000]) {
      const r = cp.fingerprint(noise, rate, 1);
      expect(r.status).toBe("computed");
      const seconds = noise.length / rate;
      const frames = r.status === "computed" ? r.raw.length : -1;
      // One frame per 1365/11025 s after the first ~3 s (4096 samples, then 4 smoothing and 15 image rows).
      const expected = Math.max(0, Math.floor((seconds * 11025 - 4096) / 1365) + 1 - 19);
      // Below 11025 Hz upstream's last resampling call makes at most 32768 samples: the rest of its 32768-sample
      // input buffer (up to 30 s at 1001 Hz) is dropped. The port does the same.
      const dropped = rate < 11025 ? Math.ceil((32768 * 11025) / rate / 1365) - 24 : 0;
      expect(frames).toBeLessThanOrEqual(expected + 2);
      expect(frames).toBeGreaterThanOrEqual(expected - dropped - 2);
    }
    expect(cp.memoryBytes()).toBeLessThan(2 << 20);
  });

  it("memory is bounded by the kernel, not the duration: 25 minutes at 11025 Hz", () => {
    const cp = new Chromaprinter(chromaprintModule);
    const rand = prng(9);
    const block = Int16Array.from({ length: 11025 * 10 }, () => Math.floor((rand() - 0.5) * 20000));
    cp.start(11025, 1);
    const before = cp.memoryBytes();
    for (let i = 0; i < 150; i++) cp.write(block);
    const raw = cp.finish();
    expect(raw.length).toBeGreaterThan(12_000);
    expect(cp.memoryBytes()).toBe(before);
    expect(before).toBeLessThan(2 << 20);
  });

  it("maxFrames caps the fingerprint and says so", () => {
    const stereo = pcm(join(VECTORS, "test_stereo_44100.raw"));
    const full = fingerprint(stereo, 44100, 1);
    const cp = new Chromaprinter(chromaprintModule, { maxFrames: 5 });
    const r = cp.fingerprint(stereo, 44100, 1);
    expect(r).toEqual({ status: "computed", raw: full.subarray(0, 5), truncated: true });
  });

  it("a second Chromaprinter starting on the same kernel interrupts the first instead of mixing streams", () => {
    const a = new Chromaprinter(chromaprintModule);
    const b = new Chromaprinter(chromaprintModule);
    const stereo = pcm(join(VECTORS, "test_stereo_44100.raw"));
    a.start(44100, 1);
    a.write(stereo.subarray(0, 50000));
    b.start(44100, 1);
    a.write(stereo.subarray(50000));
    expect(a.finish().length).toBe(0);
    expect(a.state).toBe("failed");
    b.write(stereo);
    expect(encodeChromaprint(b.finish())).toBe(FP1);
  });
});
