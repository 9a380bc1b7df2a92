/**
 * The wasm video decoder (FFmpeg 5.1.4 from @ffmpeg/core, run as its command line) against Debian's `ffmpeg` 5.1 given
 * the options each VideoFrameSpec stands for: the same frames (count, times, RGB bytes within a measured tolerance)
 * for the vPDQ/TMK sample video, with both outputs from one decode.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { FfmpegVideoDecoder, RgbFrame, VideoFrameSpec } from "../../../src/media/codecs/video";
import { nodeVideoDecoder } from "../../../src/media/codecs/video/node";
import { DOORKNOB_RGB_SHA256 } from "../../fixtures/video/digests";

const FIXTURE = fileURLToPath(new URL("../../fixtures/video/doorknob-hd-no-bar.mp4", import.meta.url));
let decoder: FfmpegVideoDecoder;
beforeAll(async () => {
  decoder = await nodeVideoDecoder();
});

/** Debian ffmpeg's frames and times for one spec: the command line VideoFrameSpec documents. */
function reference(path: string, spec: VideoFrameSpec): { frames: Buffer[]; times: number[] } {
  const opts = ["-map", "0:v:0", "-an", "-s", `${spec.width}x${spec.height}`, "-sws_flags", spec.scaleFlags ?? "bicubic"];
  if (spec.fps === null) {
    opts.push("-fps_mode", "passthrough");
    if (spec.everyNth) opts.push("-vf", `select='not(mod(n\\,${spec.everyNth}))'`);
  } else opts.push("-r", String(spec.fps));
  const ff = (tail: string[]) =>
    execFileSync("ffmpeg", ["-v", "error", "-i", path, ...opts, "-pix_fmt", "rgb24", ...tail], { maxBuffer: 1 << 28 });
  const raw = ff(["-f", "rawvideo", "-"]);
  // The rawvideo muxer takes constant frame rate for -r (it stores no times); framecrc would not, so say it.
  const size = spec.width * spec.height * 3;
  const frames = Array.from({ length: raw.length / size }, (_, i) => raw.subarray(i * size, (i + 1) * size));
  // framecrc: "#tb 0: num/den" then "stream, dts, pts, duration, size, crc" per frame.
  const crc = ff([...(spec.fps === null ? [] : ["-fps_mode", "cfr"]), "-f", "framecrc", "-"]).toString();
  const tb = /#tb 0: (\d+)\/(\d+)/.exec(crc);
  const times = crc
    .split("\n")
    .filter((l) => /^0,/.test(l))
    .map((l) => (Number(l.split(",")[2]) * Number(tb?.[1])) / Number(tb?.[2]));
  return { frames, times };
}

/** Largest per-byte difference and the share of differing bytes. */
function diff(a: Uint8Array, b: Uint8Array) {
  let max = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] ?? 0) - (b[i] ?? 0));
    if (d > 0) n++;
    if (d > max) max = d;
  }
  return { max, share: n / a.length };
}

describe("video decoding (wasm FFmpeg) against Debian's ffmpeg", () => {
  it("decodes the vPDQ/TMK sample (H.264 Main 720p) into 128×128 every frame and 64×64 at 15 fps in one decode", async () => {
    const specs: VideoFrameSpec[] = [
      { width: 128, height: 128, fps: null },
      { width: 64, height: 64, fps: 15 },
    ];
    const got: RgbFrame[][] = [[], []];
    const started = performance.now();
    const result = await decoder.decode(new Uint8Array(readFileSync(FIXTURE)), specs, (k, f) => got[k]?.push(f));
    console.log(`decode: ${(performance.now() - started).toFixed(0)} ms`);
    expect(result).toEqual({
      status: "decoded",
      durationSeconds: expect.closeTo(4.333, 2),
      sourceWidth: 1280,
      sourceHeight: 720,
      codec: "h264",
      framesDelivered: [120, 62],
    });
    specs.forEach((spec, k) => {
      const ref = reference(FIXTURE, spec);
      const frames = got[k] ?? [];
      expect(frames.map((f) => f.index)).toEqual(ref.frames.map((_, i) => i));
      expect(ref.times.length).toBe(ref.frames.length);
      expect(frames.map((f) => f.timestampSeconds)).toEqual(ref.times.map((t) => expect.closeTo(t, 4)));
      let worst = { max: 0, share: 0 };
      frames.forEach((f, i) => {
        const d = diff(f.rgb, ref.frames[i] as Buffer);
        worst = { max: Math.max(worst.max, d.max), share: Math.max(worst.share, d.share) };
      });
      console.log(`spec ${k}: worst byte difference ${worst.max}, worst share of differing bytes ${worst.share}`);
      expect(worst.max).toBe(0);
      // The digest the workerd test holds its frames to is Debian's output.
      const digest = createHash("sha256");
      for (const frame of ref.frames) digest.update(frame);
      expect(digest.digest("hex")).toBe(k === 0 ? DOORKNOB_RGB_SHA256.every128 : DOORKNOB_RGB_SHA256.fps15x64);
    });
  }, 180_000);
});
