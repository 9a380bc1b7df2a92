/**
 * Review (#20), end to end over HTTP on the real Worker bundle: our audio watermark in the watermark recipes and in
 * POST /v1/verify. Copies are made outside the service with Debian's ffmpeg; the forged mark is made with the
 * watermark kernel and the key in src/media/audio.ts (public: it is in the source).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIO_WATERMARK_KEY } from "../../../src/media/audio";
import { WasmAudioWatermarker } from "../../../src/media/watermark/audio";
import { hex } from "../../../src/platform/bytes";
import { referenceVerdict } from "../../support/signer-conformance";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const FFMPEG = "/usr/bin/ffmpeg";
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SONG = join(ROOT, "test", "fixtures", "audio-recovery", "song.mp3"); // 20 s
const OTHER = join(ROOT, "test", "fixtures", "audio-recovery", "other.mp3"); // 20 s, unrelated
const SPEECH = join(ROOT, "test", "fixtures", "audio", "speech-music-128k.mp3"); // 15 s, unrelated to both
const wm = new WasmAudioWatermarker(
  new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(
    readFileSync(join(ROOT, "wasm", "build", "audiowm.wasm")),
  ),
);

let svc: SignedService;
let work: string;

beforeAll(async () => {
  svc = await startSignedService();
  work = mkdtempSync(join(tmpdir(), "svc-review-awm-"));
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

function ffmpeg(input: Uint8Array | string, outputName: string, args: string[], inputArgs: string[] = []): Uint8Array {
  let src = input as string;
  if (typeof input !== "string") {
    src = join(work, `${crypto.randomUUID()}-in`);
    writeFileSync(src, input);
  }
  const out = join(work, `${crypto.randomUUID()}-${outputName}`);
  execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...inputArgs, "-i", src, ...args, out]);
  return new Uint8Array(readFileSync(out));
}

/** The 16-bit samples of a plain 44-byte-header WAV written by ffmpeg (-bitexact: no LIST chunk). */
function samplesOf(wav: Uint8Array): { pcm: Int16Array; rate: number; channels: number } {
  const v = new DataView(wav.buffer, wav.byteOffset);
  expect(String.fromCharCode(...wav.subarray(36, 40))).toBe("data");
  return { pcm: new Int16Array(wav.slice(44).buffer), rate: v.getUint32(24, true), channels: v.getUint16(22, true) };
}

const songWav = () => ffmpeg(SONG, "song.wav", ["-af", "volume=-3dB", "-c:a", "pcm_s16le", "-bitexact"]);

