/**
 * Conformance of our own audio watermark (wasm/audiowm, src/media/watermark/audio) with the AudioWatermarker
 * invariants in src/media/watermark/audio/types.ts:
 *
 * - detect(embed(x, p, k), k) = p on music-like audio (harmonic voices with envelopes and vibrato, a bass line,
 *   noise-burst drums, generated here from a seed), stereo 44.1 kHz, mono 48 kHz, 8 channels, 8 kHz and 96 kHz;
 *   SNR >= 30 dB, as reported and as recomputed here; the input untouched; deterministic;
 * - robustness: volume +-6 dB, resampling 44.1 <-> 48 kHz (a windowed-sinc resampler written here), a 10-s excerpt
 *   at an arbitrary offset, additive white noise at 25 dB SNR, and (with ffmpeg) MP3 64 kbit/s and AAC 96 kbit/s;
 * - unmarked audio and the wrong key: not_detected (counted over many seeds); falsePositiveBound <= 2e-6;
 * - hostile inputs (empty, one sample, full-scale extremes, silence, wrong types and sizes): a clean status, never a
 *   throw.
 *
 * The measured rates over real-sounding clips (speech over music, Debian music) are in
 * bench/audio-watermark-robustness.mjs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watermarkFalsePositiveBound } from "../../../src/media/watermark";
import {
  AUDIO_WATERMARK_ALGORITHM,
  AUDIO_WATERMARK_MIN_SNR_DB,
  AUDIO_WATERMARK_MINIMUM_SECONDS,
  type AudioWatermarkDetectResult,
  WasmAudioWatermarker,
} from "../../../src/media/watermark/audio";
import { prng } from "../../support/prng";
import { expectSameBytes } from "../../support/same-bytes";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const WASM = join(ROOT, "wasm", "build", "audiowm.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);
const compileWasm = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);
const wm = new WasmAudioWatermarker(compileWasm(readFileSync(WASM)));

const KEY = new TextEncoder().encode("test-deployment-key");
const OTHER_KEY = new TextEncoder().encode("test-deployment-key-2");
const PAYLOAD = Uint8Array.from([0x5a, 0x01, 0xfe, 0x33, 0x80, 0x7f, 0x00, 0xc4]);

// ---------------------------------------------------------------------------------------------------------
// Music-like PCM (seeded): chords of harmonic voices with attack/decay envelopes and vibrato, a bass line,
// kick/snare/hat noise bursts, voices panned across the channels, over a low room-noise floor

function music(seed: number, seconds: number, rate: number, channels: number, peak = 0.7): Int16Array {
  const rnd = prng(seed);
  const n = Math.round(seconds * rate);
  const mix = new Float32Array(n * channels);
  const beat = (60 / (80 + rnd() * 80)) * rate;
  const root = 45 + Math.floor(rnd() * 12);
  const harmonics = 5 + Math.floor(rnd() * 8);
  const bright = 0.4 + rnd() * 0.5;
  const scale = [0, 2, 4, 5, 7, 9, 11];
  const add = (at: number, x: number, pan: number) => {
    if (at < 0 || at >= n) return;
    for (let c = 0; c < channels; c++) {
      const p = channels === 1 ? 1 : 1.4 * (c % 2 === 0 ? 1 - pan : pan);
      mix[at * channels + c] = (mix[at * channels + c] ?? 0) + x * p;
    }
  };
  for (let b = 0, t = 0; t < n; b++, t = Math.round(b * beat)) {
    const degree = [0, 3, 4, 5][Math.floor(rnd() * 4)] ?? 0;
    const note = (s: number) => root + 12 + (scale[(degree + s) % 7] ?? 0) + 12 * Math.floor((degree + s) / 7);
    const voices = [
      { m: note(Math.floor(rnd() * 3) * 2) + 12, amp: 0.12, dur: beat, pan: rnd() },
      { m: root + (scale[degree] ?? 0) - 12, amp: 0.16, dur: beat, pan: 0.5 },
    ];
    if (b % 4 === 0) for (const s of [0, 2, 4]) voices.push({ m: note(s), amp: 0.06, dur: beat * 4, pan: rnd() });
    for (const v of voices) {
      const f = 440 * 2 ** ((v.m - 69) / 12);
      const len = Math.min(Math.round(v.dur * 1.2), n - t);
      const weights = Array.from({ length: harmonics }, (_, h) => bright ** h / (h + 1));
      const decay = Math.exp(-2 / rate);
      let fall = 1;
      for (let i = 0; i < len; i++) {
        const tt = i / rate;
        fall *= decay;
        const env = Math.min(1, tt * 80) * fall * (1 - i / len);
        const ph = 2 * Math.PI * f * tt + ((0.003 * f) / 5) * Math.sin(2 * Math.PI * 5 * tt);
        // sin(h ph) by the recurrence sin(h x) = 2 cos(x) sin((h - 1) x) - sin((h - 2) x)
        const c2 = 2 * Math.cos(ph);
        let s1 = Math.sin(ph);
        let s0 = 0;
        let s = 0;
        for (let h = 0; h < harmonics; h++) {
          s += (weights[h] ?? 0) * s1;
          const next = c2 * s1 - s0;
          s0 = s1;
          s1 = next;
        }
        add(t + i, v.amp * env * s, v.pan);
      }
    }
    const drum = (at: number, len: number, amp: number, tone: number, noise: number, decay: number) => {
      for (let i = 0; i < len; i++) {
        const tt = i / rate;
        const env = Math.exp(-tt * decay);
        add(at + i, amp * env * Math.sin(2 * Math.PI * tone * tt * (1 + 2 * env)) + noise * env * (rnd() * 2 - 1), 0.5);
      }
    };
    if (b % 2 === 0) drum(t, Math.round(0.25 * rate), 0.3, 55, 0.02, 18);
    else drum(t, Math.round(0.2 * rate), 0.08, 180, 0.12, 25);
    drum(t + Math.round(beat / 2), Math.round(0.05 * rate), 0, 0, 0.04, 90);
  }
  // a room-noise floor (one-pole low-passed noise) under the instruments, as any recording has
  let lp = 0;
  for (let i = 0; i < n; i++) {
    lp = 0.9 * lp + 0.1 * (rnd() * 2 - 1);
    for (let c = 0; c < channels; c++) mix[i * channels + c] = (mix[i * channels + c] ?? 0) + 0.02 * lp;
  }
  let max = 1e-9;
  for (const v of mix) max = Math.max(max, Math.abs(v));
  const out = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) out[i] = Math.round(((mix[i] ?? 0) / max) * peak * 32767);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Transformations

/** Windowed-sinc (Blackman, 8 zero crossings a side) resampling of interleaved PCM. */
function resample(pcm: Int16Array, channels: number, from: number, to: number): Int16Array {
  const frames = pcm.length / channels;
  const outFrames = Math.floor((frames * to) / from);
  const out = new Int16Array(outFrames * channels);
  const fc = 0.45 * Math.min(from, to);
  const g = (2 * fc) / from;
  const Z = 8;
  const hw = Z / g;
  for (let m = 0; m < outFrames; m++) {
    const c = (m * from) / to;
    const lo = Math.max(0, Math.ceil(c - hw));
    const hi = Math.min(frames - 1, Math.floor(c + hw));
    for (let ch = 0; ch < channels; ch++) {
      let acc = 0;
      for (let k = lo; k <= hi; k++) {
        const u = (k - c) * g;
        const s = u === 0 ? 1 : Math.sin(Math.PI * u) / (Math.PI * u);
        const x = 0.5 + (0.5 * Math.abs(u)) / Z;
        const w = 0.42 - 0.5 * Math.cos(2 * Math.PI * x) + 0.08 * Math.cos(4 * Math.PI * x);
        acc += (pcm[k * channels + ch] ?? 0) * s * w;
      }
      out[m * channels + ch] = Math.max(-32768, Math.min(32767, Math.round(acc * g)));
    }
  }
  return out;
}

