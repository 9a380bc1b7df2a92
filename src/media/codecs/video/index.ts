// Video decoding into sampled, scaled RGB frames with FFmpeg's wasm build (@ffmpeg/core 0.12.10, FFmpeg 5.1.4,
// single thread). It runs the FFmpeg command line inside the wasm, so frame selection (-r / passthrough) and scaling
// are FFmpeg's own code, the same as Debian's `ffmpeg` 5.1 given the same options (see VideoFrameSpec). Only the
// media Worker imports this (workerd.ts there, node.ts in tests): the wasm is 32 MB and stays out of the API Worker.
import type { CreateFfmpegCore, FfmpegCore, FsStream } from "./ffmpeg-core";

/**
 * One scaled output the caller wants from a decode: RGB24 frames of width×height. Each spec is one output of the
 * FFmpeg command line, the same as Debian's
 * `ffmpeg -i in -map 0:v:0 -an -s WxH -sws_flags <scaleFlags> -r <fps> -f rawvideo -pix_fmt rgb24 out`
 * for a number `fps` (FFmpeg's constant-frame-rate output: frames dropped or repeated onto the 1/fps grid, the way
 * TMK's `-r 15` makes them; frame i's time is i/fps), or with `-fps_mode passthrough` instead of `-r` for
 * `fps: null` (every decoded frame, as vPDQ's own decoding loop takes them, each with its presentation time), plus
 * `-vf select='not(mod(n\,N))'` for `everyNth: N`. Frames are byte-equal to Debian's ffmpeg 5.1 run with
 * `-cpuflags 0` (its portable C scaler, the code the wasm runs); its default x86 SIMD scaler differs by at most a
 * few levels on a fraction of a percent of bytes on large reductions (test/node/media/video-decode.formats.test.ts).
 */
export interface VideoFrameSpec {
  width: number;
  height: number;
  fps: number | null;
  /**
   * libswscale flags, as `-sws_flags` takes them (`bicubic`, the CLI's default when absent; `lanczos`, `area`,
   * `bilinear`…, optionally `+accurate_rnd`, `+full_chroma_int`…). Scaling and the YUV→RGB conversion are one pass.
   */
  scaleFlags?: string;
  /** With `fps: null`: keep only decoded frames whose number is a multiple of this (vPDQ's `frameMod`). */
  everyNth?: number;
}

/** One frame of one spec. `index`: its number in that spec's output (0, 1, 2…); `rgb`: width×height×3 bytes. */
export interface RgbFrame {
  index: number;
  timestampSeconds: number;
  width: number;
  height: number;
  rgb: Uint8Array;
}

export type VideoDecodeResult =
  | {
      status: "decoded";
      durationSeconds: number;
      sourceWidth: number;
      sourceHeight: number;
      codec: string;
      /** Frames delivered per spec, in the order of `specs`. */
      framesDelivered: number[];
      /** A decoding budget (VIDEO_DECODE_LIMITS.maxDecodedFrames, maxDecodedPixels) ended the decode early. */
      budgetReached?: true;
    }
  | { status: "unsupported"; reason: string }
  | { status: "too_large"; reason: string }
  | { status: "decode_failed"; reason: string };

/**
 * Decodes a video's first video stream into the requested scaled RGB outputs, all from one decode.
 * Invariant: frames of each spec arrive in presentation order, each `rgb` a fresh buffer of width×height×3 bytes
 * the callee may keep; a failure (bad input, over the limits, out of memory, `onFrame` throwing) never throws past
 * this call but comes back as a status; memory and decode time are bounded by VIDEO_DECODE_LIMITS (the source's
 * duration, pixels and bytes, the wasm heap, the number of decoded frames).
 */
export interface VideoFrameSource {
  decode(
    bytes: Uint8Array,
    specs: readonly VideoFrameSpec[],
    onFrame: (spec: number, frame: RgbFrame) => void,
    options?: VideoDecodeOptions,
  ): Promise<VideoDecodeResult>;
}

/** How much of a video one decode reads. */
export interface VideoDecodeOptions {
  /**
   * Only the first this many seconds are decoded (at most VIDEO_DECODE_LIMITS.maxSeconds, the default): a longer
   * video is decoded from its beginning, and `durationSeconds` still states its whole length.
   */
  maxSeconds?: number;
}

