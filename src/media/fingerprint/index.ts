/**
 * Our own perceptual image fingerprints: ISCC Content-Code Image v0 (ISO 24138, `iscc-image`) and PDQ (`pdq`),
 * computed by the AssemblyScript kernel wasm/fingerprint (see kernel.ts), plus the pure helpers to write, read
 * and compare their values, and the PDQ of fixed sub-windows that lets cropped copies be found (regions.ts).
 */

export * from "./codes";
export { FingerprintKernel, IsccImageFingerprinter, type IsccNormalizeResult, type KernelPlane, PdqFingerprinter } from "./kernel";
export { boxReduce, boxReduceInKernel, type PixelPlane, pixelPlane, planeFactor } from "./plane";
export { QUERY_WINDOW_MAX_SIDE, QUERY_WINDOW_MIN_SIDE, queryWindowFactor, queryWindowHashes, queryWindowImage } from "./query-plane";
export {
  PDQ_QUERY_WINDOWS,
  PDQ_REGION_MAX_PIXELS,
  PDQ_REGIONS,
  type PdqRegion,
  type PdqRegionHash,
  type PdqRegionsResult,
  pdqQueryWindowBits,
  pdqQueryWindowHashes,
  pdqRegionHashes,
  regionWindow,
} from "./regions";