function gain(pcm: Int16Array, g: number): Int16Array {
  return pcm.map((v) => Math.max(-32768, Math.min(32767, Math.round(v * g))));
}

/** White noise at `snrDb` below the signal's power. */
function addNoise(pcm: Int16Array, snrDb: number, seed: number): Int16Array {
  let power = 0;
  for (const v of pcm) power += v * v;
  const sigma = Math.sqrt(power / pcm.length / 10 ** (snrDb / 10));
  const rnd = prng(seed);
  return pcm.map((v) => {
    const gauss = Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
    return Math.max(-32768, Math.min(32767, Math.round(v + sigma * gauss)));
  });
}

function snrDb(a: Int16Array, b: Int16Array): number {
  let s = 0;
  let e = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const d = (b[i] ?? 0) - x;
    s += x * x;
    e += d * d;
  }
  return 10 * Math.log10(s / e);
}

const isPayload = (d: AudioWatermarkDetectResult, p: Uint8Array) =>
  d.status === "detected" && d.payload.length === 8 && d.payload.every((v, i) => v === p[i]);

function embedOrThrow(pcm: Int16Array, sampleRate: number, channels: number, payload = PAYLOAD): Int16Array {
  const r = wm.embed({ pcm, sampleRate, channels, payload, key: KEY });
  if (r.status !== "embedded") throw new Error(`embed: ${r.status}: ${r.message}`);
  return r.pcm;
}

