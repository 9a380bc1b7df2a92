/**
 * #20: the audio watermark step on FLAC and MP3 uploads (src/jobs/steps/watermark-audio.ts), called directly with the
 * Node audio pipeline (decoders, our FLAC encoder, LAME in wasm) and an in-memory bucket. A FLAC comes out a valid
 * FLAC (`flac -t`: CRCs and MD5) with its tags and picture kept and its seek table dropped; an MP3 comes out at its
 * bitrate, rate and channel count with its ID3 tags kept; both carry the payload as POST /v1/verify reads it. Damaged,
 * lying and unsupported inputs are clean StepFailures. Plus the step's live memory and CPU on the longest MP3 and FLAC
 * admission lets through.
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
import { AUDIO_WATERMARK_KEY, MonoCollector, WATERMARK_READ_MAX_SAMPLES } from "../../../src/media/audio";
import { nodeAudioDecoder, nodeAudioEncoders } from "../../../src/media/codecs/audio/node";
import { Chromaprinter } from "../../../src/media/fingerprint/audio";
import type { AudioServices } from "../../../src/media/types";
import { WasmAudioWatermarker } from "../../../src/media/watermark/audio";
import { hex } from "../../../src/platform/bytes";
import { expectSameBytes } from "../../support/same-bytes";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SOURCE = join(ROOT, "test", "fixtures", "audio", "speech-music-128k.mp3");
const MiB = 1024 * 1024;
const compile = (path: string) =>
  new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(readFileSync(join(ROOT, "wasm", "build", path)));
const decoder = await nodeAudioDecoder();
const watermarker = new WasmAudioWatermarker(compile("audiowm.wasm"));
const chromaprintModule = compile("chromaprint.wasm");
const audio: AudioServices = {
  decoder,
  encoders: await nodeAudioEncoders(),
  chromaprint: () => new Chromaprinter(chromaprintModule),
  watermarker,
};
const work = mkdtempSync(join(tmpdir(), "svc-wm-encode-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** ffmpeg from the looped fixture (`seconds` long, -3 dB) with `args` for the output; returns its bytes. */
function make(seconds: number, ext: string, args: string[]): Uint8Array {
  const out = join(work, `${crypto.randomUUID()}.${ext}`);
  execFileSync("/usr/bin/ffmpeg", [
    ...["-v", "error", "-stream_loop", "-1", "-i", SOURCE, "-t", String(seconds), "-af", "volume=-3dB"],
    ...args,
    out,
  ]);
  return new Uint8Array(readFileSync(out));
}

function tool(cmd: string, args: string[], bytes: Uint8Array, ext: string): string {
  const file = join(work, `${crypto.randomUUID()}.${ext}`);
  writeFileSync(file, bytes);
  return execFileSync(cmd, [...args.map((a) => (a === "IN" ? file : a))], { stdio: ["ignore", "pipe", "pipe"] }).toString();
}

function memoryBucket() {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    bucket: {
      put: async (key: string, bytes: Uint8Array) => {
        objects.set(key, bytes.slice());
        return { etag: `e-${objects.size}` };
      },
    } as unknown as R2Bucket,
  };
}

async function step(bytes: Uint8Array, mediaType: string, services: AudioServices = audio) {
  const { bucket, objects } = memoryBucket();
  const job = { id: "job_enc", tenantId: "ten_enc" } as JobRow;
  const admitted = { watermark_algorithm: "svc-awm-stdm-1", watermark_strength: "balanced" } as AdmittedRequest;
  const source = { r2Key: "src", etag: "e0", mediaType } as ObjectRow;
  const result = await audioWatermarkStep({ OBJECTS: bucket } as Bindings, services, job, admitted, source, async () => bytes);
  expectSameBytes(objects.get(result.output.output.key), result.bytes, "the stored object and the step's answer");
  return result;
}

/** The payload as POST /v1/verify reads it: the first 60 s decoded, then detected. */
async function verifyPayload(bytes: Uint8Array, mediaType: string): Promise<string | null> {
  const pcm = new MonoCollector(WATERMARK_READ_MAX_SAMPLES);
  const decoded = await decoder.decode(bytes, mediaType, pcm, { maxSeconds: 60 });
  if (decoded.status !== "decoded") return null;
  const found = watermarker.detect({ pcm: pcm.mono(), sampleRate: pcm.sampleRate, channels: 1, key: AUDIO_WATERMARK_KEY });
  return found.status === "detected" ? hex(found.payload) : null;
}

const probe = (bytes: Uint8Array, ext: string) =>
  JSON.parse(tool("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", "IN"], bytes, ext)) as {
    streams: { sample_rate: string; channels: number; bit_rate?: string; sample_fmt: string }[];
    format: { tags?: Record<string, string>; bit_rate: string };
  };

