/**
 * The sign path of fragmented MP4 through the real API (the Worker bundle in bare Miniflare, over HTTP), unchanged by
 * the fragment-duration floor (inspect/isobmff-timing.ts): what each kind of fragmented file does at upload
 * completion and signing, judged by the reference reader c2pa-node where a file is signed.
 * - a fragmented `video/mp4` below the embedded limit: refused at completion (422 MEDIA_CODEC_UNSUPPORTED, the
 *   contract takes non-fragmented video/mp4 only);
 * - a fragmented M4A (`audio/mp4`): signed embedded, Trusted, and inspected at its fragments' length;
 * - a fragmented `video/mp4` above the embedded limit: its streamed inspection reads no codec contract, so it is
 *   accepted, inspected at its fragments' length, and signed by streaming (the manifest box appended after the last
 *   fragment), Trusted by c2pa-node.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceVerdict } from "../../support/signer-conformance";
import { withMdat } from "../../support/stream-media";
import {
  completeUpload,
  createUpload,
  download,
  putBytes,
  type SignedService,
  signAndWait,
  startSignedService,
  uploadAsset,
} from "../../support/svc-client";

const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "fragmented-signing-"));
let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const AV = [
  ...["-f", "lavfi", "-i", "testsrc=duration=3.1:size=160x120:rate=25", "-f", "lavfi", "-i", "sine=duration=3.1"],
  ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"],
];

function ffmpeg(name: string, args: string[]): Uint8Array {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, out]);
  return new Uint8Array(readFileSync(out));
}

describe("fragmented MP4 through upload and signing", () => {
  it("a small fragmented video/mp4 is refused at completion: 422 MEDIA_CODEC_UNSUPPORTED", { timeout: 60_000 }, async () => {
    const bytes = ffmpeg("small.mp4", [...AV, "-movflags", "frag_keyframe+empty_moov"]);
    const created = await createUpload(svc, bytes, "video/mp4", "small.mp4");
    expect(created.status).toBe(201);
    expect((await putBytes(svc, created.body, bytes)).status).toBe(200);
    const completed = await completeUpload(svc, created.body.upload_id);
    expect(completed.status, completed.text).toBe(422);
    expect(completed.body.code).toBe("MEDIA_CODEC_UNSUPPORTED");
  });

  it("a fragmented M4A (audio/mp4): signed embedded, Trusted by c2pa-node", { timeout: 120_000 }, async () => {
    const input = ffmpeg("frag.m4a", ["-f", "lavfi", "-i", "sine=duration=3.1", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov"]);
    const { assetId } = await uploadAsset(svc, input, "audio/mp4", "frag.m4a");
    const job = await signAndWait(svc, assetId, "rcp_system_sign_only", 90_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    // empty_moov states no duration at all: only the fragments tell (3.1 s of AAC and its priming).
    expect(job.media_inspection.duration_seconds).toBeCloseTo(3.12, 1);
    const { bytes } = await download(svc, assetId);
    const verdict = await referenceVerdict(svc.pki.rootCertPem, "audio/mp4", bytes);
    expect(verdict.failure).toEqual([]);
    expect(verdict.state).toBe("Trusted");
  });

  it("a fragmented video/mp4 above the embedded limit: accepted by the streamed inspection, signed by streaming, Trusted", {
    timeout: 240_000,
  }, async () => {
    const base = ffmpeg("large-base.mp4", [...AV, "-movflags", "frag_keyframe+empty_moov+default_base_moof"]);
    // A trailing mdat of filler after the last fragment lifts it above the 10 MiB embedded limit (valid BMFF).
    const input = withMdat(base, 12 * MiB);
    const { assetId } = await uploadAsset(svc, input, "video/mp4", "large.mp4");
    const job = await signAndWait(svc, assetId, "rcp_system_sign_only", 180_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    // The fragments' 3.18 s (the audio track's samples), not the 0 its empty moov states.
    expect(job.media_inspection.duration_seconds).toBe(3.18);
    const { bytes } = await download(svc, assetId);
    expect(bytes.length).toBeGreaterThan(input.length);
    const verdict = await referenceVerdict(svc.pki.rootCertPem, "video/mp4", bytes);
    expect(verdict.failure).toEqual([]);
    expect(verdict.state).toBe("Trusted");
  });
});