// one marked stereo 44.1 kHz clip of 24 s shared by the robustness cases
const CLIP = music(7, 24, 44100, 2);
const MARKED = embedOrThrow(CLIP, 44100, 2);

describe("svc-awm-stdm-1: the AudioWatermarker invariants", { timeout: 180_000 }, () => {
  it("names itself and states its bounds", () => {
    expect(wm.algorithm).toBe(AUDIO_WATERMARK_ALGORITHM);
    expect(wm.algorithm).toBe("svc-awm-stdm-1");
    expect(wm.payloadBits).toBe(64);
    expect(wm.minimumSeconds).toBe(AUDIO_WATERMARK_MINIMUM_SECONDS);
    expect(wm.minimumSnrDb).toBe(30);
    // BCH(127,78), t = 7, 64 payload bits (+ CRC-14), 6 windows x 3 alignments x 8 Chase patterns
    expect(wm.falsePositiveBound).toBe(watermarkFalsePositiveBound(127, 7, 64, 6 * 3 * 8));
    expect(wm.falsePositiveBound).toBeLessThan(2e-6);
  });

  it("round trip: stereo 44.1 kHz, SNR >= 30 dB (reported and recomputed), input untouched, deterministic", () => {
    const before = CLIP.slice();
    const r = wm.embed({ pcm: CLIP, sampleRate: 44100, channels: 2, payload: PAYLOAD, key: KEY });
    expect(r.status).toBe("embedded");
    if (r.status !== "embedded") return;
    expectSameBytes(CLIP, before, "the input");
    expectSameBytes(r.pcm, MARKED, "the marked samples");
    expect(r.pcm.length).toBe(CLIP.length);
    expect(r.snr_db).toBeGreaterThanOrEqual(AUDIO_WATERMARK_MIN_SNR_DB);
    expect(Math.abs(snrDb(CLIP, r.pcm) - r.snr_db)).toBeLessThan(0.01);
    const d = wm.detect({ pcm: r.pcm, sampleRate: 44100, channels: 2, key: KEY });
    expect(isPayload(d, PAYLOAD)).toBe(true);
    if (d.status === "detected") {
      expect(d.confidence).toBeGreaterThan(0.5);
      expect(d.confidence).toBeLessThanOrEqual(1);
      // the pattern's period is 8.192 s: the first whole repetition starts at 0 in the marked file itself
      expect(d.offsetSeconds).toBeLessThan(0.05);
    }
  });

  it("other layouts: mono 48 kHz, 8 channels at 44.1 kHz, 8 kHz (20 s: its band stops at 3.6 kHz) and 96 kHz", () => {
    for (const [rate, channels, seed, seconds] of [
      [48000, 1, 11, 10],
      [44100, 8, 12, 10],
      [8000, 1, 13, 20],
      [96000, 2, 14, 10],
    ] as const) {
      const pcm = music(seed, seconds, rate, channels);
      const payload = Uint8Array.from({ length: 8 }, (_, i) => (seed * 41 + i * 13) & 255);
      const r = wm.embed({ pcm, sampleRate: rate, channels, payload, key: KEY });
      expect(r.status, `${rate} Hz x ${channels}`).toBe("embedded");
      if (r.status !== "embedded") continue;
      expect(r.snr_db).toBeGreaterThanOrEqual(30);
      expect(isPayload(wm.detect({ pcm: r.pcm, sampleRate: rate, channels, key: KEY }), payload), `${rate} Hz x ${channels}`).toBe(true);
    }
  });

  it("survives volume +6 dB and -6 dB", () => {
    for (const g of [2, 0.5])
      expect(isPayload(wm.detect({ pcm: gain(MARKED, g), sampleRate: 44100, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
  });

  it("survives resampling 44.1 -> 48 kHz, and a clip marked at 48 kHz resampled to 44.1 kHz", () => {
    const up = resample(MARKED, 2, 44100, 48000);
    expect(isPayload(wm.detect({ pcm: up, sampleRate: 48000, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
    const at48 = embedOrThrow(music(8, 12, 48000, 2), 48000, 2);
    const down = resample(at48, 2, 48000, 44100);
    expect(isPayload(wm.detect({ pcm: down, sampleRate: 44100, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
  });

  it("a 10-s excerpt at an arbitrary offset carries the payload", () => {
    for (const start of [3.3331, 11.71]) {
      const a = Math.round(start * 44100) * 2;
      const excerpt = MARKED.slice(a, a + 10 * 44100 * 2);
      const d = wm.detect({ pcm: excerpt, sampleRate: 44100, channels: 2, key: KEY });
      expect(isPayload(d, PAYLOAD), `excerpt at ${start} s`).toBe(true);
    }
  });

  it("a long file is read in windows: 50 s of mono 16 kHz", () => {
    const long = music(31, 50, 16000, 1);
    const payload = Uint8Array.from([3, 1, 4, 1, 5, 9, 2, 6]);
    const marked = embedOrThrow(long, 16000, 1, payload);
    expect(isPayload(wm.detect({ pcm: marked, sampleRate: 16000, channels: 1, key: KEY }), payload)).toBe(true);
    // only the last 20 s marked: of the detector's three 20-s windows (0, 15 and 30 s), only the last is wholly marked
    const spliced = long.slice();
    spliced.set(marked.subarray(30 * 16000), 30 * 16000);
    expect(isPayload(wm.detect({ pcm: spliced, sampleRate: 16000, channels: 1, key: KEY }), payload)).toBe(true);
  });

  it("survives additive white noise at 25 dB SNR", () => {
    expect(isPayload(wm.detect({ pcm: addNoise(MARKED, 25, 3), sampleRate: 44100, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
  });

  it("unmarked audio and the wrong key: not_detected (false positives counted over 16 seeds)", () => {
    let hits = 0;
    for (let seed = 100; seed < 116; seed++) {
      const d = wm.detect({
        pcm: music(seed, 10, seed % 2 ? 44100 : 48000, 1 + (seed % 2)),
        sampleRate: seed % 2 ? 44100 : 48000,
        channels: 1 + (seed % 2),
        key: KEY,
      });
      expect(d.status).not.toBe("failed");
      if (d.status === "detected") hits++;
    }
    expect(hits).toBe(0);
    expect(wm.detect({ pcm: MARKED, sampleRate: 44100, channels: 2, key: OTHER_KEY }).status).toBe("not_detected");
    expect(wm.detect({ pcm: CLIP, sampleRate: 44100, channels: 2, key: KEY }).status).toBe("not_detected");
  });

  it("too short, silence, extremes and malformed input: clean statuses, never a throw", () => {
    const base = { sampleRate: 44100, channels: 1, payload: PAYLOAD, key: KEY };
    expect(wm.embed({ ...base, pcm: new Int16Array(0) }).status).toBe("too_short");
    expect(wm.embed({ ...base, pcm: new Int16Array(1) }).status).toBe("too_short");
    expect(wm.embed({ ...base, pcm: music(1, 8.5, 44100, 1) }).status).toBe("too_short");
    expect(wm.detect({ ...base, pcm: new Int16Array(0) }).status).toBe("not_detected");
    expect(wm.detect({ ...base, pcm: new Int16Array(1) }).status).toBe("not_detected");
    // digital silence: nothing to carry the mark
    const silence = new Int16Array(10 * 44100);
    expect(wm.embed({ ...base, pcm: silence }).status).toBe("failed");
    expect(wm.detect({ ...base, pcm: silence }).status).toBe("not_detected");
    // full-scale extremes: a square wave at +-32767/-32768 and the alternating Nyquist pattern
    const square = new Int16Array(10 * 44100).map((_, i) => (Math.floor(i / 50) % 2 ? 32767 : -32768));
    const nyquist = new Int16Array(10 * 44100).map((_, i) => (i % 2 ? 32767 : -32768));
    for (const pcm of [square, nyquist]) {
      const r = wm.embed({ ...base, pcm });
      expect(["embedded", "failed"]).toContain(r.status);
      if (r.status === "embedded") {
        expect(r.snr_db).toBeGreaterThanOrEqual(30);
        expect(isPayload(wm.detect({ ...base, pcm: r.pcm }), PAYLOAD)).toBe(true);
      }
      expect(wm.detect({ ...base, pcm }).status).toBe("not_detected");
    }
    const ten = music(2, 10, 44100, 1);
    const bad: unknown[] = [
      { ...base, pcm: new Float32Array(441000) },
      { ...base, pcm: new Int16Array(441001), channels: 2 },
      { ...base, pcm: ten, channels: 0 },
      { ...base, pcm: ten, channels: 33 },
      { ...base, pcm: ten, sampleRate: Number.NaN },
      { ...base, pcm: ten, sampleRate: 7999 },
      { ...base, pcm: ten, sampleRate: 192001 },
      { ...base, pcm: ten, key: new Uint8Array(0) },
      { ...base, pcm: ten, key: "key" },
      null,
      undefined,
    ];
    for (const input of bad) {
      const e = wm.embed(input as Parameters<typeof wm.embed>[0]);
      const d = wm.detect(input as Parameters<typeof wm.detect>[0]);
      expect(e.status, JSON.stringify(input)?.slice(0, 80)).toBe("failed");
      expect(d.status).toBe("failed");
    }
    for (const payload of [new Uint8Array(7), new Uint8Array(9), [1, 2, 3, 4, 5, 6, 7, 8]])
      expect(wm.embed({ ...base, pcm: ten, payload: payload as Uint8Array }).status).toBe("failed");
    // too long: more than 10 minutes (embed refuses; detect reads the first 10 minutes)
    const long = new Int16Array(601 * 8000);
    expect(wm.embed({ ...base, sampleRate: 8000, pcm: long }).status).toBe("failed");
    expect(wm.detect({ ...base, sampleRate: 8000, pcm: long }).status).toBe("not_detected");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Lossy codecs, with ffmpeg (installed by `npm test` on a fresh machine; skipped where it is absent)

const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;
const work = mkdtempSync(join(tmpdir(), "svc-awm-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function wav(pcm: Int16Array, rate: number, channels: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

function transcode(pcm: Int16Array, rate: number, channels: number, codec: string[], ext: string): Int16Array {
  const src = join(work, "in.wav");
  const enc = join(work, `out.${ext}`);
  writeFileSync(src, wav(pcm, rate, channels));
  execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", src, ...codec, enc]);
  const out = execFileSync(
    "ffmpeg",
    ["-v", "error", "-nostdin", "-i", enc, "-ar", String(rate), "-ac", String(channels), "-f", "s16le", "pipe:1"],
    {
      maxBuffer: 1 << 26,
    },
  );
  return new Int16Array(out.buffer, out.byteOffset, out.byteLength >> 1).slice();
}

describe.skipIf(!hasFfmpeg)("svc-awm-stdm-1 through lossy codecs (ffmpeg)", { timeout: 180_000 }, () => {
  it("survives MP3 64 kbit/s and AAC 96 kbit/s on a 20-s clip", () => {
    const clip = music(21, 20, 44100, 2);
    const marked = embedOrThrow(clip, 44100, 2);
    const mp3 = transcode(marked, 44100, 2, ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3");
    expect(isPayload(wm.detect({ pcm: mp3, sampleRate: 44100, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
    const aac = transcode(marked, 44100, 2, ["-c:a", "aac", "-b:a", "96k"], "m4a");
    expect(isPayload(wm.detect({ pcm: aac, sampleRate: 44100, channels: 2, key: KEY }), PAYLOAD)).toBe(true);
    // the unmarked clip through the same codec stays unmarked
    const plain = transcode(clip, 44100, 2, ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3");
    expect(wm.detect({ pcm: plain, sampleRate: 44100, channels: 2, key: KEY }).status).toBe("not_detected");
  });
});
