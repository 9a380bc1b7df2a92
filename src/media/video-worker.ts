import { WorkerEntrypoint } from "cloudflare:workers";
import fingerprintModule from "../../wasm/build/fingerprint.wasm";
import { hex } from "../platform/bytes";
import { VIDEO_DECODE_LIMITS } from "./codecs/video";
import { videoDecoder } from "./codecs/video/workerd";
import { encodeTmk, TMK_FRAME_SPEC, TmkPdqfHasher, VPDQ_FRAME_SPEC, VpdqHasher } from "./fingerprint/video";
import type { VideoFingerprintOptions, VideoFingerprints, VideoMedia } from "./video";

/*
 * The media Worker (wrangler.media.toml): video decoding and video fingerprints, reached from the API Worker by the
 * `VIDEO` service binding. It holds no binding of its own and stores nothing: bytes in, fingerprints out.
 */

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

/**
 * vPDQ (sampled as upstream samples, every `secondsPerHash`) and, when asked, TMK+PDQF, from ONE decode of the
 * video's first `maxSeconds`.
 */
export async function fingerprintVideo(
  body: ReadableStream<Uint8Array>,
  size: number,
  options: VideoFingerprintOptions,
): Promise<VideoFingerprints> {
  if (!Number.isSafeInteger(size) || size <= 0) {
    await body.cancel().catch(() => {});
    return { status: "decode_failed", message: "The video is empty." };
  }
  if (size > VIDEO_DECODE_LIMITS.maxBytes) {
    await body.cancel().catch(() => {});
    return {
      status: "too_large",
      message: `The video is larger than the ${VIDEO_DECODE_LIMITS.maxBytes / 1024 / 1024} MiB this deployment decodes.`,
    };
  }
  const bytes = await readAll(body, size);
  if (!bytes) return { status: "decode_failed", message: "The video's bytes did not arrive whole." };
  const vpdq = new VpdqHasher(fingerprintModule, { secondsPerHash: options.secondsPerHash });
  const tmk = options.tmk ? new TmkPdqfHasher(fingerprintModule) : null;
  const specs = tmk ? [VPDQ_FRAME_SPEC, TMK_FRAME_SPEC] : [VPDQ_FRAME_SPEC];
  const decoded = await videoDecoder.decode(
    bytes,
    specs,
    (spec, frame) => {
      if (spec === 0) vpdq.push(frame);
      else tmk?.push(frame);
    },
    { maxSeconds: options.maxSeconds },
  );
  if (decoded.status !== "decoded") return { status: decoded.status, message: `The video could not be decoded: ${decoded.reason}.` };
  const frames = vpdq.finish();
  if (frames.status !== "computed") return { status: "decode_failed", message: frames.message };
  const features = tmk?.finish() ?? null;
  if (features && features.status !== "computed") return { status: "decode_failed", message: features.message };
  return {
    status: "computed",
    durationSeconds: decoded.durationSeconds,
    truncated: decoded.budgetReached === true || decoded.durationSeconds > options.maxSeconds,
    width: decoded.sourceWidth,
    height: decoded.sourceHeight,
    codec: decoded.codec,
    frames: frames.hashes.map((f) => ({ frame: f.frame, timestampSeconds: f.timestampSeconds, quality: f.quality, bitsHex: hex(f.bits) })),
    tmk: features ? encodeTmk(features.features) : null,
  };
}

/**
 * One decode at a time per isolate: a decode holds up to 40 MiB of input beside a wasm heap of up to 64 MiB, so two
 * at once would not fit the isolate's 128 MB. Calls wait their turn (the runtime spreads load over isolates).
 */
let turn: Promise<unknown> = Promise.resolve();

/** The RPC entrypoint the API Worker's `VIDEO` binding names (see src/media/video.ts for the contract). */
export class VideoMediaEntrypoint extends WorkerEntrypoint implements VideoMedia {
  fingerprint(body: ReadableStream<Uint8Array>, size: number, options: VideoFingerprintOptions): Promise<VideoFingerprints> {
    const run = turn.then(() =>
      fingerprintVideo(body, size, options).catch((e: unknown) => ({
        status: "decode_failed" as const,
        message: `The video could not be decoded (${e instanceof Error ? e.message : "unknown error"}).`,
      })),
    );
    turn = run;
    return run;
  }
}

export default {
  fetch(): Response {
    return new Response("svc media worker: reached through the API Worker's VIDEO service binding only.", { status: 404 });
  },
};
