/**
 * #20, end to end over HTTP on the real Worker bundle: audio signed with fingerprints, then copies made OUTSIDE the
 * service as a user would make them (Debian's ffmpeg: the manifest stripped, re-encoded at a lower bitrate, cut to a
 * 10-second excerpt, converted to another format) are recovered by POST /v1/verify through the Chromaprint index;
 * unrelated audio matches nothing.
 *
 * ffmpeg is required (`npm test` installs Debian's package where it may; .ci/run does): without it these tests FAIL.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const FFMPEG = "/usr/bin/ffmpeg";
const AUDIO = join(import.meta.dirname, "..", "..", "fixtures", "audio-recovery");
/** Real-sounding recordings: speech over a music bed, made by test/fixtures/audio-recovery/generate.sh. */
const SONG = "song.mp3";
const OTHER = "other.mp3";

let svc: SignedService;
let work: string;

beforeAll(async () => {
  svc = await startSignedService();
  work = mkdtempSync(join(tmpdir(), "svc-audio-"));
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** ffmpeg over `input` bytes; returns the output file's bytes. */
function ffmpeg(input: Uint8Array, inputName: string, outputName: string, args: string[]): Uint8Array {
  if (!existsSync(FFMPEG)) throw new Error(`${FFMPEG} is missing: these tests need Debian's ffmpeg (apt-get install -y ffmpeg).`);
  const src = join(work, `${crypto.randomUUID()}-${inputName}`);
  const out = join(work, `${crypto.randomUUID()}-${outputName}`);
  writeFileSync(src, input);
  execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...args.flatMap((a) => (a === "IN" ? [src] : [a])), out]);
  return new Uint8Array(readFileSync(out));
}

async function signAudio(file: string, mediaType: string) {
  const bytes = new Uint8Array(readFileSync(join(AUDIO, file)));
  const { assetId } = await uploadAsset(svc, bytes, mediaType, file);
  const job = await signAndWait(svc, assetId, "rcp_system_sign", 120_000);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  return { job, assetId, signed: (await download(svc, assetId)).bytes };
}

