/**
 * Review (#20, rev-media): the audio watermark step on FLAC and MP3 uploads (src/jobs/steps/watermark-audio.ts),
 * called directly with the Node audio pipeline and an in-memory bucket, on inputs the step's own tests do not cover:
 * an MP3 whose rate changes mid-stream (a concatenation), a FLAC whose STREAMINFO does not state its length and has a
 * damaged frame, a FLAC with an ID3v2 tag before "fLaC", and LAME's reused instance across different inputs.
 *
 * Audio: test/fixtures/audio/speech-music-128k.mp3 (looped and re-encoded per case by Debian's ffmpeg / flac).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import type { AdmittedRequest } from "../../../src/jobs/admission";
import type { JobRow, ObjectRow } from "../../../src/jobs/repo";
import { StepFailure } from "../../../src/jobs/steps/common";
import { audioWatermarkStep } from "../../../src/jobs/steps/watermark-audio";
import { PcmCollector } from "../../../src/media/audio";
import { nodeAudioDecoder, nodeAudioEncoders } from "../../../src/media/codecs/audio/node";
import { Chromaprinter } from "../../../src/media/fingerprint/audio";
import type { AudioServices } from "../../../src/media/types";
import { WasmAudioWatermarker } from "../../../src/media/watermark/audio";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SOURCE = join(ROOT, "test", "fixtures", "audio", "speech-music-128k.mp3");
const compile = (path: string) =>
  new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(readFileSync(join(ROOT, "wasm", "build", path)));
const decoder = await nodeAudioDecoder();
const encoders = await nodeAudioEncoders();
const watermarker = new WasmAudioWatermarker(compile("audiowm.wasm"));
const chromaprintModule = compile("chromaprint.wasm");
const audio: AudioServices = { decoder, encoders, chromaprint: () => new Chromaprinter(chromaprintModule), watermarker };
const work = mkdtempSync(join(tmpdir(), "svc-wm-review-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function make(seconds: number, ext: string, args: string[], start = 0): Uint8Array {
  const out = join(work, `${crypto.randomUUID()}.${ext}`);
  execFileSync("/usr/bin/ffmpeg", [
    ...["-v", "error", "-stream_loop", "-1", "-ss", String(start), "-i", SOURCE, "-t", String(seconds), "-af", "volume=-3dB"],
    ...args,
    out,
  ]);
  return new Uint8Array(readFileSync(out));
}

async function step(bytes: Uint8Array, mediaType: string, services: AudioServices = audio) {
  const objects = new Map<string, Uint8Array>();
  const bucket = {
    put: async (key: string, b: Uint8Array) => {
      objects.set(key, b.slice());
      return { etag: `e-${objects.size}` };
    },
  } as unknown as R2Bucket;
  const job = { id: "job_rev", tenantId: "ten_rev" } as JobRow;
  const admitted = { watermark_algorithm: "svc-awm-stdm-1", watermark_strength: "balanced" } as AdmittedRequest;
  const source = { r2Key: "src", etag: "e0", mediaType } as ObjectRow;
  return audioWatermarkStep({ OBJECTS: bucket } as Bindings, services, job, admitted, source, async () => bytes);
}

/** Seconds of audio our decoder gives for `bytes`. */
async function seconds(bytes: Uint8Array, mediaType: string): Promise<number> {
  const pcm = new PcmCollector(64 * 1024 * 1024, 0);
  const decoded = await decoder.decode(bytes, mediaType, pcm);
  if (decoded.status !== "decoded") throw new Error(decoded.message);
  return pcm.pcm().length / pcm.channels / pcm.sampleRate;
}

/** Seconds of audio ffmpeg decodes from `bytes` (all of it, every rate). */
function ffmpegSeconds(bytes: Uint8Array, ext: string): number {
  const file = join(work, `${crypto.randomUUID()}.${ext}`);
  writeFileSync(file, bytes);
  const raw = execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-ac", "1", "-ar", "8000", "-f", "s16le", "-"], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return raw.byteLength / 2 / 8000;
}

