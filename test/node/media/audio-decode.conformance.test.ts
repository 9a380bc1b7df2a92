/**
 * The audio decoder (src/media/codecs/audio) in Node against FFmpeg and against the fixtures' own samples:
 * WAV and FLAC decode bit-exactly (FFmpeg's s16 decode; the FLAC and WAV fixtures are cut from one master, so
 * they agree sample for sample), MP3 within 1 LSB of FFmpeg's (a different decoder: the SNR is stated below);
 * the streaming contract (one start, whole frames, ≤ 1 s per write), maxSeconds, WAV's sample formats, signed-style
 * carriers, and hostile files (a status, never a throw or a hang). The same fixtures decode in workerd
 * (test/workers/media/audio-decode.happy.test.ts) to the same digests.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmAudioDecoder } from "../../../src/media/codecs/audio";
import { nodeAudioDecoder } from "../../../src/media/codecs/audio/node";
import { s16FromFloat } from "../../../src/media/codecs/audio/pcm";
import {
  AUDIO_FIXTURES,
  type AudioFixtureName,
  collect,
  flacWithApplicationBlock,
  HOSTILE,
  manifestLike,
  mp3WithGeob,
  sha256Hex,
  wavWithC2paChunk,
} from "../../workers/media/audio-decode.helpers";

const DIR = new URL("../../fixtures/audio/", import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, DIR)));
let decoder: WasmAudioDecoder;
beforeAll(async () => {
  decoder = await nodeAudioDecoder();
});

/** FFmpeg's decode of a file to interleaved s16 (native FLAC/PCM decoders; its own float MP3 decoder + swresample). */
function ffmpegS16(path: string, extra: string[] = []): Int16Array {
  const out = execFileSync("ffmpeg", ["-v", "error", "-i", path, ...extra, "-f", "s16le", "-"], { maxBuffer: 1 << 28 });
  return new Int16Array(out.buffer, out.byteOffset, out.length / 2);
}

function compare(ours: Int16Array, ref: Int16Array) {
  expect(ours.length).toBe(ref.length);
  let signal = 0;
  let noise = 0;
  let maxDiff = 0;
  let equal = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = ours[i]! - ref[i]!;
    signal += ref[i]! * ref[i]!;
    noise += d * d;
    if (d === 0) equal++;
    else maxDiff = Math.max(maxDiff, Math.abs(d));
  }
  return { snrDb: noise === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10(signal / noise), maxDiff, equalFraction: equal / ref.length };
}

/** The samples of a 16-bit PCM WAV's data chunk, read directly. */
function wavSamples(wav: Uint8Array): Int16Array {
  let at = 12;
  for (;;) {
    const id = String.fromCharCode(...wav.subarray(at, at + 4));
    const size = wav[at + 4]! | (wav[at + 5]! << 8) | (wav[at + 6]! << 16) | (wav[at + 7]! << 24);
    if (id === "data") return new Int16Array(wav.slice(at + 8, at + 8 + size).buffer);
    at += 8 + size + (size & 1);
  }
}

describe("fixtures", () => {
  for (const [name, want] of Object.entries(AUDIO_FIXTURES)) {
    it(`${name} decodes to ${want.sampleRate} Hz × ${want.channels}, ${want.frames} frames, in ≤ 1 s writes`, async () => {
      const { result, pcm, writeFrames } = await collect(decoder, fixture(name), want.type);
      expect(result).toEqual({
        status: "decoded",
        sampleRate: want.sampleRate,
        channels: want.channels,
        frames: want.frames,
        truncated: false,
      });
      // Full chunks (1 s at these rates) but the last.
      for (const n of writeFrames.slice(0, -1)) expect(n).toBe(want.sampleRate);
      expect(await sha256Hex(pcm)).toBe(want.sha256);
    });
  }

  it("WAV and FLAC: bit-exact (the WAV's own samples; the FLAC's first 3 s are the WAV)", async () => {
    const wav = fixture("speech-music.wav");
    const fromWav = (await collect(decoder, wav, "audio/wav")).pcm;
    expect(fromWav).toEqual(wavSamples(wav));
    const fromFlac = (await collect(decoder, fixture("speech-music.flac"), "audio/flac")).pcm;
    expect(fromFlac.subarray(0, fromWav.length)).toEqual(fromWav);
    expect(compare(fromFlac, ffmpegS16(fileURLToPath(new URL("speech-music.flac", DIR)))).maxDiff).toBe(0);
  });

  // Measured (FFmpeg 5.1, mpg123-decoder 1.0.3): SNR 98.4 / 98.3 / 98.6 dB, |diff| ≤ 1, 99.86 % of samples equal.
  for (const name of ["speech-music-128k.mp3", "speech-music-64k.mp3", "speech-music-48k-64k.mp3"] as AudioFixtureName[]) {
    it(`${name}: libmpg123 within 1 LSB of FFmpeg's decoder (SNR ≥ 95 dB, same length and alignment)`, async () => {
      const { pcm } = await collect(decoder, fixture(name), "audio/mpeg");
      const c = compare(pcm, ffmpegS16(fileURLToPath(new URL(name, DIR))));
      expect(c.maxDiff).toBeLessThanOrEqual(1);
      expect(c.snrDb).toBeGreaterThan(95);
      expect(c.equalFraction).toBeGreaterThan(0.995);
    });
  }
});

