/**
 * The frame side of our video fingerprints: the frame type the video decoder (src/media/codecs/video) hands us,
 * the frame specs each algorithm needs from it, and PDQ of one RGB frame in the fingerprint kernel.
 *
 * The specs say what upstream's own tools feed their hashers, so a decoder honouring them reproduces upstream's
 * frames (and hashes):
 * - vPDQ (ThreatExchange vpdq/cpp, FFmpegVideo + sws_getContext): every decoded frame, converted to RGB24 by
 *   libswscale with SWS_AREA, at the video's own size or at a fixed downsample (upstream's `-s 128`: 128x128,
 *   aspect not kept); no frame-rate conversion (the hasher picks frames by index). The CLI equivalent:
 *   `ffmpeg -i IN -vf scale=W:H:flags=area -fps_mode passthrough -pix_fmt rgb24 -f rawvideo -`.
 * - TMK+PDQF (ThreatExchange tmk/cpp/hashing/filehasher.cpp, literally this command): `ffmpeg -i IN -s 64:64 -an
 *   -f rawvideo -c:v rawvideo -pix_fmt rgb24 -r 15 -`: 64x64 with the CLI's default scaler (bicubic), frame
 *   rate converted to 15 fps by ffmpeg's constant-frame-rate output (frames dropped or repeated).
 * Colours: both upstream paths convert with libswscale's defaults for untagged video (BT.601, limited range).
 */

/*
 * Frames and frame specs are the decoder's (src/media/codecs/video): a hasher takes `rgb.length === width * height * 3`,
 * rows top to bottom without padding, `index` counting the frames of its output from 0 in presentation order.
 */
import type { RgbFrame, VideoFrameSpec } from "../../codecs/video";
import { FingerprintKernel } from "../kernel";

export type { RgbFrame, VideoFrameSpec };

/** vPDQ as upstream's `vpdq-hash-video -s 128`: every frame, 128x128 by area averaging. */
export const VPDQ_FRAME_SPEC: VideoFrameSpec = Object.freeze({ width: 128, height: 128, fps: null, scaleFlags: "area" });

/** vPDQ as upstream's default (`-s 0`): every frame at the video's own size (only the pixel format converted). */
export function vpdqFullResolutionFrameSpec(width: number, height: number): VideoFrameSpec {
  return { width, height, fps: null, scaleFlags: "area" };
}

/**
 * TMK+PDQF as upstream's tmk-hash-video: 64x64 (bicubic, the ffmpeg CLI's default), resampled to 15 fps the way
 * ffmpeg's `-r 15` does it (FfmpegCfrResampler reproduces its picks from every decoded frame).
 */
export const TMK_FRAME_SPEC: VideoFrameSpec = Object.freeze({ width: 64, height: 64, fps: 15, scaleFlags: "bicubic" });

/** ffmpeg's lrintf: to nearest, ties to even. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * ffmpeg's constant-frame-rate output (`-r N` without filters: fftools do_video_out, VSYNC_CFR, 4.x to 5.1), the
 * frame-rate conversion TMK_FRAME_SPEC's frames go through: for each decoded frame in order, how many output
 * frames repeat the previous decoded frame (`previous`, for gaps) and then this one (`current`; 0: dropped).
 * Invariant: exactly ffmpeg's choice (checked against Debian's ffmpeg 5.1 for 24, 25, 29.97 and 60 fps input, and
 * upstream's 62 frames of the 4-s doorknob at 30 fps: the first four frames all pass, then every other one).
 *
 * Times are seconds from the stream's start (ffmpeg shifts the first timestamp to 0); a frame's duration is its
 * packet duration (by default 1 / the input frame rate): ffmpeg counts a frame as that rounded to whole output
 * frames when that is at least one (25 fps -> 15: 1), else as 1 / the input frame rate (30 fps -> 15: 0.5).
 */
export class FfmpegCfrResampler {
  readonly #outFps: number;
  readonly #inFps: number;
  #nextPts = 0;

  constructor(outFps: number, inputFrameRate: number) {
    if (!(outFps > 0) || !(inputFrameRate > 0)) throw new RangeError(`frame rates must be > 0: ${outFps}, ${inputFrameRate}`);
    this.#outFps = outFps;
    this.#inFps = inputFrameRate;
  }

  /** Output frames so far. */
  get outputFrames(): number {
    return this.#nextPts;
  }

