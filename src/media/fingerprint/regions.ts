import type { FingerprintResult, RgbaImage } from "../types";
import type { PdqFingerprinter } from "./kernel";

/*
 * PDQ of fixed sub-windows of a published image, so a copy cropped to one of those windows is still found.
 *
 * PDQ is a global hash: moving the frame by 1 % of a side changes about 30 of its 256 bits, by 2 % about 60
 * (bench/fingerprint-recall.mjs), so a cropped copy's hash is far from the original's. A copy whose frame is one of
 * the windows below (within about half a percent of a side) hashes like that window of the original, so publication
 * indexes each window's hash beside the whole image's, and a verification looks its whole-image hash up in both, and
 * its own windows (PDQ_QUERY_WINDOWS, #20) among the published ones: a copy cropped between 0.8 and 1 of each side
 * from a corner or centred, or to about 80, 85 or 90 % a quarter of the margin from two sides. Crops at other offsets
 * are found only when a window happens to align (the benches' "random offset" rows say how often).
 *
 * Invariant: a region's id names the same window forever (ids are stored in the index, pdq_regions.region); new
 * windows take new ids.
 */

/** One window, as fractions of the image's width and height: [x0, x1) x [y0, y1). */
export interface PdqRegion {
  id: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Square-proportioned windows keeping `keep` of each side, at these offsets (fractions of the margin, x then y). */
function pushWindows(out: PdqRegion[], keep: number, offsets: readonly (readonly [number, number])[]): void {
  const m = 1 - keep;
  for (const [fx, fy] of offsets) out.push({ id: out.length, x0: m * fx, y0: m * fy, x1: m * fx + keep, y1: m * fy + keep });
}

/** The four corners, then the centre. */
const CORNERS_AND_CENTRE = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
  [0.5, 0.5],
] as const;

/** Halfway between the centre and each corner: a quarter of the margin from two sides, three quarters from the others. */
const QUARTERS = [
  [0.25, 0.25],
  [0.75, 0.25],
  [0.25, 0.75],
  [0.75, 0.75],
] as const;

/**
 * The windows of crops people make: a corner or the centre kept at 90 % and 80 % per side, or one border cut (ids
 * 0-17); then (#20, ids 18-29) 90, 85 and 80 % at the quarter offsets (QUARTERS). A copy cropped to k of each side at
 * a quarter offset holds none of the corner-and-centre windows, and its own windows (PDQ_QUERY_WINDOWS, anchored at
 * its corners and centre) miss a quarter window of side s by at least |k - s| / 4 of a side, too far for PDQ beyond
 * a 1-2 % difference of scale; its whole image is the quarter window of side k, so the sides here are 5 % apart.
 * bench/photo-recovery.mjs, crop 85 % + 256 px + q75: 86.8 → 100 %; on its corpus with every quarter offset, 256-px
 * q75 copies cropped to 82.5 / 85 / 87.5 % went from 51 / 76 / 74 % to 97 / 99 / 96 % recovered (#20's measurement).
 */
export const PDQ_REGIONS: readonly PdqRegion[] = (() => {
  const out: PdqRegion[] = [];
  for (const keep of [0.9, 0.8]) pushWindows(out, keep, CORNERS_AND_CENTRE);
  for (const keep of [0.9, 0.8]) {
    const m = 1 - keep;
    // one border cut: left, right, top, bottom
    for (const [x0, y0, x1, y1] of [
      [m, 0, 1, 1],
      [0, 0, keep, 1],
      [0, m, 1, 1],
      [0, 0, 1, keep],
    ] as const)
      out.push({ id: out.length, x0, y0, x1, y1 });
  }
  for (const keep of [0.9, 0.85, 0.8]) pushWindows(out, keep, QUARTERS);
  return out;
})();

/**
 * Region hashes are computed only on images up to this many pixels (PDQ's input: the verification plane, which is
 * at most ~1.8 MP for an opaque image): each window costs about a whole-image PDQ, so a large transparent image
 * (read at full size) would cost seconds. Such images keep their whole-image hash only. The bound also bounds the
 * luma plane the windows share in the kernel (computeWindows: 4 bytes a pixel, 8 MiB at most).
 */
export const PDQ_REGION_MAX_PIXELS = 1 << 21;

/** The pixel window of `region` in a width x height image (edges rounded to whole pixels). */
export function regionWindow(region: PdqRegion, width: number, height: number): { x: number; y: number; w: number; h: number } {
  const x = Math.round(region.x0 * width);
  const y = Math.round(region.y0 * height);
  return { x, y, w: Math.round(region.x1 * width) - x, h: Math.round(region.y1 * height) - y };
}

export interface PdqRegionHash {
  region: number;
  bits: Uint8Array;
  quality: number;
}