describe("maxSeconds", () => {
  for (const name of ["speech-music.wav", "speech-music.flac", "speech-music-64k.mp3"] as AudioFixtureName[]) {
    it(`${name}: stops at the limit, truncated, a prefix of the whole decode`, async () => {
      const { type, sampleRate } = AUDIO_FIXTURES[name];
      const whole = await collect(decoder, fixture(name), type);
      const cut = await collect(decoder, fixture(name), type, 1.25);
      expect(cut.result).toMatchObject({ status: "decoded", frames: Math.floor(1.25 * sampleRate), truncated: true });
      expect(cut.pcm).toEqual(whole.pcm.subarray(0, cut.pcm.length));
      const all = await collect(decoder, fixture(name), type, 60);
      expect(all.result).toMatchObject({ truncated: false, frames: AUDIO_FIXTURES[name].frames });
    });
  }
});

describe("WAV sample formats (built from the 16-bit fixture)", () => {
  const source = wavSamples(fixture("speech-music.wav")).subarray(0, 2 * 20_000);
  const frames = source.length / 2;

  /** A WAV of `channels` with `format` (1 PCM / 3 float / 0xfffe extensible) and `bits`, samples by `put`. */
  function wav(opts: {
    tag: number;
    bits: number;
    channels?: number;
    riff?: string;
    extra?: Uint8Array;
    put: (v: DataView, at: number, x: number) => void;
  }) {
    const channels = opts.channels ?? 2;
    const bytes = opts.bits / 8;
    const extensible = opts.tag === 0xfffe;
    const fmtSize = extensible ? 40 : 16;
    const dataSize = frames * channels * bytes;
    const extra = opts.extra ?? new Uint8Array(0);
    const ds64 = opts.riff === "RF64" ? 8 + 28 : 0;
    const total = 12 + ds64 + 8 + fmtSize + extra.length + 8 + dataSize;
    const v = new DataView(new ArrayBuffer(total));
    const tag = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
    tag(0, opts.riff ?? "RIFF");
    v.setUint32(4, opts.riff === "RF64" ? 0xffffffff : total - 8, true);
    tag(8, "WAVE");
    let at = 12;
    if (ds64) {
      tag(at, "ds64");
      v.setUint32(at + 4, 28, true);
      v.setUint32(at + 8, total - 8, true);
      v.setUint32(at + 16, dataSize, true);
      v.setUint32(at + 24, frames, true);
      at += ds64;
    }
    tag(at, "fmt ");
    v.setUint32(at + 4, fmtSize, true);
    v.setUint16(at + 8, opts.tag, true);
    v.setUint16(at + 10, channels, true);
    v.setUint32(at + 12, 44100, true);
    v.setUint32(at + 16, 44100 * channels * bytes, true);
    v.setUint16(at + 20, channels * bytes, true);
    v.setUint16(at + 22, opts.bits, true);
    if (extensible) {
      v.setUint16(at + 24, 22, true);
      v.setUint16(at + 26, opts.bits, true);
      v.setUint16(at + 32, opts.bits === 64 || opts.put === putF32 ? 3 : 1, true);
      [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71].forEach((b, i) => v.setUint8(at + 34 + i, b));
    }
    at += 8 + fmtSize;
    new Uint8Array(v.buffer).set(extra, at);
    at += extra.length;
    tag(at, "data");
    v.setUint32(at + 4, opts.riff === "RF64" ? 0xffffffff : dataSize, true);
    at += 8;
    for (let f = 0; f < frames; f++) for (let c = 0; c < channels; c++, at += bytes) opts.put(v, at, source[f * 2 + (c % 2)]!);
    return new Uint8Array(v.buffer);
  }
  const putF32 = (v: DataView, at: number, x: number) => v.setFloat32(at, x / 32768, true);
  const expected = (channels: number, map: (x: number) => number = (x) => x) =>
    Int16Array.from({ length: frames * channels }, (_, i) => map(source[Math.floor(i / channels) * 2 + ((i % channels) % 2)]!));

  const cases: [string, Parameters<typeof wav>[0], Int16Array][] = [
    ["8-bit unsigned", { tag: 1, bits: 8, put: (v, at, x) => v.setUint8(at, (x >> 8) + 128) }, expected(2, (x) => (x >> 8) << 8)],
    ["24-bit", { tag: 1, bits: 24, put: (v, at, x) => (v.setUint8(at, 0x7f), v.setInt16(at + 1, x, true)) }, expected(2)],
    ["32-bit", { tag: 1, bits: 32, put: (v, at, x) => v.setInt32(at, x * 65536 + 0xffff, true) }, expected(2)],
    ["float 32", { tag: 3, bits: 32, put: putF32 }, expected(2)],
    ["float 64", { tag: 3, bits: 64, put: (v, at, x) => v.setFloat64(at, x / 32768, true) }, expected(2)],
    ["extensible 24-bit", { tag: 0xfffe, bits: 24, put: (v, at, x) => v.setInt16(at + 1, x, true) }, expected(2)],
    ["extensible float", { tag: 0xfffe, bits: 32, put: putF32 }, expected(2)],
    ["mono", { tag: 1, bits: 16, channels: 1, put: (v, at, x) => v.setInt16(at, x, true) }, expected(1)],
    ["8 channels", { tag: 1, bits: 16, channels: 8, put: (v, at, x) => v.setInt16(at, x, true) }, expected(8)],
    ["RF64", { tag: 1, bits: 16, riff: "RF64", put: (v, at, x) => v.setInt16(at, x, true) }, expected(2)],
    [
      "odd-sized unknown chunk before data",
      {
        tag: 1,
        bits: 16,
        extra: new Uint8Array([...new TextEncoder().encode("LIST"), 3, 0, 0, 0, 1, 2, 3, 0]),
        put: (v, at, x) => v.setInt16(at, x, true),
      },
      expected(2),
    ],
  ];
  for (const [label, opts, want] of cases) {
    it(label, async () => {
      const { result, pcm } = await collect(decoder, wav(opts), "audio/wav");
      expect(result).toMatchObject({ status: "decoded", sampleRate: 44100, channels: opts.channels ?? 2, frames });
      expect(pcm).toEqual(want);
    });
  }

  it("a file cut inside its data decodes the whole frames present", async () => {
    const whole = fixture("speech-music.wav");
    const cut = whole.subarray(0, 44 + 4 * 1000 + 3);
    const { result, pcm } = await collect(decoder, cut, "audio/wav");
    expect(result).toMatchObject({ status: "decoded", frames: 1000 });
    expect(pcm).toEqual(wavSamples(whole).subarray(0, 2000));
  });

  it("float to s16 as swresample: round to nearest, ties to even, clipped", () => {
    const s = (x: number) => s16FromFloat(x / 32768);
    expect([s(0.5), s(1.5), s(2.5), s(-0.5), s(-1.5), s(-2.5), s(0.49), s(-0.51)]).toEqual([0, 2, 2, 0, -2, -2, 0, -1]);
    expect([s16FromFloat(1), s16FromFloat(-1), s16FromFloat(1.5), s16FromFloat(-7), s16FromFloat(Number.NaN)]).toEqual([
      32767, -32768, 32767, -32768, 0,
    ]);
  });
});

