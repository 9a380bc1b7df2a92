import { fromHex } from "../platform/bytes";
import { hammingDistance } from "./fingerprint/codes";

/*
 * Video fingerprints are computed in a Worker of their own (src/media/video-worker.ts, configured by
 * wrangler.media.toml): its FFmpeg decoder is a 32 MB WebAssembly module that must stay out of the API Worker's
 * bundle. The API Worker reaches it through the `VIDEO` service binding (an RPC entrypoint), from the jobs consumer
 * (publication) and from verification alike, so both compute the same fingerprints from the same frames.
 */

/** What a caller asks of one video. */
export interface VideoFingerprintOptions {
  /** Only the first this many seconds are decoded (a copy of a whole video is found by its beginning). */
  maxSeconds: number;
  /** Also compute TMK+PDQF (whole-video features: a publication records them, an excerpt has no use for them). */
  tmk: boolean;
  /**
   * vPDQ samples one frame per this many seconds: densely for a publication (0.2: an excerpt's frames, sampled at
   * other instants, still find close ones), once a second for a copy being verified (VPDQ_SECONDS_PER_HASH).
   */
  secondsPerHash: number;
}

/** One sampled frame's PDQ hash (vPDQ). */
export interface VideoFrameHash {
  /** The frame's number among the decoded frames. */
  frame: number;
  timestampSeconds: number;
  /** PDQ quality 0–100: below PDQ_MIN_QUALITY the frame says too little to be indexed or looked up. */
  quality: number;
  /** The 256-bit PDQ hash, 64 hex digits. */
  bitsHex: string;
}

/** The fingerprints of one video, or why none could be computed (never invented). */
export type VideoFingerprints =
  | {
      status: "computed";
      durationSeconds: number;
      /** The video is longer than `maxSeconds`: the fingerprints describe its beginning. */
      truncated: boolean;
      width: number;
      height: number;
      codec: string;
      /** vPDQ: the sampled frames in presentation order. */
      frames: VideoFrameHash[];
      /** TMK+PDQF features in the upstream `.tmk` layout, when asked for. */
      tmk: Uint8Array | null;
    }
  | { status: "unsupported" | "too_large" | "decode_failed"; message: string };

/**
 * The media Worker's RPC surface. Invariant: `fingerprint` never rejects for anything about the bytes (a video it
 * cannot read is answered with a status and a message); it rejects only when the binding itself fails.
 */
export interface VideoMedia {
  fingerprint(body: ReadableStream<Uint8Array>, size: number, options: VideoFingerprintOptions): Promise<VideoFingerprints>;
}

/** The media Worker's binding, when this deployment has one (null: video signals are not computed). */
export function videoMedia(env: { VIDEO?: unknown }): VideoMedia | null {
  const bound = env.VIDEO as Partial<VideoMedia> | undefined;
  return bound && typeof bound.fingerprint === "function" ? (bound as VideoMedia) : null;
}

/**
 * A sampled frame this close to the frame kept before it adds nothing to an index or a lookup (a still scene):
 * it is kept once.
 */
export const VIDEO_FRAME_REPEAT_DISTANCE = 8;

/**
 * The frames worth indexing or probing: quality at least `minQuality` (a dark or flat frame says nothing about
 * which video it is), each unlike the frame kept before it.
 */
export function indexedVideoFrames(frames: readonly VideoFrameHash[], minQuality: number): VideoFrameHash[] {
  const kept: VideoFrameHash[] = [];
  let last: Uint8Array | null = null;
  for (const frame of frames) {
    if (frame.quality < minQuality || !/^[0-9a-f]{64}$/.test(frame.bitsHex)) continue;
    const bits = fromHex(frame.bitsHex);
    if (last && hammingDistance(last, bits) <= VIDEO_FRAME_REPEAT_DISTANCE) continue;
    kept.push(frame);
    last = bits;
  }
  return kept;
}
