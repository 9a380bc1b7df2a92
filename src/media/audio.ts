import type { AudioServices, ChromaprintStream } from "./types";

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

/** The Chromaprint frames of the first `maxSeconds` of `bytes`. Never throws. */
export function chromaprintOf(
  audio: AudioServices,
  bytes: Uint8Array,
  mediaType: string,
  options: { maxSeconds: number },
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
      decoded = await audio.decoder.decode(bytes, mediaType, stream, { maxSeconds: options.maxSeconds });
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
