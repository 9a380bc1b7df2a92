import { readWholeImage } from "../media/codecs/rows";
import { PdqFingerprinter, type PixelPlane, pixelPlane, planeFactor } from "../media/fingerprint";
import type { DecodeScale, ImageServices, RgbaImage } from "../media/types";

/*
 * The pixels of one verification, decoded once. This is the only place a verification decodes.
 *
 * A JPEG our streaming decoder takes is decoded reduced in the DCT domain, as far as the watermark detector keeps
 * at least its canonical grid (each reduced sample is the area average of its block, and the detector area-averages
 * onto that grid, so it reads the same grid; bench/verify-stages.mjs checks the marks), and every signal reads that
 * reduced image (a JPEG too small to halve is read at full size, the image the codec decodes).
 * Everything else (other formats, JPEGs only MozJPEG decodes) is decoded by the codec at full size, with PDQ's
 * box-reduced plane from factor 3, as before.
 */

export interface VerifyPixels {
  /**
   * The decode the watermark detector (it area-resamples it onto its own canonical grid, ~512 x 384) and the ISCC
   * code read: full size, or a JPEG reduced 1/2, 1/4 or 1/8 per side in the DCT domain (`plane.factor` says which),
   * never below the detector's canonical area or minimum edge. Measured (bench/verify-stages.mjs): on real
   * photographs its ISCC code equals the full decode's (what publication indexes); where it differs (a third of
   * synthetic textures) PDQ, looked up when the exact code finds nothing, stays within the lookup's distance.
   */
  full: RgbaImage;
  /** The image PDQ reads: `full` itself, or (full-size decodes from factor 3) its box-reduced plane. */
  plane: PixelPlane;
  /**
   * Set when the kernel could not grow to reduce the plane and PDQ reads the full decode instead: the signals are
   * valid for this request, but not the pipeline's canonical ones (a publication's memo is never made of them).
   */
  fallback?: string;
}

/**
 * The smallest box reduction worth making on a full-size decode: reducing by 2 costs about as much CPU as PDQ saves
 * on the quarter-size plane (bench/verify-stages.mjs, 1 MP), so below 3 PDQ reads the full image.
 */
const PLANE_MINIMUM_FACTOR = 3;

export type VerifyPixelsResult = { status: "decoded"; pixels: VerifyPixels } | { status: "failed" | "too_large"; message: string };

/**
 * The DCT-domain reduction for a width x height JPEG: the largest of 1/2, 1/4, 1/8 whose image keeps the canonical
 * area and minimum edge (planeFactor's rule), else 1.
 */
export function verifyDecodeScale(width: number, height: number): DecodeScale {
  const k = planeFactor(width, height);
  return k >= 8 ? 8 : k >= 4 ? 4 : k >= 2 ? 2 : 1;
}

/**
 * `buffer`: where a JPEG's reduced decode is written (a buffer of exactly the length asked for, e.g. an
 * ImageBufferLease's); by default a fresh one. The caller that passes one must not keep the result past its lease.
 */
export async function verifyPixels(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
  buffer?: (length: number) => Uint8Array,
): Promise<VerifyPixelsResult> {
  const reduced = await reducedJpeg(image, bytes, mediaType, buffer);
  if (reduced) return { status: "decoded", pixels: reduced };
  const decoded = await image.codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") return { status: decoded.status === "too_large" ? "too_large" : "failed", message: decoded.message };
  const full = decoded.image;
  const pdq = image.fingerprinters.get("pdq");
  // The plane is reduced in the fingerprint kernel; without it (a deployment without PDQ) the image is its own plane.
  const itself: PixelPlane = { image: full, factor: 1, opaque: false, sourceWidth: full.width, sourceHeight: full.height };
  if (pdq instanceof PdqFingerprinter && planeFactor(full.width, full.height) >= PLANE_MINIMUM_FACTOR) {
    try {
      return { status: "decoded", pixels: { full, plane: pixelPlane(pdq.kernel, full) } };
    } catch (error) {
      // the kernel could not grow: the fingerprints read the full image, as they did before (said, never memoized)
      return { status: "decoded", pixels: { full, plane: itself, fallback: `PDQ's plane not reduced: ${String(error)}` } };
    }
  }
  return { status: "decoded", pixels: { full, plane: itself } };
}

