/**
 * The wasm video decoder on clips FFmpeg generates here (not committed): H.264 High from a real photo panned and
 * zoomed at 1080p, HEVC, VP9 in WebM, H.264 in MOV, H.264 High 10, MJPEG in AVI; each decodes to the frames Debian's
 * `ffmpeg` makes with the same options, including vPDQ's "every Nth frame, Lanczos" output: the same count, and the
 * same bytes as its portable C code (`-cpuflags 0`). Debian's default x86 SIMD scaler rounds a little differently on
 * large reductions: measured on the 1080p pan to 64×64 bicubic, at most 3 levels on 0.07% of the bytes (1280×720 to
 * 128×128 and `area` scaling: identical), hence the stated tolerance against it.
 * Hostile inputs, exceeded limits and a throwing callback come back as statuses, never a throw.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Decoding 1080p in wasm and running the reference ffmpeg on a shared 2-core machine: minutes, not seconds.
import type { FfmpegVideoDecoder, VideoFrameSpec } from "../../../src/media/codecs/video";
import { nodeVideoDecoder } from "../../../src/media/codecs/video/node";

const PHOTO = fileURLToPath(new URL("../../fixtures/media/photo-bridge.jpg", import.meta.url));
const MEDIA = (name: string) => fileURLToPath(new URL(`../../fixtures/media/${name}`, import.meta.url));
let tmp: string;
let decoder: FfmpegVideoDecoder;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "video-decode-"));
  decoder = await nodeVideoDecoder();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args], { maxBuffer: 1 << 28 });

/** A clip made by FFmpeg: `input` options, then the encoder's. */
function clip(name: string, input: string[], encode: string[]): string {
  const out = join(tmp, name);
  ffmpeg([...input, ...encode, out]);
  return out;
}
const testsrc = (seconds: number, size = "320x240", rate = 25) => [
  "-f",
  "lavfi",
  "-i",
  `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
];
/** The photo, zoomed and panned over `seconds` at 30 fps, 1920×1080: real texture in motion. */
const photoPan = (seconds: number) => [
  "-loop",
  "1",
  "-i",
  PHOTO,
  "-vf",
  `scale=3200:-2,zoompan=z='min(zoom+0.0015,1.5)':x='iw/2-(iw/zoom/2)+on*2':y='ih/2-(ih/zoom/2)':d=${seconds * 30}:s=1920x1080:fps=30`,
  "-t",
  String(seconds),
];

/** Debian ffmpeg's raw frames for one spec (the command line VideoFrameSpec documents), with its C or SIMD code. */
function reference(path: string, spec: VideoFrameSpec, portable: boolean): Buffer[] {
  const opts = ["-map", "0:v:0", "-an", "-s", `${spec.width}x${spec.height}`, "-sws_flags", spec.scaleFlags ?? "bicubic"];
  if (spec.fps === null) {
    opts.push("-fps_mode", "passthrough");
    if (spec.everyNth) opts.push("-vf", `select='not(mod(n\\,${spec.everyNth}))'`);
  } else opts.push("-r", String(spec.fps));
  const raw = ffmpeg([...(portable ? ["-cpuflags", "0"] : []), "-i", path, ...opts, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
  const size = spec.width * spec.height * 3;
  return Array.from({ length: raw.length / size }, (_, i) => raw.subarray(i * size, (i + 1) * size));
}

async function decodeAll(path: string | Uint8Array, specs: VideoFrameSpec[]) {
  const frames: Uint8Array[][] = specs.map(() => []);
  const times: number[][] = specs.map(() => []);
  const bytes = typeof path === "string" ? new Uint8Array(readFileSync(path)) : path;
  const result = await decoder.decode(bytes, specs, (k, f) => {
    frames[k]?.push(f.rgb);
    times[k]?.push(f.timestampSeconds);
  });
  return { result, frames, times };
}

/** Every spec's frames equal Debian ffmpeg's portable code byte for byte, and its SIMD code within the tolerance. */
async function expectSameAsCli(path: string, specs: VideoFrameSpec[], codec: string) {
  const { result, frames, times } = await decodeAll(path, specs);
  expect(result).toMatchObject({ status: "decoded", codec });
  specs.forEach((spec, k) => {
    const ref = reference(path, spec, true);
    expect(frames[k]?.length, `spec ${k} frame count`).toBe(ref.length);
    frames[k]?.forEach((f, i) => {
      expect(Buffer.compare(Buffer.from(f), ref[i] as Buffer), `spec ${k} frame ${i}`).toBe(0);
    });
    const simd = reference(path, spec, false);
    expect(simd.length).toBe(ref.length);
    let max = 0;
    let differing = 0;
    let total = 0;
    frames[k]?.forEach((f, i) => {
      const r = simd[i] as Buffer;
      for (let j = 0; j < f.length; j++) {
        const d = Math.abs((f[j] ?? 0) - (r[j] ?? 0));
        if (d > 0) differing++;
        max = Math.max(max, d);
      }
      total += f.length;
    });
    expect(max, `spec ${k}: largest difference from the SIMD scaler`).toBeLessThanOrEqual(4);
    expect(differing / total, `spec ${k}: share of bytes differing from the SIMD scaler`).toBeLessThan(0.005);
    for (const t of times[k] ?? []) expect(Number.isFinite(t)).toBe(true);
    const ts = times[k] ?? [];
    expect(ts.every((t, i) => i === 0 || t > (ts[i - 1] ?? 0))).toBe(true);
  });
  return { result, times };
}

const TWO: VideoFrameSpec[] = [
  { width: 128, height: 128, fps: null },
  { width: 64, height: 64, fps: 15 },
];

describe("video decoding of generated clips, against Debian's ffmpeg", () => {
  it("H.264 High 1080p (a photo panned): every frame and 15 fps, plus vPDQ's every-Nth Lanczos output", async () => {
    const path = clip("pan.mp4", photoPan(1), ["-c:v", "libx264", "-profile:v", "high", "-preset", "veryfast", "-pix_fmt", "yuv420p"]);
    const specs: VideoFrameSpec[] = [{ width: 128, height: 128, fps: null, everyNth: 7, scaleFlags: "lanczos" }, ...TWO];
    const { result, times } = await expectSameAsCli(path, specs, "h264");
    expect(result).toMatchObject({ sourceWidth: 1920, sourceHeight: 1080, framesDelivered: [5, 30, 17] });
    // Every 7th frame carries the time of decoded frame 7i; every frame's times are the 30 fps grid.
    expect(times[1]).toEqual(Array.from({ length: 30 }, (_, i) => expect.closeTo(i / 30, 4)));
    expect(times[0]).toEqual([0, 7, 14, 21, 28].map((n) => times[1]?.[n]));
  }, 180_000);

  it("HEVC, VP9 in WebM, H.264 in MOV, H.264 High 10, MJPEG in AVI", async () => {
    const hevc = clip("hevc.mp4", testsrc(1), ["-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p"]);
    await expectSameAsCli(hevc, TWO, "hevc");
    const vp9 = clip("vp9.webm", testsrc(1), ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "300k"]);
    await expectSameAsCli(vp9, TWO, "vp9");
    await expectSameAsCli(MEDIA("sample.mov"), TWO, "h264");
    await expectSameAsCli(MEDIA("sample-10bit.mp4"), TWO, "h264");
    await expectSameAsCli(MEDIA("sample.avi"), TWO, "mjpeg");
  }, 180_000);
});

describe("video decoding of hostile input and over the limits", () => {
  it("answers broken, foreign and oversized input with a status", async () => {
    const pan = new Uint8Array(readFileSync(clip("small.mp4", testsrc(2), ["-c:v", "libx264", "-profile:v", "high"])));
    const flipped = pan.slice();
    for (let i = 2048; i < flipped.length; i += 499) flipped[i] = (flipped[i] ?? 0) ^ 0x5a;
    const uhd = clip("uhd.mp4", testsrc(0.2, "3840x2160"), ["-c:v", "libx264", "-preset", "ultrafast"]);
    const audio = new Uint8Array(readFileSync(MEDIA("sample.m4a")));
    const cases: [string, Uint8Array, VideoFrameSpec[], string[]][] = [
      ["zero-length", new Uint8Array(0), TWO, ["decode_failed"]],
      ["garbage", new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24), TWO, ["unsupported"]],
      ["truncated", pan.subarray(0, pan.length >> 1), TWO, ["decoded", "decode_failed"]],
      ["header only", pan.subarray(0, 64), TWO, ["unsupported", "decode_failed"]],
      ["bit-flipped", flipped, TWO, ["decoded", "decode_failed"]],
      ["audio only", audio, TWO, ["unsupported"]],
      ["3840×2160", new Uint8Array(readFileSync(uhd)), TWO, ["too_large"]],
      ["no spec", pan, [], ["decode_failed"]],
      ["huge output", pan, [{ width: 100_000, height: 100_000, fps: null }], ["decode_failed"]],
      ["filter injection", pan, [{ width: 64, height: 64, fps: null, scaleFlags: "bicubic,drawbox" }], ["decode_failed"]],
    ];
    for (const [name, bytes, specs, statuses] of cases) {
      const result = await decoder.decode(bytes, specs, () => {});
      expect(statuses, `${name}: ${JSON.stringify(result)}`).toContain(result.status);
    }
  }, 180_000);

  it("stops at the decoded-frame, heap and byte limits, and when the callback throws", async () => {
    const path = clip("counted.mp4", testsrc(4), ["-c:v", "libx264"]);
    const bytes = new Uint8Array(readFileSync(path));
    // A decoding budget ends the decode like maxSeconds: the frames so far, the budget said to be reached.
    const few = await nodeVideoDecoder({ maxDecodedFrames: 30 });
    expect(await few.decode(bytes, TWO, () => {})).toMatchObject({ status: "decoded", budgetReached: true });
    const budget = await nodeVideoDecoder({ maxDecodedPixels: 320 * 240 * 50 });
    expect(await budget.decode(bytes, TWO, () => {})).toMatchObject({ status: "decoded", budgetReached: true });
    const small = await nodeVideoDecoder({ maxBytes: 1000 });
    expect((await small.decode(bytes, TWO, () => {})).status).toBe("too_large");
    // A longer video than the limit (or the caller's maxSeconds) is decoded from its beginning, its length stated.
    const whole = await decoder.decode(bytes, TWO, () => {});
    const short = await nodeVideoDecoder({ maxSeconds: 2 });
    for (const cut of [await short.decode(bytes, TWO, () => {}), await decoder.decode(bytes, TWO, () => {}, { maxSeconds: 2 })]) {
      expect(cut).toMatchObject({ status: "decoded", durationSeconds: whole.status === "decoded" ? whole.durationSeconds : -1 });
      if (cut.status !== "decoded" || whole.status !== "decoded") throw new Error("not decoded");
      cut.framesDelivered.forEach((n, k) => expect(Math.abs(n - whole.framesDelivered[k]! / 2)).toBeLessThanOrEqual(2));
    }
    expect((await decoder.decode(bytes, TWO, () => {}, { maxSeconds: 0 })).status).toBe("decode_failed");
    // A 1080p decode in a heap that may not grow past its initial 32 MiB (it needs ~38): FFmpeg's allocations fail
    // (it says "invalid data"), the refused growth makes it an out-of-memory status.
    const pan = clip("pan-short.mp4", photoPan(1), ["-c:v", "libx264", "-profile:v", "high"]);
    const tight = await nodeVideoDecoder({ maxHeapBytes: 32 * 1024 * 1024 });
    expect(await tight.decode(new Uint8Array(readFileSync(pan)), TWO, () => {})).toEqual({
      status: "too_large",
      reason: "the decode needs more than 32 MiB of wasm memory",
    });
    const throwing = await decoder.decode(bytes, TWO, () => {
      throw new Error("sink full");
    });
    expect(throwing).toEqual({ status: "decode_failed", reason: "onFrame threw: sink full" });
    // The decoder still works after all that (each decode has its own instance).
    expect((await decoder.decode(bytes, TWO, () => {})).status).toBe("decoded");
  }, 180_000);
});