describe("review #20: the audio watermark over HTTP", () => {
  let published: { assetId: string; manifestId: string; signed: Uint8Array } | null = null;
  let watermarkOnly: Record<string, unknown> | null = null;

  it("watermark then sign: the output is Trusted by c2pa-node, verifies as manifest and watermark, and a stripped 64 kbit/s MP3 copy is recovered by the mark", async () => {
    const { assetId } = await uploadAsset(svc, songWav(), "audio/wav", "song.wav");
    const done = await signAndWait(svc, assetId, "rcp_system_watermark_then_sign", 120_000);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    const signed = (await download(svc, assetId)).bytes;
    const reference = await referenceVerdict(svc.pki.rootCertPem, "audio/wav", signed);
    expect(reference.failure).toEqual([]);
    expect(reference.state).toBe("Trusted");
    const own = await svc.verify(signed);
    expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_watermark_match");
    published = { assetId, manifestId: own.body.manifest_id, signed };

    // A stripped 64 kbit/s MP3 copy of the whole file is recovered by the mark (the 10-s excerpt case, whose
    // recall depends on the random payload, is measured in test/node/jobs/watermark-audio-step.review.test.ts).
    const copy = ffmpeg(signed, "copy.mp3", ["-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const found = await svc.verify(copy);
    expect(found.body.status, JSON.stringify(found.body.warnings)).toBe("watermark_only");
    expect(found.body.matches[0]).toMatchObject({ kind: "watermark", algorithm: "svc-awm-stdm-1", manifest_id: own.body.manifest_id });
  }, 180_000);

  it("watermark only: a WAV published without a manifest is recovered by its mark", async () => {
    const wav = ffmpeg(SPEECH, "speech.wav", ["-c:a", "pcm_s16le", "-bitexact"]);
    const { assetId } = await uploadAsset(svc, wav, "audio/wav", "speech.wav");
    const done = await signAndWait(svc, assetId, "rcp_system_watermark_only", 120_000);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    const out = (await download(svc, assetId)).bytes;
    expect(out.length).toBe(wav.length);
    const found = await svc.verify(out);
    expect(found.body.status, found.body.developer_explanation).toBe("watermark_only");
    expect(found.body.matches[0]).toMatchObject({ kind: "watermark", publication_id: done.result.publication_id });
    watermarkOnly = found.body;
  }, 180_000);

  it("the verdict of an audio watermark match speaks of audio, not of an image or pixels", () => {
    expect(watermarkOnly, "the watermark-only test verified its output").not.toBeNull();
    const words = JSON.stringify(watermarkOnly);
    expect(words).not.toMatch(/\b(image|pixels)\b/i);
  });

  it("a WAV shorter than the watermark needs (8 s) is refused at admission, not failed after a job exists", async () => {
    const short = ffmpeg(SONG, "short.wav", ["-t", "8", "-c:a", "pcm_s16le"]);
    const { assetId } = await uploadAsset(svc, short, "audio/wav", "short.wav");
    const res = await svc.call("POST", "/v1/sign", {
      body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" },
      idempotencyKey: true,
    });
    if (res.status === 202) {
      await new Promise((r) => setTimeout(r, 3000));
      const job = await svc.call("GET", `/v1/jobs/${res.body.job_id}`);
      throw new Error(`admitted (202); the job: ${job.body.state} ${job.body.error_code} ${job.body.error_message}`);
    }
    expect(res.status, res.text).toBe(422);
  }, 120_000);

  it("a 24-bit WAV (not markable in place) is refused at admission for a watermark recipe, not failed after a job exists", async () => {
    const b24 = ffmpeg(SONG, "b24.wav", ["-t", "12", "-c:a", "pcm_s24le"]);
    const { assetId } = await uploadAsset(svc, b24, "audio/wav", "b24.wav");
    const res = await svc.call("POST", "/v1/sign", {
      body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" },
      idempotencyKey: true,
    });
    expect(res.status, res.text).toBe(422);
  }, 120_000);

  it("a forged mark (another publication's payload, read with the public key and embedded into unrelated audio) is not presented as a recovery of that publication", async () => {
    expect(published, "the first test published the song").not.toBeNull();
    // Anyone: the payload is read from the published file with the key in the source, no account needed.
    const victim = samplesOf(ffmpeg(published!.signed, "victim.wav", ["-c:a", "pcm_s16le", "-bitexact"]));
    const read = wm.detect({ pcm: victim.pcm, sampleRate: victim.rate, channels: victim.channels, key: AUDIO_WATERMARK_KEY });
    expect(read.status).toBe("detected");
    const payload = read.status === "detected" ? read.payload : new Uint8Array(8);
    // Unrelated audio, marked with it.
    const other = samplesOf(ffmpeg(OTHER, "forge-src.wav", ["-t", "20", "-c:a", "pcm_s16le", "-bitexact"]));
    const forged = wm.embed({ pcm: other.pcm, sampleRate: other.rate, channels: other.channels, payload, key: AUDIO_WATERMARK_KEY });
    expect(forged.status).toBe("embedded");
    if (forged.status !== "embedded") return;
    const header = ffmpeg(OTHER, "hdr.wav", ["-t", "20", "-c:a", "pcm_s16le", "-bitexact"]).slice(0, 44);
    const file = new Uint8Array(44 + forged.pcm.byteLength);
    file.set(header);
    file.set(new Uint8Array(forged.pcm.buffer), 44);
    const mp3 = ffmpeg(file, "forged.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]);
    const res = await svc.verify(mp3);
    expect(res.status, res.text).toBe(200);
    console.log(
      `review2 forged: ${hex(payload)} -> ${res.body.status}: ${res.body.summary ?? ""} ${JSON.stringify(res.body.matches?.[0] ?? null)}`,
    );
    // The content is not the publication's (Chromaprint finds nothing): a recovery "that points to an original that
    // was signed and published" is an overclaim here.
    expect(res.body.status).not.toBe("watermark_only");
  }, 180_000);

  it("a WAV whose fmt byte rate understates its length (200 s read as 20 s by the inspector) is refused at admission, not failed after a job exists", async () => {
    // 200 s at 8 kHz mono, 16-bit: 3.2 MB, under the byte limit; the inspector's duration is data size / byte rate
    // (src/media/inspect/riff.ts), the step's is frames / sample rate (src/jobs/steps/watermark-audio.ts).
    const wav = ffmpeg(
      SONG,
      "long.wav",
      ["-ac", "1", "-ar", "8000", "-t", "200", "-c:a", "pcm_s16le", "-bitexact"],
      ["-stream_loop", "10"],
    );
    new DataView(wav.buffer).setUint32(28, 160_000, true);
    const { assetId } = await uploadAsset(svc, wav, "audio/wav", "long.wav");
    const res = await svc.call("POST", "/v1/sign", {
      body: { asset_id: assetId, recipe_id: "rcp_system_watermark_only" },
      idempotencyKey: true,
    });
    if (res.status === 202) {
      await new Promise((r) => setTimeout(r, 3000));
      const job = await svc.call("GET", `/v1/jobs/${res.body.job_id}`);
      throw new Error(`admitted (202); the job: ${job.body.state} ${job.body.error_code} ${job.body.error_message}`);
    }
    expect(res.status, res.text).toBe(422);
  }, 120_000);

  it("concurrent audio verifications (marked excerpt, unrelated audio, marked WAV) each get their own answer", async () => {
    expect(published, "the first test published the song").not.toBeNull();
    const marked = ffmpeg(
      published!.signed,
      "c1.mp3",
      ["-map_metadata", "-1", "-t", "12", "-c:a", "libmp3lame", "-b:a", "96k"],
      ["-ss", "3"],
    );
    const unrelated = ffmpeg(SPEECH, "c2.flac", ["-af", "atempo=1.0,volume=-1dB", "-c:a", "flac"]);
    const wholeWav = ffmpeg(published!.signed, "c3.wav", ["-map_metadata", "-1", "-c:a", "pcm_s16le", "-bitexact"]);
    const files = [marked, unrelated, wholeWav, marked, unrelated, wholeWav];
    const sequential = [];
    for (const f of files.slice(0, 3)) sequential.push((await svc.verify(f)).body);
    const parallel = (await Promise.all(files.map((f) => svc.verify(f)))).map((r) => r.body);
    const key = (b: { status: string; matches: { kind: string; publication_id: string }[] }) =>
      `${b.status} ${b.matches.map((m) => `${m.kind}:${m.publication_id}`).join(",")}`;
    expect(parallel.map(key)).toEqual([...sequential, ...sequential].map(key));
    expect(sequential[2].matches[0]).toMatchObject({ kind: "watermark", manifest_id: published!.manifestId });
  }, 180_000);
});