describe("audio recovery by fingerprint, over HTTP", () => {
  it("an MP3 signed with Chromaprint is recovered from a stripped 64 kbit/s re-encode and from a 10-second excerpt of it", async () => {
    const { job, signed } = await signAudio(SONG, "audio/mpeg");
    expect(job.steps.map((s: { step: string }) => s.step)).toEqual(["inspect", "fingerprint", "sign", "publish"]);
    const receipt = await svc.call("GET", `/v1/receipts/${job.result.receipt_id}`);
    expect(receipt.body.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm)).toEqual(["chromaprint"]);
    expect(receipt.body.evidence.fingerprints[0].value).toMatch(/^AQA[A-Za-z0-9_-]+$/);

    // The signed file itself: its manifest, and its content matches the same publication.
    const own = await svc.verify(signed);
    expect(own.status, own.text).toBe(200);
    expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_fingerprint_match");
    const manifestId = own.body.manifest_id;

    // Stripped and re-encoded at 64 kbit/s outside the service (the whole file, then a 10-second excerpt from 12 s
    // in): no manifest left, each recovered by its fingerprint.
    const STRIP_64K = ["-map_metadata", "-1", "-vn", "-c:a", "libmp3lame", "-b:a", "64k"];
    for (const [name, cut] of [
      ["copy.mp3", []],
      ["excerpt.mp3", ["-ss", "12", "-t", "10"]],
    ] as const) {
      const copy = await svc.verify(ffmpeg(signed, "signed.mp3", name, [...cut, "-i", "IN", ...STRIP_64K]));
      expect(copy.status, copy.text).toBe(200);
      expect(copy.body.status, copy.body.developer_explanation).toBe("fingerprint_match_only");
      expect(copy.body.matches[0]).toMatchObject({ kind: "fingerprint", algorithm: "chromaprint", manifest_id: manifestId });
    }
  }, 180_000);

  it("a WAV signed with both audio fingerprints is recovered from a FLAC excerpt resampled to 48 kHz", async () => {
    // Another recording than the MP3 test's (the same content published twice would match the earlier publication).
    const source = new Uint8Array(readFileSync(join(AUDIO, "..", "audio", "speech-music-128k.mp3")));
    const wav = ffmpeg(source, "speech.mp3", "speech.wav", ["-i", "IN", "-c:a", "pcm_s16le"]);
    const { assetId } = await uploadAsset(svc, wav, "audio/wav", "song.wav");
    const done = await signAndWait(svc, assetId, "rcp_system_sign", 120_000, { fingerprint_algorithms: ["chromaprint", "iscc-audio"] });
    expect(done.state, JSON.stringify(done)).toBe("completed");
    const receipt = await svc.call("GET", `/v1/receipts/${done.result.receipt_id}`);
    const iscc = receipt.body.evidence.fingerprints.find((f: { algorithm: string }) => f.algorithm === "iscc-audio");
    expect(iscc.value).toMatch(/^ISCC:EI[A-Z2-7]+$/);
    const signed = (await download(svc, assetId)).bytes;
    const own = await svc.verify(signed);
    expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_fingerprint_match");

    const excerpt = ffmpeg(signed, "signed.wav", "excerpt.flac", [
      "-ss",
      "3",
      "-t",
      "10",
      "-i",
      "IN",
      "-map_metadata",
      "-1",
      "-ar",
      "48000",
      "-c:a",
      "flac",
    ]);
    const cut = await svc.verify(excerpt);
    expect(cut.body.status, cut.body.developer_explanation).toBe("fingerprint_match_only");
    expect(cut.body.matches[0]).toMatchObject({ kind: "fingerprint", algorithm: "chromaprint", manifest_id: own.body.manifest_id });
  }, 180_000);

  it("a WAV watermarked then signed carries our audio watermark: a stripped MP3 64 kbit/s copy is recovered through it", async () => {
    // A third recording (speech over music, 15 s), so no other test's publication shares its content.
    const source = new Uint8Array(readFileSync(join(AUDIO, "..", "audio", "speech-music-128k.mp3")));
    const wav = ffmpeg(source, "speech.mp3", "speech-mono.wav", ["-i", "IN", "-af", "volume=-3dB", "-ac", "1", "-c:a", "pcm_s16le"]);
    const { assetId } = await uploadAsset(svc, wav, "audio/wav", "speech.wav");
    const done = await signAndWait(svc, assetId, "rcp_system_watermark_then_sign", 120_000);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    expect(done.steps.map((s: { step: string }) => s.step)).toEqual(["inspect", "watermark", "fingerprint", "sign", "publish"]);
    const receipt = await svc.call("GET", `/v1/receipts/${done.result.receipt_id}`);
    expect(receipt.body.evidence.watermark).toMatchObject({ algorithm: "svc-awm-stdm-1", strength: "balanced", read_back: true });
    expect(receipt.body.evidence.watermark.psnr_db).toBeGreaterThanOrEqual(30);
    const signed = (await download(svc, assetId)).bytes;
    const own = await svc.verify(signed);
    expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_watermark_match");

    // Stripped and re-encoded at 64 kbit/s outside the service: found by the watermark's payload.
    const copy = ffmpeg(signed, "signed.wav", "copy.mp3", ["-i", "IN", "-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const found = await svc.verify(copy);
    expect(found.status, found.text).toBe(200);
    expect(found.body.status, found.body.developer_explanation).toBe("watermark_only");
    expect(found.body.matches[0]).toMatchObject({ kind: "watermark", algorithm: "svc-awm-stdm-1", manifest_id: own.body.manifest_id });

    // An audio watermark has one strength: asking for another is refused, not ignored.
    const again = await uploadAsset(svc, wav, "audio/wav", "speech-again.wav");
    const refused = await svc.call("POST", "/v1/sign", {
      body: { asset_id: again.assetId, recipe_id: "rcp_system_watermark_then_sign", watermark_strength: "robust" },
      idempotencyKey: true,
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.text).toContain("svc.sign.option_not_applicable");

    // A recording longer than the watermark takes (it holds the whole signal) is refused before a job exists.
    const long = ffmpeg(source, "speech.mp3", "long.wav", [
      "-stream_loop",
      "12",
      "-i",
      "IN",
      "-ac",
      "1",
      "-ar",
      "8000",
      "-c:a",
      "pcm_s16le",
    ]);
    const longAsset = await uploadAsset(svc, long, "audio/wav", "long.wav");
    const tooLong = await svc.call("POST", "/v1/sign", {
      body: { asset_id: longAsset.assetId, recipe_id: "rcp_system_watermark_then_sign" },
      idempotencyKey: true,
    });
    expect(tooLong.status, tooLong.text).toBe(422);
    expect(tooLong.text).toContain("at most 180 seconds");
  }, 180_000);

  it("unrelated audio matches no publication, and an excerpt too short to match says so", async () => {
    const other = new Uint8Array(readFileSync(join(AUDIO, OTHER)));
    const unrelated = await svc.verify(other);
    expect(unrelated.status, unrelated.text).toBe(200);
    expect(unrelated.body.matches).toEqual([]);
    expect(unrelated.body.status).not.toBe("fingerprint_match_only");
    const short = ffmpeg(other, "other.mp3", "short.mp3", ["-t", "2", "-i", "IN", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const tooShort = await svc.verify(short);
    expect(tooShort.status, tooShort.text).toBe(200);
    expect(tooShort.body.warnings.join(" ")).toMatch(/too short to match/);
  }, 120_000);
});