describe("signed-style files decode as their unsigned originals", () => {
  const payload = manifestLike(20_001);
  const cases: [AudioFixtureName, (b: Uint8Array) => Uint8Array][] = [
    ["speech-music.wav", (b) => wavWithC2paChunk(b, payload)],
    ["speech-music.wav", (b) => wavWithC2paChunk(b, payload, "at-end")],
    // Some taggers put an ID3v2 tag in front of "fLaC" (not in the format; FFmpeg reads through it too).
    ["speech-music.flac", (b) => mp3WithGeob(b, payload, 0)],
    ["speech-music-128k.mp3", (b) => mp3WithGeob(b, payload)],
    ["speech-music-48k-64k.mp3", (b) => mp3WithGeob(b, payload, 0)],
    ["speech-music.flac", (b) => flacWithApplicationBlock(b, payload)],
  ];
  for (const [i, [name, sign]] of cases.entries()) {
    it(`${name} (${i})`, async () => {
      const want = AUDIO_FIXTURES[name];
      const { result, pcm } = await collect(decoder, sign(fixture(name)), want.type);
      expect(result).toEqual({
        status: "decoded",
        sampleRate: want.sampleRate,
        channels: want.channels,
        frames: want.frames,
        truncated: false,
      });
      expect(await sha256Hex(pcm)).toBe(want.sha256);
    });
  }
});

