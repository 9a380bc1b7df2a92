/*
 * Review (rev-video): the decoder's frame budget (VIDEO_DECODE_LIMITS.maxDecodedPixels: 1800 frames at 1080p) turns a
 * video that is merely high-frame-rate into a refusal (`too_large`), which fingerprint-video.ts maps to a FAILED job
 * (svc.jobs.fingerprint_failed) and verify-video.ts to "not computed": a 1080p120 phone clip of 16 s or more cannot be
 * signed with video fingerprints, although a longer video at 30 fps is "fingerprinted from its beginning"
 * (commit 791a3e0). The budget should end the decode like maxSeconds does: the frames so far, `truncated`.
 * Reproduced at small scale: the same budget rule with a 100-frame budget and a 240-frame 60 fps clip.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVideoDecoder } from "../../../src/media/codecs/video/node";

describe("review: the decoding budget truncates instead of refusing", () => {
  it("a 60 fps clip over the frame budget is decoded from its beginning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rv-budget-"));
    const path = join(dir, "fast.mp4");
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=s=160x120:r=60:d=4",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      path,
    ]);
    const bytes = new Uint8Array(readFileSync(path));
    // The production budget is 1800 source frames at 1920×1080; here 100 frames at 160×120.
    const decoder = await nodeVideoDecoder({ maxDecodedPixels: 160 * 120 * 100 });
    let frames = 0;
    const result = await decoder.decode(bytes, [{ width: 32, height: 32, fps: null }], () => frames++, { maxSeconds: 30 });
    expect(result.status, JSON.stringify(result)).toBe("decoded");
    expect(frames).toBeGreaterThan(50);
  }, 60_000);
});
