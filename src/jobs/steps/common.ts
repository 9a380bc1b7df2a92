import type { ImageServices, RgbaImage } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { JobErrorCode } from "../job-errors";
import type { StoredBlob } from "../outputs";
import type { JobServices } from "../runner";

/**
 * A step's permanent failure: the job ends (`failed`, or `rejected` for the codes in REJECTING_CODES) with this
 * code and message. Anything else a step throws is transient and the queue retries the message.
 */
export class StepFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function put(bucket: R2Bucket, key: string, bytes: Uint8Array, contentType: string): Promise<StoredBlob> {
  // The digest is of the bytes in hand, so it need not wait for the write.
  const [stored, digest] = await Promise.all([
    bucket.put(key, bytes, { httpMetadata: { contentType } }),
    crypto.subtle.digest("SHA-256", bytes),
  ]);
  return { key, etag: stored!.etag, sha256: hex(digest), byte_length: bytes.length };
}

/** The object's bytes, only while its etag still matches (null otherwise): a step never reads bytes it did not check. */
export async function read(bucket: R2Bucket, key: string, etag: string): Promise<Uint8Array | null> {
  const stored = await bucket.get(key, { onlyIf: { etagMatches: etag } });
  if (!stored || !("body" in stored)) return null;
  return new Uint8Array(await stored.arrayBuffer());
}

/**
 * A read started ahead of the step that needs it, handed over once: the taker holds the only reference to the
 * pending read, so its bytes are freed when the taker is done with them (a second take reads again).
 */
export function readAhead(bucket: R2Bucket, key: string, etag: string): () => Promise<Uint8Array | null> {
  let pending: Promise<Uint8Array | null> | null = read(bucket, key, etag);
  pending.catch(() => undefined); // a failed read surfaces where it is taken
  return () => {
    const taken = pending ?? read(bucket, key, etag);
    pending = null;
    return taken;
  };
}

export function imageServices(services: JobServices): ImageServices {
  if (!services.image) throw new StepFailure("svc.jobs.step_unavailable", "The image pipeline is not installed in this deployment.");
  return services.image;
}

export async function decodeOrFail(image: ImageServices, bytes: Uint8Array, mediaType: string): Promise<RgbaImage> {
  const decoded = await image.codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") throw new StepFailure("svc.jobs.decode_failed", decoded.message);
  return decoded.image;
}
