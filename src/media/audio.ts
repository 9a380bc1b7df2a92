import { utf8 } from "../platform/bytes";
import type { AudioServices, AudioSink, ChromaprintStream } from "./types";

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

/** Keeps every chunk of a decode (for work that needs the whole signal, as the watermark does), up to its cap. */
export class PcmCollector implements AudioSink {
  sampleRate = 0;
  channels = 0;
  #chunks: Int16Array[] = [];
  #length = 0;

  start(sampleRate: number, channels: number): void {
    this.sampleRate = sampleRate;
    this.channels = channels;
  }

  write(interleaved: Int16Array): void {
    this.#chunks.push(interleaved);
    this.#length += interleaved.length;
  }

  /** The interleaved samples so far, as one array (the chunks are released). */
  pcm(): Int16Array {
    const out = new Int16Array(this.#length);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.#chunks = [out];
    return out;
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
