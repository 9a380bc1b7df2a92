/**
 * Review of #20, over HTTP on the real Worker bundle (Debian's ffmpeg makes the copies): what a signing job does
 * with audio too short to fingerprint and with a WAV longer than the 32 MiB the fingerprint step reads; the same
 * recording published several times (each signed file must still verify against its own publication, an excerpt
 * matches the earliest one); several audio verifications at once in one isolate, one of them hostile.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const FFMPEG = "/usr/bin/ffmpeg";
const AUDIO = join(import.meta.dirname, "..", "..", "fixtures", "audio-recovery");

let svc: SignedService;
let work: string;

beforeAll(async () => {
  svc = await startSignedService();
  work = mkdtempSync(join(tmpdir(), "svc-audio-review-"));
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

function ffmpeg(input: Uint8Array | null, outputName: string, args: string[]): Uint8Array {
  if (!existsSync(FFMPEG)) throw new Error(`${FFMPEG} is missing`);
  const src = join(work, `${crypto.randomUUID()}-in`);
  const out = join(work, `${crypto.randomUUID()}-${outputName}`);
  if (input) writeFileSync(src, input);
  execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...args.flatMap((a) => (a === "IN" ? [src] : [a])), out]);
  return new Uint8Array(readFileSync(out));
}

const fixture = (name: string) => new Uint8Array(readFileSync(join(AUDIO, name)));

async function sign(bytes: Uint8Array, mediaType: string, name: string) {
  const { assetId } = await uploadAsset(svc, bytes, mediaType, name);
  const job = await signAndWait(svc, assetId, "rcp_system_sign", 170_000);
  return { job, assetId };
}

describe("review: audio signing jobs and verification", () => {
  it("a 2-second sound is not a job failure (the input cannot be fingerprinted: rejected, or signed unindexed)", async () => {
    const clip = ffmpeg(fixture("other.mp3"), "clip.wav", ["-t", "2", "-i", "IN", "-c:a", "pcm_s16le"]);
    const { job } = await sign(clip, "audio/wav", "clip.wav");
    // A job `failed` says the service could not finish it (retry later); a too-short recording is the input's property.
    expect(job.state, JSON.stringify(job)).not.toBe("failed");
  }, 60_000);

  it("an AAC (M4A) recording is refused by the fingerprinting recipe at admission, cleanly (pins behaviour)", async () => {
    const m4a = new Uint8Array(readFileSync(join(AUDIO, "..", "audio", "speech-music-96k.m4a")));
    const { assetId } = await uploadAsset(svc, m4a, "audio/mp4", "speech.m4a");
    const refused = await svc.call("POST", "/v1/sign", { body: { asset_id: assetId, recipe_id: "rcp_system_sign" }, idempotencyKey: true });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.code).toBe("svc.sign.media_type_not_supported");
  }, 60_000);

  it("a WAV the decoder cannot read (MS ADPCM) ends rejected with an input code, not failed as 'not installed'", async () => {
    const adpcm = ffmpeg(fixture("other.mp3"), "adpcm.wav", ["-t", "10", "-i", "IN", "-c:a", "adpcm_ms"]);
    const { job } = await sign(adpcm, "audio/wav", "adpcm.wav");
    expect(
      job.state === "completed" || (job.state === "rejected" && job.error_code !== "svc.jobs.step_unavailable"),
      JSON.stringify(job),
    ).toBe(true);
  }, 60_000);

  it("digital silence published with iscc-audio does not make every other silent file a fingerprint match", async () => {
    const silence = ffmpeg(null, "silence.wav", ["-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "10", "-c:a", "pcm_s16le"]);
    const { assetId } = await uploadAsset(svc, silence, "audio/wav", "silence.wav");
    const job = await signAndWait(svc, assetId, "rcp_system_sign", 60_000, { fingerprint_algorithms: ["chromaprint", "iscc-audio"] });
    // Whether or not such a recording is signed, a different silent file (30 s, mono, FLAC) says nothing about it.
    const other = ffmpeg(null, "quiet.flac", ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", "30", "-c:a", "flac"]);
    const verified = await svc.verify(other);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.matches, `${job.state} ${verified.text}`).toEqual([]);
  }, 60_000);

  it("a published 523 Hz tone is not the publication of a 1000 Hz tone (Chromaprint frames without information)", async () => {
    const tone = ffmpeg(null, "c5.wav", ["-f", "lavfi", "-i", "sine=f=523:r=44100", "-t", "10", "-c:a", "pcm_s16le"]);
    const { assetId } = await uploadAsset(svc, tone, "audio/wav", "c5.wav");
    const job = await signAndWait(svc, assetId, "rcp_system_sign", 60_000);
    const other = ffmpeg(null, "b5.mp3", ["-f", "lavfi", "-i", "sine=f=1000:r=44100", "-t", "20", "-c:a", "libmp3lame", "-b:a", "128k"]);
    const verified = await svc.verify(other);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.matches, `${job.state} ${verified.text}`).toEqual([]);
  }, 60_000);

  it("a signed file verifies against its own publication even when the same recording was published 6 times", async () => {
    const wav = ffmpeg(fixture("other.mp3"), "same.wav", ["-ss", "2", "-t", "12", "-i", "IN", "-c:a", "pcm_s16le"]);
    const signed: Uint8Array[] = [];
    for (let i = 0; i < 6; i++) {
      const { job, assetId } = await sign(wav, "audio/wav", `same-${i}.wav`);
      expect(job.state, JSON.stringify(job)).toBe("completed");
      signed.push((await download(svc, assetId)).bytes);
    }
    const first = await svc.verify(signed[0]!);
    expect(first.body.status, first.body.developer_explanation).toBe("verified_manifest_and_fingerprint_match");
    // An excerpt: the earliest publication, the others related.
    const excerpt = ffmpeg(signed[5]!, "cut.mp3", [
      "-ss",
      "1",
      "-t",
      "8",
      "-i",
      "IN",
      "-map_metadata",
      "-1",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "96k",
    ]);
    const cut = await svc.verify(excerpt);
    expect(cut.body.matches[0]?.manifest_id, cut.text).toBe(first.body.manifest_id);
    // The last one signed: its manifest and its own publication's fingerprint.
    const last = await svc.verify(signed[5]!);
    expect(last.body.status, last.body.developer_explanation).toBe("verified_manifest_and_fingerprint_match");
  }, 300_000);

  it("several audio verifications at once (one hostile) each get their own answer", async () => {
    const song = fixture("song.mp3");
    const { job, assetId } = await sign(song, "audio/mpeg", "song.mp3");
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const manifestId = (await svc.verify((await download(svc, assetId)).bytes)).body.manifest_id;
    const excerpts = [5, 15, 25].map((at) =>
      ffmpeg(song, `x${at}.flac`, ["-ss", String(at), "-t", "10", "-i", "IN", "-map_metadata", "-1", "-c:a", "flac"]),
    );
    const hostile = new Uint8Array(readFileSync(join(AUDIO, "..", "audio", "hostile", "mp3-tag-then-garbage.mp3")));
    // Unrelated to everything this file publishes.
    const other = new Uint8Array(readFileSync(join(AUDIO, "..", "audio", "speech-music-128k.mp3")));
    const answers = await Promise.all([...excerpts, hostile, other].map((b) => svc.verify(b)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    for (const a of answers.slice(0, 3)) {
      expect(a.body.matches[0]?.manifest_id, a.text).toBe(manifestId);
      expect(a.text).not.toMatch(/interrupted/);
    }
    expect(answers[3]!.body.matches).toEqual([]);
    expect(answers[4]!.body.matches).toEqual([]);
  }, 200_000);

  it("a WAV longer than the 32 MiB the fingerprint step reads is signed and found from an excerpt of its first minutes", async () => {
    // 125 s of stereo 48 kHz s24 (36 MB): four passages, the first and last the same song.
    const long = ffmpeg(null, "long.wav", [
      "-i",
      join(AUDIO, "song.mp3"),
      "-i",
      join(AUDIO, "other.mp3"),
      "-i",
      join(AUDIO, "..", "audio", "speech-music-128k.mp3"),
      "-filter_complex",
      "[0:a][1:a][2:a][0:a]concat=n=4:v=0:a=1,aresample=48000[a]",
      "-map",
      "[a]",
      "-ac",
      "2",
      "-c:a",
      "pcm_s24le",
    ]);
    expect(long.length).toBeGreaterThan(32 * 1024 * 1024);
    const { job } = await sign(long, "audio/wav", "long.wav");
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const excerpt = ffmpeg(long, "mid.mp3", ["-ss", "70", "-t", "10", "-i", "IN", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const cut = await svc.verify(excerpt);
    // Over 10 MiB the WAV is signed with a sidecar manifest: the publication is the job's.
    expect(cut.body.matches[0]?.publication_id, cut.text).toBe(job.result.publication_id);
  }, 300_000);
});