describe("the audio watermark step on FLAC", () => {
  for (const [name, rate, channels] of [
    ["stereo 44.1 kHz", 44_100, 2],
    ["mono 48 kHz", 48_000, 1],
    ["6 channels at 32 kHz", 32_000, 6],
  ] as const) {
    it(`${name}: a valid FLAC (flac -t) with its tags and picture, no seek table, the payload read as verify reads it`, async () => {
      const wav = make(12, "wav", ["-ar", String(rate), "-ac", String(channels), "-c:a", "pcm_s16le"]);
      const png = join(work, "cover.png");
      execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1", png]);
      const wavFile = join(work, `${crypto.randomUUID()}.wav`);
      writeFileSync(wavFile, wav);
      const flacFile = `${wavFile}.flac`;
      execFileSync("flac", ["-s", "--channel-map=none", "-T", "TITLE=svc test", "--picture", png, "-S", "1s", "-o", flacFile, wavFile]);
      const flac = new Uint8Array(readFileSync(flacFile));
      expect(tool("metaflac", ["--list", "IN"], flac, "flac")).toContain("SEEKTABLE");
      const result = await step(flac, "audio/flac");
      const out = result.bytes;
      tool("flac", ["-t", "-s", "IN"], out, "flac");
      const listing = tool("metaflac", ["--list", "IN"], out, "flac");
      expect(listing).toContain("comment[0]: TITLE=svc test");
      expect(listing).toContain("type: 6 (PICTURE)");
      expect(listing).not.toContain("SEEKTABLE");
      expect(probe(out, "flac").streams[0]).toMatchObject({ sample_rate: String(rate), channels, sample_fmt: "s16" });
      expect(await verifyPayload(out, "audio/flac")).toBe(result.output.payload);
      expect(result.output.psnr_db).toBeGreaterThanOrEqual(30);
      // Lossless: FFmpeg decodes the output to as many samples as the upload (only the mark's changes in them).
      const frames = (b: Uint8Array) =>
        tool(
          "/usr/bin/ffprobe",
          ["-v", "error", "-count_packets", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", "IN"],
          b,
          "flac",
        );
      expect(frames(out)).toBe(frames(flac));
    });
  }

  it("24-bit FLAC, a FLAC cut short, and garbage are clean StepFailures", async () => {
    const wav24 = make(12, "flac", ["-c:a", "flac", "-sample_fmt", "s32"]);
    await expect(step(wav24, "audio/flac")).rejects.toMatchObject({
      code: "svc.jobs.decode_failed",
      message: expect.stringMatching(/16-bit FLAC only/),
    });
    const whole = make(12, "flac", ["-c:a", "flac", "-sample_fmt", "s16"]);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.7));
    await expect(step(cut, "audio/flac")).rejects.toMatchObject({
      code: "svc.jobs.decode_failed",
      message: expect.stringMatching(/STREAMINFO/),
    });
    // A STREAMINFO that states 1000 samples more than the frames hold (a lying header): refused, not re-encoded short.
    const lying = whole.slice();
    const total = new DataView(lying.buffer, 22, 4);
    total.setUint32(0, total.getUint32(0) + 1000);
    await expect(step(lying, "audio/flac")).rejects.toMatchObject({
      code: "svc.jobs.decode_failed",
      message: expect.stringMatching(/STREAMINFO/),
    });
    for (const name of ["flac-block-size-absurd.flac", "flac-cut-in-streaminfo.flac", "flac-no-frames.flac"]) {
      const bytes = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "audio", "hostile", name)));
      await expect(step(bytes, "audio/flac"), name).rejects.toBeInstanceOf(StepFailure);
    }
  });
});