describe("other channel layouts and depths (encoded here by FFmpeg from the WAV)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "audio-decode-"));
    return () => rmSync(dir, { recursive: true, force: true });
  });
  const encode = (out: string, args: string[]) => {
    const path = join(dir, out);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", fileURLToPath(new URL("speech-music.wav", DIR)), ...args, path]);
    return path;
  };

  it("mono MP3: one channel, within 1 LSB of FFmpeg", async () => {
    const path = encode("mono.mp3", ["-ac", "1", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const { result, pcm } = await collect(decoder, new Uint8Array(readFileSync(path)), "audio/mpeg");
    expect(result).toMatchObject({ status: "decoded", channels: 1, sampleRate: 44100 });
    expect(compare(pcm, ffmpegS16(path)).maxDiff).toBeLessThanOrEqual(1);
  });

  for (const [rate, kbps] of [
    [22050, "32k"],
    [8000, "16k"],
  ] as const) {
    it(`MPEG-${rate === 8000 ? "2.5" : "2"} layer III at ${rate} Hz: within 1 LSB of FFmpeg, same length`, async () => {
      const path = encode(`low-${rate}.mp3`, ["-ar", String(rate), "-c:a", "libmp3lame", "-b:a", kbps]);
      const { result, pcm } = await collect(decoder, new Uint8Array(readFileSync(path)), "audio/mpeg");
      expect(result).toMatchObject({ status: "decoded", channels: 2, sampleRate: rate });
      expect(compare(pcm, ffmpegS16(path)).maxDiff).toBeLessThanOrEqual(1);
    });
  }

  it("24-bit 6-channel FLAC: as FFmpeg's s32 → s16 (a shift)", async () => {
    const path = encode("deep.flac", [
      "-af",
      "pan=5.1|FL=c0|FR=c1|FC=0.5*c0+0.5*c1|LFE=0.3*c0|BL=c0|BR=c1",
      "-c:a",
      "flac",
      "-sample_fmt",
      "s32",
    ]);
    const { result, pcm } = await collect(decoder, new Uint8Array(readFileSync(path)), "audio/flac");
    expect(result).toMatchObject({ status: "decoded", channels: 6, sampleRate: 44100, frames: 132_300 });
    const c = compare(pcm, ffmpegS16(path));
    // libFLAC's float output (int / (2^23 - 1), single precision) round-trips a 24-bit sample within one step.
    expect(c.maxDiff).toBeLessThanOrEqual(1);
    expect(c.equalFraction).toBeGreaterThan(0.999);
  });
});

describe("hostile files: a status, never a throw or a hang", () => {
  for (const [file, type, status] of HOSTILE) {
    it(`${file} as ${type} → ${status}`, async () => {
      const started = performance.now();
      const { result } = await collect(decoder, fixture(file), type);
      expect(result.status).toBe(status);
      expect((result as { message: string }).message).toMatch(/\w/);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  }

  it("FLAC: 2 MB of crafted frame headers (CRC-8 right, no frame ends) fail in linear time", async () => {
    const crc8 = (bytes: number[]) => {
      let c = 0;
      for (const x of bytes) {
        c ^= x;
        for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
      }
      return c;
    };
    const head = fixture("speech-music.flac").slice(0, 42);
    head[4] = 0x80; // STREAMINFO is the last block
    const file = new Uint8Array(42 + (2 << 20));
    file.set(head);
    // Headers for 4096-sample 16-bit stereo 44.1 kHz frames every 16 bytes (the package's own frame finder spent
    // about a minute of CPU on this).
    for (let at = 42, n = 0; at + 6 <= file.length; at += 16, n++) {
      const h = [0xff, 0xf8, 0xc9, 0x18, n & 0x3f];
      file.set([...h, crc8(h)], at);
    }
    const cpu = process.cpuUsage();
    const { result } = await collect(decoder, file, "audio/flac");
    const { user, system } = process.cpuUsage(cpu);
    expect(result).toEqual({ status: "failed", message: "no FLAC audio could be decoded (FLAC stream too damaged to resynchronise)" });
    expect((user + system) / 1000).toBeLessThan(1500);
  });

  it("FLAC: a damaged frame is dropped and decoding resumes at the next one", async () => {
    const flac = fixture("speech-music.flac");
    const whole = (await collect(decoder, flac, "audio/flac")).pcm;
    const damaged = flac.slice();
    const middle = Math.floor(flac.length / 2);
    damaged[middle] = damaged[middle]! ^ 0x55;
    const { result, pcm } = await collect(decoder, damaged, "audio/flac");
    expect(result).toMatchObject({ status: "decoded", channels: 2 });
    const frames = (result as { frames: number }).frames;
    // One 4096-sample block lost, the rest intact: the decode ends as the undamaged one does.
    expect(frames).toBe(308_700 - 4096);
    expect(pcm.subarray(pcm.length - 200_000)).toEqual(whole.subarray(whole.length - 200_000));
  });

  it("a throwing sink gives failed, not a throw", async () => {
    const result = await decoder.decode(fixture("speech-music.wav"), "audio/wav", {
      start() {},
      write() {
        throw new Error("sink full");
      },
    });
    expect(result).toEqual({ status: "failed", message: "wav decoder error: sink full" });
  });
});