export type PdqRegionsResult =
  | { status: "computed"; regions: PdqRegionHash[] }
  /** Not computed for a reason that is not a fault: the image is too large or too small for windows. */
  | { status: "skipped"; message: string }
  | { status: "failed"; message: string };

/**
 * The windows a verification hashes of the image it is given (#20), looked up among the published windows above:
 * a copy cropped to k of each side (k between the windows' 0.8 / 0.9 and 1) holds the published window of side s
 * anchored where the crop is (a corner or the centre) at s / k of its own side, which is none of PDQ_REGIONS.
 * Anchored at the four corners and the centre, at 0.97, 0.94 and 0.91 of each side: a copy cropped to 80-90 % is
 * then one of these within about 1.5 % of scale, which PDQ tolerates (bench/photo-recovery.mjs: ≈ 16 bits from a
 * corner, less from the centre; a 3 % step leaves gaps). A crop at another offset is found only when one of these
 * happens to land on a published window. Ids are positions in this list (never stored).
 */
export const PDQ_QUERY_WINDOWS: readonly PdqRegion[] = (() => {
  const out: PdqRegion[] = [];
  for (const keep of [0.97, 0.94, 0.91]) pushWindows(out, keep, CORNERS_AND_CENTRE);
  return out;
})();

/**
 * The PDQ hash (and quality) of every window of PDQ_REGIONS in `image`, in region order. The caller decides which
 * are worth indexing (quality). Never throws.
 */
export function pdqRegionHashes(pdq: PdqFingerprinter, image: RgbaImage): PdqRegionsResult {
  return windowHashes(pdq, image, PDQ_REGIONS);
}

/**
 * The PDQ hash (and quality) of every window of PDQ_QUERY_WINDOWS in the image a verification reads (its PDQ input),
 * in order: the caller looks up those of quality at the gate among the published windows. Same bounds as
 * pdqRegionHashes (one luma plane for all windows). Never throws.
 */
export function pdqQueryWindowHashes(pdq: PdqFingerprinter, image: RgbaImage): PdqRegionsResult {
  return windowHashes(pdq, image, PDQ_QUERY_WINDOWS);
}

/**
 * The hashes of PDQ_QUERY_WINDOWS in `image` of quality at least `minQuality`, for a lookup: none when the windows are
 * not computed (an image too small or too large for them, or a kernel failure: the whole-image hash is looked up alone).
 */
export function pdqQueryWindowBits(pdq: PdqFingerprinter, image: RgbaImage, minQuality: number): Uint8Array[] {
  const computed = pdqQueryWindowHashes(pdq, image);
  return computed.status === "computed" ? computed.regions.filter((r) => r.quality >= minQuality).map((r) => r.bits) : [];
}

function windowHashes(pdq: PdqFingerprinter, image: RgbaImage, windows: readonly PdqRegion[]): PdqRegionsResult {
  const { width, height } = image ?? { width: 0, height: 0 };
  return windowHashesOf(width, height, windows, (w) => pdq.computeWindows(image, w));
}

/**
 * pdqQueryWindowHashes of a `width` x `height` image whose windows `compute` hashes (PdqFingerprinter's
 * computeWindows, or computeWindowsInKernel for an image already in the kernel): the same bounds and results.
 */
export function pdqQueryWindowHashesOf(
  width: number,
  height: number,
  compute: (windows: { x: number; y: number; w: number; h: number }[]) => FingerprintResult[],
): PdqRegionsResult {
  return windowHashesOf(width, height, PDQ_QUERY_WINDOWS, compute);
}

function windowHashesOf(
  width: number,
  height: number,
  windows: readonly PdqRegion[],
  compute: (windows: { x: number; y: number; w: number; h: number }[]) => FingerprintResult[],
): PdqRegionsResult {
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0)
    return { status: "failed", message: "pdq regions: invalid image" };
  if (width * height > PDQ_REGION_MAX_PIXELS)
    return { status: "skipped", message: `pdq regions: ${width}x${height} is over ${PDQ_REGION_MAX_PIXELS} pixels` };
  // PDQ needs 5 px a side (else a zero hash of quality 0); the smallest window is 0.8 of a side: 32 px and up.
  if (Math.min(width, height) < 40) return { status: "skipped", message: `pdq regions: ${width}x${height} is too small for windows` };
  // one luma plane for all windows (computeWindows): each window's hash is computeWindow's, bit for bit
  const results = compute(windows.map((region) => regionWindow(region, width, height)));
  const regions: PdqRegionHash[] = [];
  for (const [i, r] of results.entries()) {
    if (r.status !== "computed") return { status: "failed", message: r.message };
    regions.push({ region: windows[i]!.id, bits: r.bits, quality: r.quality ?? 0 });
  }
  return { status: "computed", regions };
}
