import { WorkerEntrypoint } from "cloudflare:workers";
import { hex } from "../platform/bytes";
import { FfmpegVideoFrameSource } from "./codecs/video";
import { TMK_FRAME_SPEC, TmkPdqfHasher, VPDQ_FRAME_SPEC, VpdqHasher, encodeTmk } from "./fingerprint/video";
import type { VideoFingerprintOptions, VideoFingerprints, VideoMedia } from "./video";

/*
 * The media Worker (wrangler.media.toml): video decoding and video fingerprints, reached from the API Worker by the
 * `VIDEO` service binding. It holds no binding of its own and stores nothing: bytes in, fingerprints out.
 */

/** vPDQ samples this many frames a second (upstream hashes every frame; one a second is what an index needs). */
export const VPDQ_FRAMES_PER_SECOND = 1;

let source: FfmpegVideoFrameSource | null = null;

/** Reads the stream into one buffer of `size` bytes (the decoder needs the whole file); null when it is not that size. */
async function readAll(body: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array | null> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for await (const chunk of body) {
    if (at + chunk.length > size) return null;
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return at === size ? bytes : null;
}

export async function fingerprintVideo(
  body: ReadableStream<Uint8Array>,
  size: number,
  options: VideoFingerprintOptions,
): Promise<VideoFingerprints> {
  source ??= new FfmpegVideoFrameSource();
  const limits = source.limits;
  if (!Number.isSafeInteger(size) || size <= 0) {
    await body.cancel().catch(() => {});
    return { status: "decode_failed", message: "The video is empty." };
  }
  if (size > limits.maxBytes) {
    await body.cancel().catch(() => {});
    return { status: "too_large", message: `The video is larger than the ${limits.maxBytes / 1024 / 1024} MiB this deployment decodes.` };
  }
  const bytes = await readAll(body, size);
  if (!bytes) return { status: "decode_failed", message: "The video's bytes did not arrive whole." };
  const vpdq = new VpdqHasher();
  const tmk = options.tmk ? new TmkPdqfHasher() : null;
  const specs = [{ ...VPDQ_FRAME_SPEC, fps: VPDQ_FRAMES_PER_SECOND }, ...(tmk ? [TMK_FRAME_SPEC] : [])];
  const decoded = await source.decode(bytes, specs, { maxSeconds: options.maxSeconds }, (spec, frame) => {
    if (spec === 0) vpdq.push(frame);
    else tmk?.push(frame);
  });
  if (decoded.status !== "decoded") return { status: decoded.status, message: decoded.reason };
  return {
    status: "computed",
    durationSeconds: decoded.durationSeconds,
    truncated: decoded.durationSeconds > options.maxSeconds,
    width: decoded.sourceWidth,
    height: decoded.sourceHeight,
    codec: decoded.codec,
    frames: vpdq.finish().map((f) => ({ timestampSeconds: f.timestampSeconds, quality: f.quality, bitsHex: hex(f.bits) })),
    tmk: tmk ? encodeTmk(tmk.finish()) : null,
  };
}

/** The RPC entrypoint the API Worker's `VIDEO` binding names (see src/media/video.ts for the contract). */
export class VideoMediaEntrypoint extends WorkerEntrypoint implements VideoMedia {
  fingerprint(body: ReadableStream<Uint8Array>, size: number, options: VideoFingerprintOptions): Promise<VideoFingerprints> {
    return fingerprintVideo(body, size, options).catch((e: unknown) => ({
      status: "decode_failed" as const,
      message: `The video could not be decoded (${e instanceof Error ? e.message : "unknown error"}).`,
    }));
  }
}

export default {
  fetch(): Response {
    return new Response("svc media worker: reached through the API Worker's VIDEO service binding only.", { status: 404 });
  },
};