/**
 * Published limits, set from bench/video-decode.mjs (workerd, 1080p H.264 High from a panned photo, into 128×128 at
 * 1 fps + 64×64 at 15 fps): such a decode ends with 46 MiB of wasm memory and costs ~1.7 s of CPU per second of
 * 1080p30 on the bench machine. So: the input's bytes (in the isolate beside the heap), its duration, the pixels of
 * one source frame (1920×1080), a decoding budget in frames×pixels (1800 1080p frames: 60 s at 30 fps or 30 s at
 * 60 fps, ~100 s of CPU; the decode stops past it) and in frames (tiny skipped frames cost per frame too), and the
 * wasm heap's ceiling: 64 MiB heap + 40 MiB input + the JS heap stays under the isolate's 128 MB.
 */
export const VIDEO_DECODE_LIMITS = {
  maxBytes: 40 * 1024 * 1024,
  maxSeconds: 60,
  maxSourcePixels: 1920 * 1080,
  maxDecodedPixels: 1920 * 1080 * 30 * 60,
  maxDecodedFrames: 60 * 120,
  /** The wasm heap's ceiling: FFmpeg's allocations past it fail (out of memory), the isolate's 128 MB is not hit. */
  maxHeapBytes: 64 * 1024 * 1024,
  /** Outputs per decode, and their frame size. */
  maxSpecs: 4,
  maxOutputSide: 512,
} as const;

export type VideoDecodeLimits = { [K in keyof typeof VIDEO_DECODE_LIMITS]: number };

const SCALE_FLAG =
  /^(fast_bilinear|bilinear|bicubic|experimental|neighbor|area|bicublin|gauss|sinc|lanczos|spline|accurate_rnd|full_chroma_int|full_chroma_inp|bitexact)$/;
/** A `+`-joined list of libswscale flag names (checked, since it goes into a filter's arguments). */
const validScaleFlags = (flags: string) => flags.split("+").every((f) => SCALE_FLAG.test(f));

/** Why a spec is refused, or null. */
function specError(spec: VideoFrameSpec, limits: VideoDecodeLimits): string | null {
  const side = (n: number) => Number.isInteger(n) && n >= 1 && n <= limits.maxOutputSide;
  if (!side(spec.width) || !side(spec.height)) return `output size ${spec.width}×${spec.height} outside 1…${limits.maxOutputSide}`;
  if (spec.fps !== null && !(Number.isFinite(spec.fps) && spec.fps > 0 && spec.fps <= 120)) return `fps ${spec.fps} outside (0, 120]`;
  if (spec.scaleFlags !== undefined && !validScaleFlags(spec.scaleFlags)) return `unknown scale flags "${spec.scaleFlags}"`;
  if (spec.everyNth !== undefined && (spec.fps !== null || !Number.isInteger(spec.everyNth) || spec.everyNth < 1))
    return "everyNth needs fps: null and a positive integer";
  return null;
}

/** What ffprobe says of the first video stream and the container. */
interface Probe {
  codec: string;
  width: number;
  height: number;
  durationSeconds: number | null;
}

/** ENOSPC: what our output devices answer once the decode must stop (FFmpeg then closes its outputs and exits). */
const ENOSPC = 28;
/** The line showinfo logs per frame: decoded-frame number and presentation time (seconds). */
const SHOWINFO = /\bn:\s*(\d+)\s+pts:\s*\S+\s+pts_time:(\S+)/;

/** Formats a number for the command line without exponent notation. */
const arg = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(6));

/**
 * FFmpeg's command line in a wasm instance created afresh for every decode (from the one compiled module): FFmpeg's
 * globals and heap start clean, and an instance a failure left behind is simply dropped.
 */
export class FfmpegVideoDecoder implements VideoFrameSource {
  private readonly limits: VideoDecodeLimits;
  /** Diagnostics (bench/video-decode.mjs): the wasm memory the last decode ended with, bytes (it never shrinks). */
  lastWasmMemoryBytes = 0;

