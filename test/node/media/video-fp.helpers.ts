/**
 * Frames for the video fingerprint tests, made by Debian's ffmpeg CLI with upstream's own invocations (see
 * src/media/fingerprint/video/frames.ts), and the kernel compiled from wasm/build/fingerprint.wasm.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FingerprintKernel } from "../../../src/media/fingerprint";
import type { RgbFrame } from "../../../src/media/fingerprint/video";

export const ROOT = join(import.meta.dirname, "..", "..", "..");
export const VECTORS = join(ROOT, "test", "fixtures", "fp-vectors");
export const DOORKNOB = join(VECTORS, "vpdq", "doorknob-hd-no-bar.mp4");
for (const f of [DOORKNOB, join(VECTORS, "vpdq", "doorknob-hd-no-bar.txt"), join(VECTORS, "tmk", "doorknob-hd-no-bar.tmk")])
  if (!existsSync(f)) throw new Error(`video fingerprint vector ${f} missing: cannot test`);
const WASM = join(ROOT, "wasm", "build", "fingerprint.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);

const compileWasm = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);
export const kernel = FingerprintKernel.of(compileWasm(readFileSync(WASM)));

/**
 * Runs ffmpeg on `input` with `args` between input and the rawvideo RGB24 output and splits the output into
 * `width` x `height` frames (indices from 0, timestamps index / `rate`).
 */
export function ffmpegFrames(input: string, width: number, height: number, args: string[], rate: number, pre: string[] = []): RgbFrame[] {
  const out = execFileSync(
    "ffmpeg",
    ["-v", "error", "-nostdin", ...pre, "-i", input, ...args, "-an", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"],
    {
      maxBuffer: 1 << 30,
    },
  );
  const size = width * height * 3;
  if (out.length % size !== 0) throw new Error(`ffmpeg output ${out.length} bytes is not a whole number of ${width}x${height} frames`);
  return Array.from({ length: out.length / size }, (_, i) => ({
    index: i,
    timestampSeconds: i / rate,
    width,
    height,
    rgb: new Uint8Array(out.buffer, out.byteOffset + i * size, size),
  }));
}

/**
 * upstream vpdq-hash-video's frames: every frame, RGB24 by libswscale with `flags` (the current hasher's
 * SWS_AREA; SWS_LANCZOS made upstream's 128x128 vectors), at `width` x `height`.
 */
export function vpdqFrames(input: string, width: number, height: number, flags: string, pre: string[] = [], rate = 30): RgbFrame[] {
  return ffmpegFrames(input, width, height, ["-vf", `scale=${width}:${height}:flags=${flags}`, "-fps_mode", "passthrough"], rate, pre);
}

/** upstream tmk-hash-video's frames, its very command: `-s 64:64 -an -f rawvideo -c:v rawvideo -pix_fmt rgb24 -r 15`. */
export function tmkFrames(input: string, pre: string[] = []): RgbFrame[] {
  return ffmpegFrames(input, 64, 64, ["-s", "64:64", "-c:v", "rawvideo", "-r", "15"], 15, pre);
}

/** Median of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
