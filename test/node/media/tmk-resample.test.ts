/**
 * FfmpegCfrResampler (src/media/fingerprint/video/frames.ts) against ffmpeg's own `-r 15`: the frames it keeps
 * from every decoded frame must be ffmpeg's, byte for byte (generated clips at 24, 25, 29.97 and 60 fps; the doorknob at
 * 30 fps), and TMK+PDQF over the doorknob frames it keeps must be upstream's .tmk byte for byte. A decoder that
 * hands every frame through it reproduces TMK_FRAME_SPEC's frame-rate conversion.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeTmk, FfmpegCfrResampler, type RgbFrame, TmkPdqfHasher } from "../../../src/media/fingerprint/video";
import { DOORKNOB, ffmpegFrames, kernel, tmkFrames, VECTORS } from "./video-fp.helpers";

const dir = mkdtempSync(join(tmpdir(), "tmk-resample-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every decoded frame at 64x64 (upstream's scaler, no rate conversion), then the resampler's picks. */
function resampled(file: string, fps: number): RgbFrame[] {
  const all = ffmpegFrames(file, 64, 64, ["-s", "64:64", "-fps_mode", "passthrough"], fps);
  const r = new FfmpegCfrResampler(15, fps);
  const out: RgbFrame[] = [];
  let last: RgbFrame | null = null;
  for (const f of all) {
    const { previous, current } = r.push(f.timestampSeconds);
    for (let k = 0; k < previous && last; k++) out.push(last);
    for (let k = 0; k < current; k++) out.push(f);
    last = f;
  }
  return out;
}

describe("ffmpeg's -r 15, reproduced", () => {
  for (const [rate, fps] of [
    ["24", 24],
    ["25", 25],
    ["30000/1001", 30000 / 1001],
    ["60", 60],
  ] as const) {
    it(`${rate} fps input: the same frames as ffmpeg's -r 15`, () => {
      const file = join(dir, `src${fps}.mp4`);
      execFileSync("ffmpeg", [
        "-v",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        `testsrc2=size=96x64:rate=${rate}:duration=3`,
        "-c:v",
        "libx264",
        "-crf",
        "12",
        "-pix_fmt",
        "yuv420p",
        file,
      ]);
      const ours = resampled(file, fps);
      const theirs = tmkFrames(file);
      expect(ours.length).toBe(theirs.length);
      for (let i = 0; i < ours.length; i++)
        expect(Buffer.compare(Buffer.from(ours[i]!.rgb), Buffer.from(theirs[i]!.rgb)), `output frame ${i}`).toBe(0);
    });
  }

  it("the doorknob at 30 fps: TMK+PDQF of the frames kept is upstream's .tmk byte for byte", () => {
    const frames = resampled(DOORKNOB, 30);
    expect(frames.map((f) => f.index).slice(0, 6)).toEqual([0, 1, 2, 3, 5, 7]);
    const h = new TmkPdqfHasher(kernel);
    for (const f of frames) h.push(f);
    const r = h.finish();
    expect(r.status).toBe("computed");
    if (r.status !== "computed") return;
    expect(Buffer.compare(Buffer.from(encodeTmk(r.features)), readFileSync(join(VECTORS, "tmk", "doorknob-hd-no-bar.tmk")))).toBe(0);
  });

  it("gaps repeat frames as ffmpeg does; rates must be positive", () => {
    const r = new FfmpegCfrResampler(15, 30);
    expect(r.push(0)).toEqual({ previous: 0, current: 1 });
    // a 1-second gap: ffmpeg repeats the previous frame to fill it, then outputs this one
    const gap = r.push(1.0);
    expect(gap.previous + gap.current).toBeGreaterThan(1);
    expect(gap.previous).toBeGreaterThan(0);
    expect(() => new FfmpegCfrResampler(0, 30)).toThrow(RangeError);
  });
});