describe("the audio watermark step on MP3", () => {
  it("CBR 128 kb/s stereo with ID3v2 and ID3v1 tags: the same bitrate, rate and channels, the tags kept, the payload read back", async () => {
    const mp3 = make(12, "mp3", [
      "-c:a",
      "libmp3lame",
      "-b:a",
      "128k",
      "-metadata",
      "title=svc song",
      "-write_id3v1",
      "1",
      "-id3v2_version",
      "3",
    ]);
    const result = await step(mp3, "audio/mpeg");
    const out = result.bytes;
    const info = probe(out, "mp3");
    expect(info.streams[0]).toMatchObject({ sample_rate: "44100", channels: 2, bit_rate: "128000" });
    expect(info.format.tags?.title).toBe("svc song");
    // The tags are the upload's bytes: its ID3v2 tag leads the output and its ID3v1 tag ends it.
    const id3 = mp3.subarray(0, 10 + ((mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!));
    expectSameBytes(out.subarray(0, id3.length), id3, "the ID3v2 tag");
    expectSameBytes(out.subarray(out.length - 128), mp3.subarray(mp3.length - 128), "the ID3v1 tag");
    expect(await verifyPayload(out, "audio/mpeg")).toBe(result.output.payload);
  });

  it("a VBR source is re-encoded at its average bitrate rounded up to a CBR value; mono 22.05 kHz stays mono 22.05 kHz", async () => {
    const vbr = make(12, "mp3", ["-c:a", "libmp3lame", "-q:a", "2"]);
    const average = Number(probe(vbr, "mp3").format.bit_rate);
    const result = await step(vbr, "audio/mpeg");
    const kbps = Number(probe(result.bytes, "mp3").streams[0]!.bit_rate) / 1000;
    expect(kbps).toBeGreaterThanOrEqual(average / 1000 - 1);
    expect(kbps).toBeLessThanOrEqual(average / 1000 + 40);
    expect(await verifyPayload(result.bytes, "audio/mpeg")).toBe(result.output.payload);

    const mono = make(12, "mp3", ["-ac", "1", "-ar", "22050", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const m = await step(mono, "audio/mpeg");
    expect(probe(m.bytes, "mp3").streams[0]).toMatchObject({ sample_rate: "22050", channels: 1, bit_rate: "64000" });
    expect(await verifyPayload(m.bytes, "audio/mpeg")).toBe(m.output.payload);
  });

  it("hostile MP3s, a recording under 9 s and an MP2 are clean StepFailures", async () => {
    for (const name of ["garbage.mp3", "mp3-tag-size-absurd.mp3", "mp3-tag-then-garbage.mp3"]) {
      const bytes = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "audio", "hostile", name)));
      await expect(step(bytes, "audio/mpeg"), name).rejects.toBeInstanceOf(StepFailure);
    }
    await expect(step(make(5, "mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]), "audio/mpeg")).rejects.toBeInstanceOf(StepFailure);
    const mp2 = make(12, "mp2", ["-c:a", "mp2", "-b:a", "192k"]);
    await expect(step(mp2, "audio/mpeg")).rejects.toMatchObject({
      code: "svc.jobs.decode_failed",
      message: expect.stringMatching(/layer III/),
    });
  });

  it("an MP3 cut in the middle of a frame is still marked (the decodable frames), its read-back checked", async () => {
    const mp3 = make(12, "mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]);
    const cut = mp3.subarray(0, mp3.length - 200);
    const result = await step(cut, "audio/mpeg");
    expect(await verifyPayload(result.bytes, "audio/mpeg")).toBe(result.output.payload);
  });

  it("longer than the decoded-sample limit: refused by the step (admission refuses it first)", async () => {
    const long = make(100, "mp3", ["-c:a", "libmp3lame", "-b:a", "64k"]);
    await expect(step(long, "audio/mpeg")).rejects.toMatchObject({ code: "svc.jobs.decode_failed", message: expect.stringMatching(/MiB/) });
  });
});

describe("the step's cost on the longest recordings admission lets through (16 MiB of samples: 95 s of 44.1 kHz stereo)", () => {
  for (const [type, ext, args] of [
    ["audio/mpeg", "mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]],
    ["audio/flac", "flac", ["-c:a", "flac", "-sample_fmt", "s16"]],
  ] as const) {
    it(`${ext}: within an isolate's 128 MB`, async () => {
      const bytes = make(95, ext, [...args]);
      let peak = 0;
      const sample = () => {
        gc();
        const m = process.memoryUsage();
        peak = Math.max(peak, m.heapUsed + m.external);
      };
      let writes = 0;
      const watched: AudioServices = {
        ...audio,
        decoder: {
          decode: (b, t, sink, o) =>
            decoder.decode(b, t, { start: (r, c) => sink.start(r, c), write: (p) => (sink.write(p), ++writes % 16 === 0 && sample()) }, o),
        } as AudioServices["decoder"],
        watermarker: {
          algorithm: watermarker.algorithm,
          minimumSeconds: watermarker.minimumSeconds,
          embed: (input) => (sample(), watermarker.embed(input)),
          detect: (input) => (sample(), watermarker.detect(input)),
        } as AudioServices["watermarker"],
      };
      await step(make(10, ext, [...args]), type, watched); // warm the kernels
      gc();
      const m0 = process.memoryUsage();
      const baseline = m0.heapUsed + m0.external;
      peak = 0;
      const cpu = process.cpuUsage();
      const result = await step(bytes, type, watched);
      const used = process.cpuUsage(cpu);
      const extra = (peak - baseline) / MiB;
      console.log(
        `audio-encode: watermark step on a 95-s ${ext} (${(bytes.length / MiB).toFixed(1)} MiB): +${extra.toFixed(1)} MiB live, ${(((used.user + used.system) / 1000 / 95) * 60).toFixed(0)} CPU ms per minute of audio (with gc sampling)`,
      );
      expect(result.output.payload).toMatch(/^[0-9a-f]{16}$/);
      expect(extra).toBeLessThan(90);
    }, 240_000);
  }
});
