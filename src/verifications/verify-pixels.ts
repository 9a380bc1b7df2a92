import { PdqFingerprinter, type PixelPlane, pixelPlane, planeFactor } from "../media/fingerprint";
import type { ImageServices, RgbaImage } from "../media/types";

/*
 * The pixels of one verification, decoded once. This is the only place a verification decodes, so a decoder that
 * scales in the DCT domain (1/2, 1/4, 1/8) can replace the full decode + box reduction here without touching the
 * signals that read the result.
 */

export interface VerifyPixels {
  /** The decoded image: the watermark detector area-resamples it onto its own canonical grid (~512 x 384). */
  full: RgbaImage;
  /**
   * The reduced plane PDQ reads (at least the canonical area; the image itself when it is no larger). Measured
   * (bench/watermark-robustness.mjs, bench/verify-stages.mjs): the detector read from the plane lost a marginal
   * mark after JPEG q75, and the plane's ISCC code equals the full image's in about two thirds of images, while
   * the code is looked up exactly; so both keep reading `full`, and PDQ (matched within distance 31; the plane
   * moves it by a median of 6 bits) reads the plane.
   */
  plane: PixelPlane;
}

/**
 * The smallest reduction worth making: reducing by 2 costs about as much CPU as PDQ saves on the quarter-size plane
 * (bench/verify-stages.mjs, 1 MP), so below 3 PDQ reads the full image and its value stays exactly as before.
 */
const PLANE_MINIMUM_FACTOR = 3;

export type VerifyPixelsResult = { status: "decoded"; pixels: VerifyPixels } | { status: "failed"; message: string };

export async function verifyPixels(image: ImageServices, bytes: Uint8Array, mediaType: string): Promise<VerifyPixelsResult> {
  const decoded = await image.codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") return { status: "failed", message: decoded.message };
  const full = decoded.image;
  const pdq = image.fingerprinters.get("pdq");
  // The plane is reduced in the fingerprint kernel; without it (a deployment without PDQ) the image is its own plane.
  const itself: PixelPlane = { image: full, factor: 1, opaque: false, sourceWidth: full.width, sourceHeight: full.height };
  let plane = itself;
  if (pdq instanceof PdqFingerprinter && planeFactor(full.width, full.height) >= PLANE_MINIMUM_FACTOR) {
    try {
      plane = pixelPlane(pdq.kernel, full);
    } catch {
      plane = itself; // the kernel could not grow: the fingerprints read the full image, as they did before
    }
  }
  return { status: "decoded", pixels: { full, plane } };
}
