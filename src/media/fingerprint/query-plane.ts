import type { RgbaImage } from "../types";
import type { FingerprintKernel, KernelPlane, PdqFingerprinter } from "./kernel";
import { boxReduce, boxReduceInKernel } from "./plane";
import { type PdqRegionsResult, pdqQueryWindowHashes, pdqQueryWindowHashesOf } from "./regions";

/*
 * The image a verification hashes its PDQ query windows on (regions.ts PDQ_QUERY_WINDOWS, #20): its PDQ input
 * box-reduced by a whole factor so that its longer side is at most QUERY_WINDOW_MAX_SIDE (#19).
 *
 * Each window costs about one whole-image PDQ of the image it is cut from (15 of them: 12 of the 30 ms of pixel work
 * of a 2.8 MP photograph's verification, bench/verify-stages.mjs). The windows exist to meet the published windows
 * of cropped copies, which publication hashes on its own reduced plane, so hashing them on a reduced plane is hashing
 * them as a copy resized to that size. The cap is measured: at 768 every row of bench/photo-recovery.mjs --full-crops
 * (crops of real photographs kept at full size, up to ~1,000 px a side, so reduced by 2 here) equals the uncapped
 * windows'; at 512 (planes reduced to 256-384 px) the 85 % crops fell from 35 to 32 of 38. Each whole factor costs
 * the windows more bits (2.8 MP photograph: 2-8 bits at 2, 8-20 at 3), and a near-threshold match can be lost.
 * The whole-image PDQ and the ISCC code are not affected: they read the images they always read.
 * Transparent images keep their windows on the image itself: PDQ composites onto white per pixel, which an average
 * of unequal alphas would not reproduce.
 */

/** The longest side the query windows' image keeps (bench/photo-recovery.mjs, bench/pixels-pipeline-ab.mjs). */
export const QUERY_WINDOW_MAX_SIDE = 768;

/** The shorter side the reduction keeps (a very wide image is reduced less): windows stay well over PDQ's 64 cells. */
export const QUERY_WINDOW_MIN_SIDE = 128;

/** The whole factor the query windows' image is reduced by (1: the image as it is). */
export function queryWindowFactor(width: number, height: number, maxSide = QUERY_WINDOW_MAX_SIDE, minSide = QUERY_WINDOW_MIN_SIDE): number {
  const byLong = Math.ceil(Math.max(width, height) / maxSide);
  const byShort = Math.floor(Math.min(width, height) / minSide);
  return Math.max(1, Math.min(byLong, byShort));
}

/**
 * The image the query windows of `image` (a verification's PDQ input) are hashed on: `image` itself when it is
 * within the cap (or transparent), else its box reduction by queryWindowFactor (plane.ts boxReduce: each channel
 * the rounded mean of its block, edge blocks averaging the pixels they have). Throws if the kernel cannot grow.
 */
export function queryWindowImage(
  module: WebAssembly.Module | FingerprintKernel,
  image: RgbaImage,
  maxSide = QUERY_WINDOW_MAX_SIDE,
  minSide = QUERY_WINDOW_MIN_SIDE,
): RgbaImage {
  const k = queryWindowFactor(image.width, image.height, maxSide, minSide);
  if (k === 1) return image;
  const reduced = boxReduce(module, image, k);
  return reduced.opaque ? reduced.image : image;
}

/**
 * pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, image, maxSide)), bit for bit, without the reduced image's
 * round trip through JS (#19): it is reduced in PDQ's kernel (or was, by PdqFingerprinter.compute's `plane`, if
 * no other computation began in the kernel since) and its luma made where it lies, instead of copied out (0.7 MB for
 * the 2.8 MP photograph) and streamed back in. `fallback`: the kernel could not grow for the reduction, and the
 * windows read `image` itself.
 */
export function queryWindowHashes(
  pdq: PdqFingerprinter,
  image: RgbaImage,
  maxSide = QUERY_WINDOW_MAX_SIDE,
  plane?: KernelPlane | null,
): { result: PdqRegionsResult; fallback?: string } {
  const k = queryWindowFactor(image.width, image.height, maxSide);
  // (an image whose data does not match its size goes the copying way, which reports it)
  if (k === 1 || image.data?.length !== image.width * image.height * 4) {
    try {
      return { result: pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, image, maxSide)) };
    } catch (error) {
      return { result: pdqQueryWindowHashes(pdq, image), fallback: `the query windows' image was not reduced: ${String(error)}` };
    }
  }
  let reduced: KernelPlane;
  // (a plane another computation has since written over is reduced again)
  if (
    plane &&
    plane.computation === pdq.kernel.computations &&
    plane.width === Math.ceil(image.width / k) &&
    plane.height === Math.ceil(image.height / k)
  )
    reduced = plane;
  else
    try {
      reduced = boxReduceInKernel(pdq.kernel, image, k);
    } catch (error) {
      return { result: pdqQueryWindowHashes(pdq, image), fallback: `the query windows' image was not reduced: ${String(error)}` };
    }
  if (!reduced.opaque) return { result: pdqQueryWindowHashes(pdq, image) };
  const { width, height, at } = reduced;
  return { result: pdqQueryWindowHashesOf(width, height, (windows) => pdq.computeWindowsInKernel(width, height, at, windows)) };
}
