/**
 * #20, end to end over HTTP on the real Worker bundles (the API Worker and the media Worker behind its VIDEO service
 * binding): a video made from real photographs is signed with video fingerprints; copies made OUTSIDE the service as
 * a user would make them (Debian's ffmpeg: the manifest stripped, re-encoded at a lower bitrate, cut to a 10-second
 * excerpt, scaled down) are recovered by POST /v1/verify through the frame index; an unrelated video matches nothing.
 *
 * ffmpeg is required (`npm test` installs Debian's package where it may; .ci/run does): without it these tests FAIL.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

const FFMPEG = "/usr/bin/ffmpeg";
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const LABELME = "fp-vectors/pdq/images/reg-test-input/labelme-subset";

let svc: SignedService;
let work: string;

beforeAll(async () => {
  svc = await startSignedService({ video: true });
  work = mkdtempSync(join(tmpdir(), "svc-video-"));
}, 180_000);

afterAll(async () => {
  await svc?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Runs ffmpeg with `args` (IN: a file holding `input`, when given); returns the output file's bytes. Asynchronously:
 * a clip takes seconds to make, and a blocked event loop would miss the Worker closing an idle connection, which the
 * next request would then be sent on.
 */
async function ffmpeg(input: Uint8Array | null, outputName: string, args: string[]): Promise<Uint8Array> {
  if (!existsSync(FFMPEG)) throw new Error(`${FFMPEG} is missing: these tests need Debian's ffmpeg (apt-get install -y ffmpeg).`);
  const src = join(work, `${crypto.randomUUID()}-in`);
  const out = join(work, `${crypto.randomUUID()}-${outputName}`);
  if (input) writeFileSync(src, input);
  await promisify(execFile)(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...args.map((a) => (a === "IN" ? src : a)), out]);
  return new Uint8Array(readFileSync(out));
}

/**
 * A 720p 15 fps H.264 (High profile, CABAC) clip of `seconds` panning across real photographs, one after another: the motion and
 * cuts of a real video, from the repository's own photographs (a crop window sliding over each; cheap to make).
 */
function photoVideo(photos: string[], seconds: number): Promise<Uint8Array> {
  const each = seconds / photos.length;
  const inputs = photos.flatMap((p) => ["-loop", "1", "-framerate", "15", "-t", String(each), "-i", join(FIXTURES, p)]);
  const chains = photos.map(
    (_, i) =>
      `[${i}:v]scale=1600:900:force_original_aspect_ratio=increase,crop=1600:900,` +
      `crop=1280:720:x='(iw-ow)*t/${each}':y='(ih-oh)*(0.5+0.4*sin(t))',setsar=1[v${i}]`,
  );
  const concat = `${photos.map((_, i) => `[v${i}]`).join("")}concat=n=${photos.length}:v=1:a=0,format=yuv420p[out]`;
  return ffmpeg(null, "clip.mp4", [
    ...inputs,
    "-filter_complex",
    [...chains, concat].join(";"),
    "-map",
    "[out]",
    "-c:v",
    "libx264",
    "-profile:v",
    "high",
    "-preset",
    "superfast",
    "-crf",
    "23",
    "-movflags",
    "+faststart",
  ]);
}

describe("video recovery by fingerprint, over HTTP", () => {
  it("a video signed with its default fingerprint (TMK+PDQF) is recovered from a stripped low-bitrate copy and from a scaled 10-second excerpt", async () => {
    const clip = await photoVideo(["media/photo-bridge.jpg", "media/sample-1mp.jpg"], 20);
    const { assetId } = await uploadAsset(svc, clip, "video/mp4", "clip.mp4");
    const job = await signAndWait(svc, assetId, "rcp_system_sign", 170_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    expect(job.steps.map((s: { step: string }) => s.step)).toEqual(["inspect", "fingerprint", "sign", "publish"]);
    const receipt = await svc.call("GET", `/v1/receipts/${job.result.receipt_id}`);
    expect(receipt.body.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm)).toEqual(["tmk-pdqf"]);
    const signed = (await download(svc, assetId)).bytes;

    // The signed file itself: its manifest, and its frames match the same publication.
    const own = await svc.verify(signed);
    expect(own.status, own.text).toBe(200);
    expect(own.body.status, own.body.developer_explanation).toBe("verified_manifest_and_fingerprint_match");
    const manifestId = own.body.manifest_id;

    // The whole video stripped and re-encoded at a low bitrate; a 10-second excerpt from 6 s in, scaled to 640x360.
    for (const [name, args] of [
      ["copy.mp4", ["-i", "IN", "-map_metadata", "-1", "-c:v", "libx264", "-preset", "veryfast", "-crf", "35"]],
      ["excerpt.mp4", ["-ss", "6", "-t", "10", "-i", "IN", "-map_metadata", "-1", "-vf", "scale=640:360", "-c:v", "libx264", "-crf", "30"]],
    ] as const) {
      const copy = await svc.verify(await ffmpeg(signed, name, [...args]));
      expect(copy.status, copy.text).toBe(200);
      expect(copy.body.status, `${name}: ${copy.body.developer_explanation}`).toBe("fingerprint_match_only");
      expect(copy.body.matches[0]).toMatchObject({ kind: "fingerprint", algorithm: "tmk-pdqf", manifest_id: manifestId });
    }

    // Another video (other photographs: the LabelMe ones of PDQ's test vectors) matches nothing.
    const other = await photoVideo([`${LABELME}/q0122.jpg`, `${LABELME}/q2821.jpg`, `${LABELME}/q0291.jpg`], 12);
    const unrelated = await svc.verify(other);
    expect(unrelated.status, unrelated.text).toBe(200);
    expect(unrelated.body.matches ?? [], JSON.stringify(unrelated.body)).toEqual([]);
  }, 400_000);

  it("capabilities offer vpdq and tmk-pdqf, rcp_system_sign takes MP4; vPDQ's value is every sampled frame", async () => {
    const caps = await svc.call("GET", "/v1/capabilities");
    expect(caps.status).toBe(200);
    const video = caps.body.fingerprint_algorithms.filter((a: { modality: string }) => a.modality === "video");
    expect(video.map((a: { algorithm: string; availability: { available: boolean } }) => [a.algorithm, a.availability.available])).toEqual([
      ["tmk-pdqf", true],
      ["vpdq", true],
    ]);
    const sign = caps.body.recipes.find((r: { recipe_id: string }) => r.recipe_id === "rcp_system_sign");
    expect(sign.active.supported_media_types).toContain("video/mp4");

    const clip = await photoVideo([`${LABELME}/q0746.jpg`, `${LABELME}/q1050.jpg`], 8);
    const { assetId } = await uploadAsset(svc, clip, "video/mp4", "short.mp4");
    const job = await signAndWait(svc, assetId, "rcp_system_sign", 170_000, { fingerprint_algorithms: ["vpdq"] });
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const receipt = await svc.call("GET", `/v1/receipts/${job.result.receipt_id}`);
    const vpdq = receipt.body.evidence.fingerprints.find((f: { algorithm: string }) => f.algorithm === "vpdq");
    // Upstream's vPDQ file format: `frame,quality,hash,timestamp` lines, five a second at publication.
    const lines = String(vpdq.value).trimEnd().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(35);
    for (const line of lines) expect(line).toMatch(/^\d+,\d{1,3},[0-9a-f]{64},\d+\.\d{3}$/);
  }, 300_000);
});