  push(timestampSeconds: number, durationSeconds?: number): { previous: number; current: number } {
    // in output ticks (1 / outFps), as ffmpeg's encoder time base
    let duration = this.#outFps / this.#inFps;
    const packet = durationSeconds !== undefined && Number.isFinite(durationSeconds) ? durationSeconds : 1 / this.#inFps;
    const ticks = roundHalfEven(packet * this.#outFps);
    if (ticks > 0) duration = ticks;
    let delta0 = timestampSeconds * this.#outFps - this.#nextPts;
    let delta = delta0 + duration;
    // a frame starting before the next output tick but lasting past it is clipped to start there
    if (delta0 < 0 && delta > 0) {
      duration += delta0;
      delta0 = 0;
      delta = duration;
    }
    let n = 1;
    let previous = 0;
    if (delta < -1.1) n = 0;
    else if (delta > 1.1) {
      n = roundHalfEven(delta);
      if (delta0 > 1.1 && this.#nextPts > 0) previous = Math.min(n, roundHalfEven(delta0 - 0.6));
    }
    this.#nextPts += n;
    return { previous, current: n - previous };
  }
}

/** Largest frame side accepted (8K is 7680). */
export const MAX_FRAME_SIDE = 8192;

/** Why `frame` cannot be hashed, or null. */
export function checkFrame(frame: RgbFrame): string | null {
  if (!frame || typeof frame !== "object") return "no frame";
  const { width, height, rgb, index } = frame;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0)
    return `invalid frame dimensions ${width}x${height}`;
  if (width > MAX_FRAME_SIDE || height > MAX_FRAME_SIDE) return `frame too large: ${width}x${height}`;
  if (!(rgb instanceof Uint8Array)) return "frame pixels are not a Uint8Array";
  if (rgb.length !== width * height * 3) return `frame pixels are ${rgb.length} bytes, expected ${width * height * 3} (RGB24)`;
  if (!Number.isSafeInteger(index) || index < 0) return `invalid frame index ${index}`;
  return null;
}

export type FramePdqResult =
  /** `bits`: the 256-bit PDQ hash; `floats`: its 256 DCT coefficients before thresholding (PDQF), when asked. */
  { status: "computed"; bits: Uint8Array; quality: number; floats: Float32Array | null } | { status: "failed"; message: string };

/** Pixels converted into the kernel per push. */
const CHUNK_BYTES = 1 << 20;

/**
 * PDQ of one RGB frame (already checked by checkFrame), in the kernel: the RGB rows are widened to opaque RGBA
 * straight into the kernel's staging area, a band of rows at a time, so no full-frame copy is made. Sides under
 * 5 px hash to zero with quality 0, as upstream's PDQ. `wantFloats`: also return PDQF.
 */
export function framePdq(kernel: FingerprintKernel, frame: RgbFrame, wantFloats: boolean): FramePdqResult {
  const e = kernel.exports;
  const { width, height, rgb } = frame;
  const rowsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / (width * 4)));
  const staging = e.pdqBegin(width, height, rowsPerChunk * width * 4, 0) >>> 0;
  if (!staging) return { status: "failed", message: "pdq: fingerprint kernel out of memory" };
  for (let y0 = 0; y0 < height; y0 += rowsPerChunk) {
    const n = Math.min(rowsPerChunk, height - y0) * width;
    // Views after pdqBegin: memory only grows inside the Begin call.
    const dst = new Uint32Array(e.memory.buffer, staging, n);
    let s = y0 * width * 3;
    for (let i = 0; i < n; i++, s += 3) dst[i] = (0xff000000 | (rgb[s + 2]! << 16) | (rgb[s + 1]! << 8) | rgb[s]!) >>> 0;
    e.pdqPush(n * 4);
  }
  const quality = e.pdqFinish();
  if (quality < 0) return { status: "failed", message: "pdq: kernel did not receive every pixel" };
  const at = kernel.address(e.PDQ_HASH);
  const bits = kernel.bytes().slice(at, at + 32);
  let floats: Float32Array | null = null;
  if (wantFloats) {
    if (!e.PDQ_FLOATS) return { status: "failed", message: "pdq: kernel lacks PDQ_FLOATS (stale wasm/build/fingerprint.wasm?)" };
    const fa = kernel.address(e.PDQ_FLOATS);
    floats = new Float32Array(e.memory.buffer.slice(fa, fa + 1024));
  }
  return { status: "computed", bits, quality, floats };
}

export { FingerprintKernel };