  constructor(
    private readonly wasm: WebAssembly.Module,
    private readonly createCore: CreateFfmpegCore,
    limits: Partial<VideoDecodeLimits> = {},
  ) {
    this.limits = { ...VIDEO_DECODE_LIMITS, ...limits };
  }

  async decode(
    bytes: Uint8Array,
    specs: readonly VideoFrameSpec[],
    onFrame: (spec: number, frame: RgbFrame) => void,
    options: VideoDecodeOptions = {},
  ): Promise<VideoDecodeResult> {
    try {
      return await this.run(bytes, specs, onFrame, options);
    } catch (error) {
      // A trap or abort inside the wasm (the instance is dropped with this call), or the glue failing to start.
      const message = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
      return { status: "decode_failed", reason: `decoder error: ${message}` };
    }
  }

  private async instance(log: (type: "stdout" | "stderr", line: string) => void): Promise<FfmpegCore> {
    const wasm = this.wasm;
    const core = await this.createCore({
      maxHeapBytes: this.limits.maxHeapBytes,
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
        return {};
      },
    });
    core.setLogger((entry) => log(entry.type, entry.message));
    return core;
  }

  private async run(
    bytes: Uint8Array,
    specs: readonly VideoFrameSpec[],
    onFrame: (spec: number, frame: RgbFrame) => void,
    options: VideoDecodeOptions,
  ): Promise<VideoDecodeResult> {
    const limits = this.limits;
    const seconds = Math.min(options.maxSeconds ?? limits.maxSeconds, limits.maxSeconds);
    if (!(seconds > 0)) return { status: "decode_failed", reason: `maxSeconds ${options.maxSeconds} is not a positive number` };
    if (specs.length === 0 || specs.length > limits.maxSpecs)
      return { status: "decode_failed", reason: `between 1 and ${limits.maxSpecs} output specs are needed` };
    for (const spec of specs) {
      const error = specError(spec, limits);
      if (error) return { status: "decode_failed", reason: `invalid spec: ${error}` };
    }
    if (bytes.byteLength === 0) return { status: "decode_failed", reason: "empty input" };
    if (bytes.byteLength > limits.maxBytes)
      return { status: "too_large", reason: `${bytes.byteLength} bytes, over the ${limits.maxBytes}-byte limit` };

    // FFmpeg's log, kept short: stdout (ffprobe's JSON, a few hundred bytes) whole, stderr's last lines for a reason.
    let stdout = "";
    const errors: string[] = [];
    let onLine: ((line: string) => void) | null = null;
    const core = await this.instance((type, line) => {
      if (type === "stdout") {
        if (stdout.length < 65536) stdout += `${line}\n`;
      } else onLine?.(line);
    });
    this.lastWasmMemoryBytes = 0;
    // The caller's bytes become the input file as they are (MEMFS keeps a view, no copy).
    core.FS.writeFile("/in", bytes, { canOwn: true });

    // Decoded-frame times from showinfo (on the frame counter's output, below); the other lines are kept (the last
    // few) for a failure's reason.
    const times: number[] = [];
    onLine = (line) => {
      const m = SHOWINFO.exec(line);
      if (m) {
        times[Number(m[1])] = Number(m[2]);
        return;
      }
      errors.push(line);
      if (errors.length > 40) errors.shift();
    };

    const probed = this.probe(core, () => stdout, errors);
    if ("status" in probed) return core.heapRefused ? outOfMemory(limits) : probed;
    const probe = probed;
    if (probe.width * probe.height > limits.maxSourcePixels)
      return {
        status: "too_large",
        reason: `${probe.width}×${probe.height} frames, over the ${limits.maxSourcePixels}-pixel limit`,
      };
    errors.length = 0;

    let stop: string | null = null;
    let decodedFrames = 0;
    const delivered = specs.map(() => 0);
    const args = [
      "-hide_banner",
      "-loglevel",
      "info",
      "-nostats",
      // Decoder guards: no frame over the pixel limit is allocated; no more than `seconds` of input is read.
      "-max_pixels",
      String(limits.maxSourcePixels),
      "-t",
      arg(seconds),
      "-i",
      "/in",
    ];
    specs.forEach((spec, k) => {
      const flags = spec.scaleFlags ?? "bicubic";
      const path = `/out${k}`;
      const frameBytes = spec.width * spec.height * 3;
      let frame = new Uint8Array(frameBytes);
      let filled = 0;
      const passthrough = spec.fps === null;
      const nth = spec.everyNth ?? 1;
      this.device(core, k, path, (heap, offset, length) => {
        let at = offset;
        const end = offset + length;
        while (at < end) {
          const take = Math.min(end - at, frameBytes - filled);
          frame.set(new Uint8Array(heap.buffer, heap.byteOffset + at, take), filled);
          filled += take;
          at += take;
          if (filled < frameBytes) break;
          const index = delivered[k] ?? 0;
          const timestampSeconds = passthrough ? (times[index * nth] ?? Number.NaN) : index / (spec.fps as number);
          const done = frame;
          frame = new Uint8Array(frameBytes);
          filled = 0;
          delivered[k] = index + 1;
          try {
            onFrame(k, { index, timestampSeconds, width: spec.width, height: spec.height, rgb: done });
          } catch (error) {
            stop = `onFrame threw: ${error instanceof Error ? error.message : String(error)}`;
          }
          if (stop) return false;
        }
        return stop === null;
      });
      args.push("-map", "0:v:0", "-an", "-sn", "-dn", "-s", `${spec.width}x${spec.height}`, "-sws_flags", flags);
      if (passthrough) {
        args.push("-fps_mode", "passthrough");
        if (nth > 1) args.push("-vf", `select='not(mod(n\\,${nth}))'`);
      } else args.push("-r", arg(spec.fps as number));
      args.push("-f", "rawvideo", "-pix_fmt", "rgb24", path);
    });
    // A frame counter: every decoded frame, scaled to 1×1 grey by point sampling (negligible work), so the decode
    // stops at the decoding budget whatever the specs keep; its showinfo gives every decoded frame's time (logged
    // while the frame goes through the filter graphs, before any output writes it).
    const framePixels = probe.width * probe.height;
    this.device(core, specs.length, "/count", (_heap, _offset, length) => {
      decodedFrames += length;
      if (decodedFrames > limits.maxDecodedFrames) stop ??= `over ${limits.maxDecodedFrames} decoded frames`;
      if (decodedFrames * framePixels > limits.maxDecodedPixels)
        stop ??= `over the decoding budget (${limits.maxDecodedPixels} pixels: ${Math.floor(limits.maxDecodedPixels / framePixels)} frames of ${probe.width}×${probe.height})`;
      return stop === null;
    });
    args.push("-map", "0:v:0", "-an", "-sn", "-dn", "-fps_mode", "passthrough", "-vf", "scale=1:1:flags=neighbor,showinfo");
    args.push("-f", "rawvideo", "-pix_fmt", "gray", "/count");
    let code: number;
    try {
      code = core.exec(...args);
    } catch (error) {
      if (!isExit(error)) throw error;
      code = error.status || 1;
    }

    this.lastWasmMemoryBytes = core.HEAPU8.length;
    if (core.heapRefused) return outOfMemory(limits);
    if (stop !== null) {
      const reason: string = stop;
      // A decoding budget reached (frames, or frames × pixels) ends the decode as `maxSeconds` does: the frames so
      // far are the video's beginning. Only a decode that delivered nothing for some output is refused.
      if (reason.startsWith("over ") && delivered.every((n) => n > 0))
        return {
          status: "decoded",
          durationSeconds: probe.durationSeconds ?? (times.length > 0 ? (times[times.length - 1] ?? 0) : 0),
          sourceWidth: probe.width,
          sourceHeight: probe.height,
          codec: probe.codec,
          framesDelivered: delivered,
          budgetReached: true,
        };
      return reason.startsWith("over ") ? { status: "too_large", reason } : { status: "decode_failed", reason };
    }
    const lastError = () =>
      errors
        .filter((l) => !/^\s|^(Input|Output|Stream mapping|Press|frame=|video:)/.test(l))
        .slice(-3)
        .join(" | ");
    if (code !== 0) return classify(lastError() || `ffmpeg exited with ${code}`);
    if (delivered.some((n) => n === 0)) return { status: "decode_failed", reason: `no frame decoded (${lastError()})` };
    const last = times.length > 0 ? (times[times.length - 1] ?? 0) : 0;
    return {
      status: "decoded",
      durationSeconds: probe.durationSeconds ?? last,
      sourceWidth: probe.width,
      sourceHeight: probe.height,
      codec: probe.codec,
      framesDelivered: delivered,
    };
  }

  /** ffprobe's view of the input (container and first video stream), or the status that ends the decode. */
  private probe(
    core: FfmpegCore,
    stdout: () => string,
    errors: readonly string[],
  ): Probe | Exclude<VideoDecodeResult, { status: "decoded" }> {
    // No -max_pixels here: the probe must see the size to report it; a huge frame it starts decoding is bounded by
    // the heap ceiling instead. Some of ffprobe's failures exit() rather than return (ExitStatus thrown).
    const run = () =>
      core.ffprobe(
        "-v",
        "error",
        "-select_streams",
        "v:0",
        "-show_entries",
        "stream=codec_name,width,height,duration:format=duration,format_name",
        "-of",
        "json",
        "/in",
      );
    try {
      run();
    } catch (error) {
      if (!isExit(error)) throw error;
    }
    type ProbeJson = { streams?: Array<Record<string, unknown>>; format?: Record<string, unknown> };
    let parsed: ProbeJson | null;
    try {
      parsed = JSON.parse(stdout()) as ProbeJson;
    } catch {
      parsed = null;
    }
    const stream = parsed?.streams?.[0];
    if (!parsed?.format) {
      // A demuxer's own complaint ("[mov,mp4,… @ 0x…] moov atom not found") means the container was recognized
      // and is broken; without one, no demuxer took the bytes.
      const demuxer = errors.find((l) => /^\[[^\]]+ @ 0x[0-9a-f]+\]/.test(l));
      if (demuxer) return { status: "decode_failed", reason: demuxer.replace(/ @ 0x[0-9a-f]+/, "") };
      return { status: "unsupported", reason: "not a container FFmpeg recognizes" };
    }
    if (!stream) return { status: "unsupported", reason: `no video stream (${String(parsed.format.format_name)})` };
    const width = Number(stream.width);
    const height = Number(stream.height);
    const codec = typeof stream.codec_name === "string" ? stream.codec_name : "unknown";
    if (!(width > 0 && height > 0)) return { status: "unsupported", reason: `video stream without a size (codec ${codec})` };
    const duration = Number(parsed.format.duration ?? stream.duration);
    return { codec, width, height, durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null };
  }

  /**
   * A character device at `path` whose writes go to `sink` (FFmpeg's rawvideo output). When `sink` answers false the
   * write fails with ENOSPC, and FFmpeg closes its outputs and exits: how a decode is stopped from JS.
   */
  private device(core: FfmpegCore, minor: number, path: string, sink: (heap: Int8Array, offset: number, length: number) => boolean) {
    const fs = core.FS;
    const dev = fs.makedev(64, minor);
    fs.registerDevice(dev, {
      open() {},
      close() {},
      write(_stream: FsStream, buffer: Int8Array, offset: number, length: number) {
        if (!sink(buffer, offset, length)) throw new fs.ErrnoError(ENOSPC);
        return length;
      },
      llseek() {
        return 0;
      },
    });
    fs.mkdev(path, dev);
  }
}

/** emscripten's exit(): FFmpeg's code calling exit() instead of returning from main. */
const isExit = (error: unknown): error is { status: number } =>
  !!error && typeof error === "object" && (error as { name?: unknown }).name === "ExitStatus";

const outOfMemory = (limits: VideoDecodeLimits): VideoDecodeResult => ({
  status: "too_large",
  reason: `the decode needs more than ${limits.maxHeapBytes / 2 ** 20} MiB of wasm memory`,
});

/** The status of a decode FFmpeg ended with an error, from its last error lines. */
function classify(reason: string): Exclude<VideoDecodeResult, { status: "decoded" }> {
  if (/Cannot allocate memory|out of memory/i.test(reason)) return { status: "too_large", reason: `out of memory: ${reason}` };
  if (/Decoder \(codec [^)]*\) not found|not implemented|unsupported codec|Unknown decoder/i.test(reason))
    return { status: "unsupported", reason };
  return { status: "decode_failed", reason };
}
