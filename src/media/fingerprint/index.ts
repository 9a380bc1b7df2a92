/**
 * Our own perceptual image fingerprints: ISCC Content-Code Image v0 (ISO 24138, `iscc-image`) and PDQ (`pdq`),
 * computed by the AssemblyScript kernel wasm/fingerprint (see kernel.ts), plus the pure helpers to write, read
 * and compare their values.
 */

export * from "./codes";
export { FingerprintKernel, IsccImageFingerprinter, type IsccNormalizeResult, PdqFingerprinter } from "./kernel";
export { type PixelPlane, pixelPlane, planeFactor } from "./plane";
