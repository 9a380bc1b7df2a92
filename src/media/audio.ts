import { utf8 } from "../platform/bytes";
import type { AudioServices, AudioSink, AudioWatermarker, ChromaprintStream } from "./types";

/*
 * Chromaprint frames of an audio file: decoded into the fingerprint a chunk at a time, so neither the file's PCM nor
 * its resampled copy is ever whole in memory.
 */

export type AudioFingerprintResult =
  /** `seconds`: the audio fingerprinted; `truncated`: the audio goes on past `maxSeconds`. */
  | { status: "computed"; frames: Uint32Array; seconds: number; truncated: boolean }
  | { status: "unsupported"; message: string }
  | { status: "failed"; message: string };

// One computation at a time per isolate: the Chromaprint kernel keeps one stream's state, and a decoder may yield
// (await) between chunks, so two requests' audio must never interleave in it.
let queue: Promise<unknown> = Promise.resolve();

function serialized<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The key our audio watermark's layout is drawn from. One per algorithm, as the image watermark's pattern is: every
 * deployment reads every other's marks (a per-deployment secret would make marks readable only where they were made).
 */
export const AUDIO_WATERMARK_KEY = utf8("svc-awm-stdm-1/layout/v1");

/**
 * What the watermark is read from, in a verification and in the job's read-back alike: the first minute, kept as mono
 * of at most 48 kHz's worth of samples (a file at a higher rate is read over its first 30 s or so, still ≥ 9 s).
 */
export const WATERMARK_READ_SECONDS = 60;
export const WATERMARK_READ_MAX_SAMPLES = WATERMARK_READ_SECONDS * 48_000;

/**
 * Detects our audio watermark in interleaved PCM exactly as a verification reads it (MonoCollector over the first
 * minute): the job's read-back and verify then agree on every file.
 */
export function detectAsVerified(watermarker: AudioWatermarker, pcm: Int16Array, sampleRate: number, channels: number) {
  const mono = new MonoCollector(WATERMARK_READ_MAX_SAMPLES);
  mono.start(sampleRate, channels);
  const maxInterleaved = WATERMARK_READ_SECONDS * sampleRate * channels;
  for (let at = 0; at < Math.min(pcm.length, maxInterleaved); at += sampleRate * channels)
    mono.write(pcm.subarray(at, Math.min(at + sampleRate * channels, pcm.length, maxInterleaved)));
  return watermarker.detect({ pcm: mono.mono(), sampleRate, channels: 1, key: AUDIO_WATERMARK_KEY });
}

/**
 * Keeps a decode's audio for the watermark detector (which needs the whole signal) as mono: its first
 * WATERMARK_READ_SECONDS, at most `maxSamples` (the detector mixes to mono itself, so nothing is lost). One buffer,
 * sized when the decode starts: whatever the file's channels and rate, at most 2 bytes × `maxSamples`.
 */
export class MonoCollector implements AudioSink {
  sampleRate = 0;
  #channels = 1;
  #buffer = new Int16Array(0);
  #length = 0;

  constructor(private readonly maxSamples: number) {}

  start(sampleRate: number, channels: number): void {
    this.sampleRate = sampleRate;
    this.#channels = Math.max(1, channels);
    this.#buffer = new Int16Array(Math.max(0, Math.min(this.maxSamples, Math.ceil(WATERMARK_READ_SECONDS * sampleRate))));
    this.#length = 0;
  }

  write(interleaved: Int16Array): void {
    const c = this.#channels;
    const n = Math.min(Math.floor(interleaved.length / c), this.#buffer.length - this.#length);
    for (let i = 0, k = 0; i < n; i++) {
      let sum = 0;
      for (let ch = 0; ch < c; ch++) sum += interleaved[k++]!;
      this.#buffer[this.#length + i] = Math.round(sum / c);
    }
    this.#length += Math.max(0, n);
  }

  /** The samples kept (a view of the buffer, no copy). */
  mono(): Int16Array {
    return this.#buffer.subarray(0, this.#length);
  }
}

/** The Chromaprint frames of the first `maxSeconds` of `bytes` (`also`: another sink fed the same PCM). Never throws. */
export function chromaprintOf(
  audio: AudioServices,
  bytes: Uint8Array,
  mediaType: string,
  options: { maxSeconds: number; also?: AudioSink },
): Promise<AudioFingerprintResult> {
  return serialized(async () => {
    let stream: ChromaprintStream;
    try {
      stream = audio.chromaprint();
    } catch (error) {
      return { status: "failed", message: `The fingerprint kernel could not start: ${String(error)}` };
    }
    let decoded: Awaited<ReturnType<AudioServices["decoder"]["decode"]>>;
    try {
      const also = options.also;
      const sink: AudioSink = also
        ? {
            start: (rate, channels) => {
              stream.start(rate, channels);
              also.start(rate, channels);
            },
            write: (pcm) => {
              stream.write(pcm);
              also.write(pcm);
            },
          }
        : stream;
      decoded = await audio.decoder.decode(bytes, mediaType, sink, { maxSeconds: options.maxSeconds });
    } catch (error) {
      return { status: "failed", message: `The audio could not be decoded: ${String(error)}` };
    }
    if (decoded.status !== "decoded") return decoded;
    try {
      const frames = stream.finish();
      if (stream.error) return { status: "failed", message: `The fingerprint could not be computed: ${stream.error}` };
      return { status: "computed", frames, seconds: decoded.frames / decoded.sampleRate, truncated: decoded.truncated };
    } catch (error) {
      return { status: "failed", message: `The fingerprint could not be computed: ${String(error)}` };
    }
  });
}

/**
 * Keeps a decode's whole audio, interleaved, for the watermark step (which rewrites every sample): at most
 * `maxSamples` samples, all channels counted (`overflowed` past that, the rest dropped). One buffer, sized at `hintFrames` when the decode
 * starts (a file's own count when it states one) and grown by half when the audio goes on past it.
 */
export class PcmCollector implements AudioSink {
  sampleRate = 0;
  channels = 0;
  overflowed = false;
  #buffer = new Int16Array(0);
  #length = 0;

  constructor(
    private readonly maxSamples: number,
    private readonly hintFrames = 0,
  ) {}

  start(sampleRate: number, channels: number): void {
    this.sampleRate = sampleRate;
    this.channels = Math.max(1, channels);
    this.#buffer = new Int16Array(Math.min(this.#limit(), Math.max(sampleRate, this.hintFrames) * this.channels));
    this.#length = 0;
  }

  write(interleaved: Int16Array): void {
    const room = this.#limit() - this.#length;
    if (interleaved.length > room) this.overflowed = true;
    const n = Math.min(interleaved.length, room);
    if (this.#length + n > this.#buffer.length) {
      const grown = new Int16Array(Math.min(this.#limit(), Math.max(this.#length + n, Math.ceil(this.#buffer.length * 1.5))));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(interleaved.subarray(0, n), this.#length);
    this.#length += n;
  }

  /** The most samples kept: whole frames. */
  #limit(): number {
    return this.maxSamples - (this.maxSamples % this.channels);
  }

  /** The samples kept (a view of the buffer, no copy). */
  pcm(): Int16Array {
    return this.#buffer.subarray(0, this.#length);
  }
}