/**
 * The JPEG decoded by our streaming decoder, reduced in the DCT domain where it is large enough (at 1/1 it is the
 * codec's own full decode, without a second instance), or null where the codec's `decode` applies: not a JPEG, a
 * coding process (or damage) only MozJPEG takes, or too large.
 */
async function reducedJpeg(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
  buffer?: (length: number) => Uint8Array,
): Promise<VerifyPixels | null> {
  if (mediaType !== "image/jpeg" || !image.codec.rowSource) return null;
  const opened = await image.codec.rowSource(bytes, mediaType);
  if (opened.status !== "ready") return null;
  const { source } = opened;
  const scale = verifyDecodeScale(source.width, source.height);
  const read = readWholeImage(source, scale, buffer);
  if (read.status !== "read") return null; // corrupt scan data: the codec's decode falls back to MozJPEG, which tolerates more
  const reduced = read.image;
  // A JPEG has no alpha: every sample is opaque, and PDQ reads the (reduced) image itself.
  const plane: PixelPlane = { image: reduced, factor: scale, opaque: true, sourceWidth: source.width, sourceHeight: source.height };
  return { full: reduced, plane };
}

/**
 * The largest decode buffer kept for reuse: a JPEG's reduced decode keeps at most about 4 canonical areas (~3.1 MB,
 * verifyDecodeScale), so every reduced verification fits; a full-size decode of another format never uses it.
 */
const POOLED_IMAGE_BYTES = 4 * 1024 * 1024;

/**
 * The isolate's idle buffers (at most IDLE_BUFFERS: a measurement leases one, for its decode; two let a second
 * measurement interleaved on the isolate reuse one too); a lease takes one out, so no two requests ever share one.
 */
const idleImageBuffers: ArrayBuffer[] = [];
const IDLE_BUFFERS = 2;

/**
 * A reusable RGBA buffer for one image of a verification (#19): a fresh 2.8 MB buffer per request cost ≈ 1 ms of
 * page faults and zeroing plus garbage collection. `take` hands out the smallest of the isolate's idle buffers that is
 * large enough (else a fresh one); `release` returns it for the next request. While leased nobody else holds it, and
 * its writer fills every byte of the length it asks for before anything reads it (readWholeImage fails otherwise;
 * boxReduce copies its whole plane), so nothing of one request's image can reach another's. After `release` the
 * caller must hold no view of it.
 */
export class ImageBufferLease {
  #buffer: ArrayBuffer | null = null;

  readonly take = (length: number): Uint8Array => {
    if (length > POOLED_IMAGE_BYTES) return new Uint8Array(length);
    let buffer = this.#buffer;
    if (!buffer || buffer.byteLength < length) {
      if (buffer) keepIdle(buffer);
      let best = -1;
      for (let i = 0; i < idleImageBuffers.length; i++) {
        const b = idleImageBuffers[i]!;
        if (b.byteLength >= length && (best < 0 || b.byteLength < idleImageBuffers[best]!.byteLength)) best = i;
      }
      buffer = best >= 0 ? idleImageBuffers.splice(best, 1)[0]! : new ArrayBuffer(length);
      this.#buffer = buffer;
    }
    return new Uint8Array(buffer, 0, length);
  };

  release(): void {
    const buffer = this.#buffer;
    this.#buffer = null;
    if (buffer) keepIdle(buffer);
  }
}

/** Keeps `buffer` idle, dropping the smallest idle one past IDLE_BUFFERS. */
function keepIdle(buffer: ArrayBuffer): void {
  idleImageBuffers.push(buffer);
  if (idleImageBuffers.length > IDLE_BUFFERS) {
    let smallest = 0;
    for (let i = 1; i < idleImageBuffers.length; i++)
      if (idleImageBuffers[i]!.byteLength < idleImageBuffers[smallest]!.byteLength) smallest = i;
    idleImageBuffers.splice(smallest, 1);
  }
}
