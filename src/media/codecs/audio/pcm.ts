import type { AudioSink } from "./types";

/** Most frames in one sink write: one second at 48 kHz (less than a second above that rate). */
const MAX_CHUNK_FRAMES = 48_000;

/** 1.5 · 2^52: adding and subtracting it rounds a double to an integer, ties to even (the FPU's default mode). */
const ROUNDER = 6755399441055744;

/**
 * A float sample to 16-bit as FFmpeg's swresample converts flt/dbl to s16 (`av_clip_int16(lrintf(x * 32768))`):
 * round to nearest, ties to even, then clip; so our PCM is what fpcalc's decode gives for the same float samples.
 */
export function s16FromFloat(x: number): number {
  const r = x * 32768 + ROUNDER - ROUNDER;
  if (r > 32767) return 32767;
  if (r < -32768) return -32768;
  return Number.isNaN(r) ? 0 : r;
}

/** Converts `n` frames starting at the source's frame `from` into `out` (interleaved) from its frame `at`. */
export type FrameFill = (out: Int16Array, at: number, from: number, n: number) => void;

/**
 * Gathers decoded frames into sink writes of at most one second, stops taking frames at `maxSeconds`, and starts
 * the sink before its first write. Holds at most one chunk: memory does not depend on the audio's length.
 */
export class PcmWriter {
  frames = 0;
  /** Frames were dropped at the `maxSeconds` limit, or it was reached with input left (the decoder sets this). */
  truncated = false;
  /** The decoder stopped where audio of another rate or channel count begins (see AudioDecodeResult). */
  otherStream = false;
  sampleRate = 0;
  channels = 0;
  #chunkFrames = 0;
  #limit = Number.POSITIVE_INFINITY;
  #chunk: Int16Array | null = null;
  #filled = 0;

  constructor(
    private readonly sink: AudioSink,
    private readonly maxSeconds: number | undefined,
  ) {}

  get started(): boolean {
    return this.sampleRate > 0;
  }

  /** Whether the `maxSeconds` limit is reached: a decoder stops feeding then. */
  get full(): boolean {
    return this.frames >= this.#limit;
  }

  start(sampleRate: number, channels: number): void {
    this.sampleRate = sampleRate;
    this.channels = channels;
    this.#chunkFrames = Math.min(sampleRate, MAX_CHUNK_FRAMES);
    const max = this.maxSeconds;
    if (max !== undefined && Number.isFinite(max)) this.#limit = Math.max(0, Math.floor(max * sampleRate));
    this.sink.start(sampleRate, channels);
  }

  /** Takes `count` decoded frames, converted by `fill` a piece at a time. */
  push(count: number, fill: FrameFill): void {
    let from = 0;
    while (from < count && this.frames < this.#limit) {
      this.#chunk ??= new Int16Array(this.#chunkFrames * this.channels);
      const n = Math.min(count - from, this.#chunkFrames - this.#filled, this.#limit - this.frames);
      fill(this.#chunk, this.#filled, from, n);
      this.#filled += n;
      this.frames += n;
      from += n;
      if (this.#filled === this.#chunkFrames) this.flush();
    }
    if (from < count) this.truncated = true;
  }

  /** Writes the partial chunk (at the end of the decode). */
  flush(): void {
    if (this.#chunk && this.#filled > 0) {
      const whole = this.#filled === this.#chunkFrames;
      this.sink.write(whole ? this.#chunk : this.#chunk.slice(0, this.#filled * this.channels));
    }
    this.#chunk = null;
    this.#filled = 0;
  }
}

/** Audio data as a result, or why none was decoded. */
export function finish(writer: PcmWriter, what: string, why?: string | null) {
  writer.flush();
  if (writer.frames === 0) return { status: "failed" as const, message: `no ${what} audio could be decoded${why ? ` (${why})` : ""}` };
  return {
    status: "decoded" as const,
    sampleRate: writer.sampleRate,
    channels: writer.channels,
    frames: writer.frames,
    truncated: writer.truncated,
    ...(writer.otherStream ? { otherStream: true as const } : {}),
  };
}