describe("review: the audio watermark step keeps (or refuses) the whole upload", () => {
  it("an MP3 whose second half is at another rate (two files concatenated) is refused, not published as its first half", async () => {
    const a = make(12, "mp3", ["-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0"]);
    const b = make(12, "mp3", ["-ar", "22050", "-c:a", "libmp3lame", "-b:a", "64k", "-write_xing", "0", "-id3v2_version", "0"], 20);
    const both = new Uint8Array(a.length + b.length);
    both.set(a, 0);
    both.set(b, a.length);
    const upload = ffmpegSeconds(both, "mp3");
    expect(upload).toBeGreaterThan(23);
    let published: number | null = null;
    try {
      const result = await step(both, "audio/mpeg");
      published = ffmpegSeconds(result.bytes, "mp3");
    } catch (error) {
      expect(error).toBeInstanceOf(StepFailure);
    }
    // Either refused, or every second of the upload is in the output: never its first half signed as "the" recording.
    if (published !== null) expect(published).toBeGreaterThan(upload - 1);
  }, 60_000);

  it("a FLAC whose STREAMINFO leaves the length unknown (0, as the format allows) and has a damaged frame is refused, not re-encoded without it", async () => {
    const flac = make(12, "flac", ["-ar", "44100", "-ac", "2", "-c:a", "flac", "-sample_fmt", "s16"]);
    const whole = await seconds(flac, "audio/flac");
    const bytes = flac.slice();
    // STREAMINFO's total samples (36 bits) to 0, "unknown", as a streaming encoder writes it; its MD5 to 0, "unset".
    const body = 8;
    bytes[body + 13] = bytes[body + 13]! & 0xf0;
    bytes.fill(0, body + 14, body + 18);
    bytes.fill(0, body + 18, body + 34);
    // A burst of damage in the middle of the audio (no 0xff: no false sync codes).
    const middle = Math.floor(bytes.length / 2);
    bytes.fill(0x55, middle, middle + 64);
    const kept = await seconds(bytes, "audio/flac");
    expect(kept).toBeLessThan(whole - 0.05); // the decoder drops the damaged frame
    let published: number | null = null;
    try {
      published = await seconds((await step(bytes, "audio/flac")).bytes, "audio/flac");
    } catch (error) {
      expect(error).toBeInstanceOf(StepFailure);
    }
    // The step's own rule (markFlac): a damaged frame must not be skipped and the rest published as the upload's audio.
    if (published !== null) expect(published).toBeGreaterThanOrEqual(whole);
  }, 60_000);

  it("a FLAC with an ID3v2 tag before fLaC: the output keeps it and FFmpeg decodes all of it", async () => {
    const flac = make(10, "flac", ["-ar", "44100", "-ac", "2", "-c:a", "flac", "-sample_fmt", "s16"]);
    const id3 = new Uint8Array(10 + 20);
    id3.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20]);
    id3.set(new TextEncoder().encode("TIT2"), 10);
    id3.set([0, 0, 0, 10, 0, 0, 3], 14);
    id3.set(new TextEncoder().encode("review"), 21);
    const tagged = new Uint8Array(id3.length + flac.length);
    tagged.set(id3, 0);
    tagged.set(flac, id3.length);
    const result = await step(tagged, "audio/flac");
    expect(Array.from(result.bytes.subarray(0, id3.length))).toEqual(Array.from(id3));
    expect(Math.abs(ffmpegSeconds(result.bytes, "flac") - 10)).toBeLessThan(0.05);
  }, 60_000);

  it("an MP3 that turns from mono to stereo at the same rate: the stereo part's right channel is not dropped", async () => {
    const mono = make(12, "mp3", [
      "-ac",
      "1",
      "-ar",
      "44100",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "128k",
      "-write_xing",
      "0",
      "-id3v2_version",
      "0",
    ]);
    // The stereo part carries its sound in the right channel only (left silent).
    const stereo = make(
      12,
      "mp3",
      ["-af", "pan=stereo|c0=0*c0|c1=c0", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0"],
      20,
    );
    const both = new Uint8Array(mono.length + stereo.length);
    both.set(mono, 0);
    both.set(stereo, mono.length);
    /** RMS of the mono downmix of seconds [from, to) as ffmpeg decodes `bytes`. */
    const rms = (bytes: Uint8Array, from: number, to: number) => {
      const file = join(work, `${crypto.randomUUID()}.mp3`);
      writeFileSync(file, bytes);
      const raw = execFileSync("/usr/bin/ffmpeg", [
        "-v",
        "error",
        "-i",
        file,
        "-ss",
        String(from),
        "-t",
        String(to - from),
        "-ac",
        "1",
        "-f",
        "s16le",
        "-",
      ]);
      const x = new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
      let sum = 0;
      for (const v of x) sum += v * v;
      return Math.sqrt(sum / Math.max(1, x.length));
    };
    const uploadLoudness = rms(both, 14, 22);
    expect(uploadLoudness).toBeGreaterThan(300);
    let published: Uint8Array | null = null;
    try {
      published = (await step(both, "audio/mpeg")).bytes;
    } catch (error) {
      expect(error).toBeInstanceOf(StepFailure);
    }
    // Either refused, or the second half still sounds: not the silent left channel of it, published as mono.
    if (published) expect(rms(published, 14, 22)).toBeGreaterThan(uploadLoudness / 4);
  }, 60_000);

  it("an MP3 whose ID3v2.4 tag is appended at the end (footer '3DI', as the standard allows) keeps it", async () => {
    const base = make(12, "mp3", ["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "0", "-write_xing", "0"]);
    const text = new TextEncoder().encode("review-title");
    const frame = new Uint8Array([...new TextEncoder().encode("TIT2"), 0, 0, 0, text.length + 1, 0, 0, 3, ...text]);
    const header = (id: string) => new Uint8Array([...new TextEncoder().encode(id), 4, 0, 0x10, 0, 0, 0, frame.length]);
    const tagged = new Uint8Array([...base, ...header("ID3"), ...frame, ...header("3DI")]);
    const result = await step(tagged, "audio/mpeg");
    expect(Buffer.from(result.bytes).includes(Buffer.from(text))).toBe(true);
  }, 60_000);

  it("a FLAC of 10 s with 3.5 million empty PADDING blocks (14 MiB, under the 16 MiB upload limit) stays within an isolate's 128 MB", async () => {
    const flac = make(10, "flac", ["-ar", "44100", "-ac", "2", "-c:a", "flac", "-sample_fmt", "s16"]);
    // After fLaC + STREAMINFO (4 + 38 bytes): N headers of PADDING (type 1), length 0, not last.
    const at = 4 + 4 + 34;
    expect(flac[4]! & 0x7f).toBe(0);
    expect(flac[4]! & 0x80).toBe(0); // ffmpeg writes more blocks after STREAMINFO
    const n = 3_500_000;
    const bytes = new Uint8Array(flac.length + 4 * n);
    bytes.set(flac.subarray(0, at), 0);
    for (let i = 0; i < n; i++) bytes[at + 4 * i] = 0x01;
    bytes.set(flac.subarray(at), at + 4 * n);
    expect(bytes.length).toBeLessThan(16 * 1024 * 1024);
    let peak = 0;
    const sample = () => {
      gc();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.external);
    };
    const watched: AudioServices = {
      ...audio,
      watermarker: {
        algorithm: watermarker.algorithm,
        minimumSeconds: watermarker.minimumSeconds,
        embed: (input) => (sample(), watermarker.embed(input)),
        detect: (input) => (sample(), watermarker.detect(input)),
      } as AudioServices["watermarker"],
    };
    gc();
    const m0 = process.memoryUsage();
    const baseline = m0.heapUsed + m0.external;
    try {
      await step(bytes, "audio/flac", watched);
    } catch (error) {
      expect(error).toBeInstanceOf(StepFailure);
    }
    const extra = (peak - baseline) / (1024 * 1024);
    console.log(`review: FLAC with ${n} metadata blocks: +${extra.toFixed(0)} MiB live`);
    // The step's own budget for its largest input (watermark-audio-encode.test.ts): 90 MiB over the baseline.
    expect(extra).toBeLessThan(90);
  }, 120_000);
});
