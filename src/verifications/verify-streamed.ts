import { ENGINE_READ_MAXIMUM_BYTES, STORED_VERIFY_MAXIMUM_BYTES, STREAMED_VERIFY_MAXIMUM_BYTES } from "../catalog/limits";
import type { Bindings } from "../env";
import { type StoredStream, type StreamScan, scanStored, streamedContainer } from "../media/c2pa/stream-verify";
import { ApiError } from "../platform/errors";
import { type VerificationOutcome, type VerifyServices, verifySubject } from "./verify-service";

/*
 * Verification of a stored object (by asset id or object id), whole or by streaming. An MP4/MOV/M4A, WAV or FLAC above the
 * engine's read limit (ENGINE_READ_MAXIMUM_BYTES: what the engine cannot read whole) is read as a stream
 * (media/c2pa/stream-verify.ts): its manifest store is kept, its hard binding hashed chunk by chunk, the engine
 * validates the store alone, and the durable signals read what they need by range or stream (verify-audio.ts,
 * verify-video.ts). Nothing holds the object whole, so such objects are verified up to the streamed signing limit.
 * Anything at most that limit is read whole, as the engine judges it (remote manifests, every binding form). A large
 * file whose structure the scanner refuses is read whole within the whole-read limit (STORED_VERIFY_MAXIMUM_BYTES:
 * then with no store the engine could read); a large file whose binding is not the streaming signer's form is
 * refused (413: only the engine reading it whole could judge it).
 */

/** A stored object scanned by streaming, handed to verifySubject in place of its bytes. */
export interface StreamedSubject {
  source: StoredStream;
  scan: Extract<StreamScan, { status: "scanned" }>;
  byteLength: number;
}

/** The largest stored object of `mediaType` verified: streamed types to their streamed limit (published in limits.verify). */
export function storedVerifyMaximumBytes(mediaType: string): number {
  return Math.max(STORED_VERIFY_MAXIMUM_BYTES, STREAMED_VERIFY_MAXIMUM_BYTES[mediaType] ?? 0);
}

/** The refusal of an object too large to verify (413; the limits are published in capabilities). */
export function storedTooLarge(object: { byteLength: number; mediaType: string }) {
  const streamed = streamedContainer(object.mediaType) !== null;
  return new ApiError(
    "svc.request.too_large",
    streamed && object.byteLength <= storedVerifyMaximumBytes(object.mediaType)
      ? `This ${object.mediaType} object is ${object.byteLength} bytes and could not be verified by streaming (its structure or its manifest's hard binding is not one the stream check reads); read whole, verification takes objects up to ${STORED_VERIFY_MAXIMUM_BYTES} bytes and the C2PA engine files up to ${ENGINE_READ_MAXIMUM_BYTES} bytes.`
      : `This object is ${object.byteLength} bytes; verification reads ${object.mediaType} objects up to ${storedVerifyMaximumBytes(object.mediaType)} bytes (limits.verify).`,
  );
}

export interface StoredObject {
  r2Key: string;
  etag: string;
  mediaType: string;
  byteLength: number;
}

export type StoredVerification =
  | { status: "verified"; outcome: VerificationOutcome; byteLength: number; manifestStore: Uint8Array | undefined }
  | { status: "unavailable" };

/**
 * Verifies a stored object (and its published sidecar store, when one is given). Invariants: an object above its
 * limit (storedVerifyMaximumBytes) is refused with 413 before any byte is read; a streamed one is never held whole;
 * `unavailable` when the bytes are gone or changed (etag); throws only verifySubject's 413 or storage errors.
 */
export async function verifyStoredObject(
  env: Bindings,
  services: VerifyServices,
  object: StoredObject,
  manifestStore?: Uint8Array,
): Promise<StoredVerification> {
  if (object.byteLength > storedVerifyMaximumBytes(object.mediaType)) throw storedTooLarge(object);
  const source: StoredStream = { bucket: env.OBJECTS, key: object.r2Key, etag: object.etag, mediaType: object.mediaType };
  if (!manifestStore && streamedContainer(object.mediaType) && object.byteLength > ENGINE_READ_MAXIMUM_BYTES) {
    const scan = await scanStored(source, { stopEarly: true });
    if (scan.status === "unavailable") return scan;
    // Its store, read before the media, has a binding only the engine reading the whole file could judge.
    if (scan.status === "binding_unsupported") throw storedTooLarge(object);
    if (scan.status === "scanned") {
      // Judged by the stream, or refused there (413) when its binding is not the form the stream reads: read whole,
      // the engine would refuse a store in a file this large all the same.
      const outcome = await verifySubject(env, services, {
        bytes: new Uint8Array(0),
        mediaType: object.mediaType,
        streamed: { source, scan, byteLength: scan.byteLength },
      });
      return { status: "verified", outcome, byteLength: scan.byteLength, manifestStore: undefined };
    }
  }
  // Read whole: within the whole-read limit only (a streamed type's larger limit holds for the stream alone).
  if (object.byteLength > STORED_VERIFY_MAXIMUM_BYTES) throw storedTooLarge(object);
  const stored = await env.OBJECTS.get(object.r2Key, { onlyIf: { etagMatches: object.etag } });
  if (!stored || !("body" in stored)) return { status: "unavailable" };
  const bytes = new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
  const outcome = await verifySubject(env, services, { bytes, mediaType: object.mediaType, ...(manifestStore ? { manifestStore } : {}) });
  return { status: "verified", outcome, byteLength: bytes.length, manifestStore };
}
