/**
 * #20's must-show, end to end over HTTP on the real Worker bundle: an MP3 and a FLAC watermarked and signed by the
 * service (decoded, marked, re-encoded in the Worker: LAME in wasm for MP3, our FLAC encoder), their signed outputs
 * valid for the reference reader (c2pa-node: Trusted); then copies made OUTSIDE the service with Debian's ffmpeg (the
 * manifest stripped, re-encoded: MP3 at 64 kbit/s, the FLAC to MP3 at 128 kbit/s) are recovered by POST /v1/verify
 * through the watermark. Plus admission's refusals for what the step cannot mark (24-bit FLAC, too many samples).
 *
 * ffmpeg and flac are required (`npm test` installs Debian's packages where it may): without them these tests FAIL.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceVerdict } from "../../support/signer-conformance";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const FFMPEG = "/usr/bin/ffmpeg";
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SONG = join(ROOT, "test", "fixtures", "audio-recovery", "song.mp3"); // 20 s
const OTHER = join(ROOT, "test", "fixtures", "audio-recovery", "other.mp3"); // 20 s, unrelated

let svc: SignedService;
let work: string;

beforeAll(async () => {
  svc = await startSignedService();
  work = mkdtempSync(join(tmpdir(), "svc-awm-encode-"));
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

function probe(bytes: Uint8Array): { codec_name: string; sample_rate: string; channels: number; bit_rate?: string } {
  const file = join(work, `${crypto.randomUUID()}-probe`);
  writeFileSync(file, bytes);
  const out = execFileSync("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-select_streams", "a", "-of", "json", file]);
  return JSON.parse(out.toString()).streams[0];
}

async function markAndSign(bytes: Uint8Array, mediaType: string, name: string) {
  const { assetId } = await uploadAsset(svc, bytes, mediaType, name);
  const done = await signAndWait(svc, assetId, "rcp_system_watermark_then_sign", 180_000);
  expect(done.state, JSON.stringify(done)).toBe("completed");
  expect(done.steps.map((s: { step: string }) => s.step)).toEqual(["inspect", "watermark", "fingerprint", "sign", "publish"]);
  const receipt = await svc.call("GET", `/v1/receipts/${done.result.receipt_id}`);
  expect(receipt.body.evidence.watermark).toMatchObject({ algorithm: "svc-awm-stdm-1", read_back: true });
  const signed = (await download(svc, assetId)).bytes;
  const reference = await referenceVerdict(svc.pki.rootCertPem, mediaType, signed);
  expect(reference.failure).toEqual([]);
  expect(reference.state).toBe("Trusted");
  const own = await svc.verify(signed);
  expect(own.status, own.text).toBe(200);
  expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_watermark_match");
  return { signed, manifestId: own.body.manifest_id as string };
}

async function expectRecovered(copy: Uint8Array, manifestId: string) {
  const found = await svc.verify(copy);
  expect(found.status, found.text).toBe(200);
  expect(found.body.status, JSON.stringify(found.body.warnings)).toBe("watermark_only");
  expect(found.body.matches[0]).toMatchObject({ kind: "watermark", algorithm: "svc-awm-stdm-1", manifest_id: manifestId });
}

describe("#20: our audio watermark embedded into MP3 and FLAC, over HTTP", () => {
  it("an MP3 watermarked and signed, its manifest stripped and re-encoded at 64 kbit/s outside the service: POST /v1/verify recovers the publication", async () => {
    const mp3 = ffmpeg(SONG, "song.mp3", ["-af", "volume=-2dB", "-c:a", "libmp3lame", "-b:a", "128k"]);
    const { signed, manifestId } = await markAndSign(mp3, "audio/mpeg", "song.mp3");
    // Still an MP3 at the upload's bitrate, rate and channels.
    expect(probe(signed)).toMatchObject({ codec_name: "mp3", sample_rate: "44100", channels: 2, bit_rate: "128000" });
    const copy = ffmpeg(signed, "copy.mp3", ["-map_metadata", "-1", "-vn", "-c:a", "libmp3lame", "-b:a", "64k"]);
    await expectRecovered(copy, manifestId);
  }, 300_000);

  it("a 16-bit FLAC watermarked and signed (valid for flac -t), stripped and converted to MP3 at 128 kbit/s: recovered by its mark", async () => {
    const flac = ffmpeg(OTHER, "other.flac", ["-af", "volume=-3dB", "-c:a", "flac", "-sample_fmt", "s16"]);
    const { signed, manifestId } = await markAndSign(flac, "audio/flac", "other.flac");
    expect(probe(signed)).toMatchObject({ codec_name: "flac", channels: 2 });
    const file = join(work, "signed.flac");
    writeFileSync(file, signed);
    execFileSync("flac", ["-t", "-s", file]);
    const copy = ffmpeg(signed, "copy.mp3", ["-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "128k"]);
    await expectRecovered(copy, manifestId);
  }, 300_000);

  it("admission refuses what the step cannot mark: a 24-bit FLAC, and an MP3 whose samples exceed the step's memory", async () => {
    const refusedWith = async (bytes: Uint8Array, mediaType: string, name: string, text: RegExp) => {
      const { assetId } = await uploadAsset(svc, bytes, mediaType, name);
      const res = await svc.call("POST", "/v1/sign", {
        body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" },
        idempotencyKey: true,
      });
      expect(res.status, res.text).toBe(422);
      expect(res.text).toContain("svc.sign.option_not_applicable");
      expect(res.text).toMatch(text);
    };
    await refusedWith(
      ffmpeg(SONG, "b24.flac", ["-t", "12", "-c:a", "flac", "-sample_fmt", "s32"]),
      "audio/flac",
      "b24.flac",
      /16-bit FLAC only/,
    );
    // 120 s of 44.1 kHz stereo: 20 MiB of samples (at most 16), though only 1.9 MB of MP3.
    const long = ffmpeg(SONG, "long.mp3", ["-t", "120", "-c:a", "libmp3lame", "-b:a", "128k"], ["-stream_loop", "5"]);
    await refusedWith(long, "audio/mpeg", "long.mp3", /MiB of decoded 16-bit samples/);
  }, 180_000);
});
