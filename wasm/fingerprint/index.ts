// Fingerprint kernel: our own ISCC Content-Code Image v0 (iscc.ts) and PDQ (pdq.ts) image fingerprints.
//
// Protocol (driven by src/media/fingerprint/kernel.ts): a computation starts with a *Begin call that lays out the
// work memory and returns the staging address; JS copies chunks of RGBA bytes there and calls the push function
// with each chunk's length; a finish call leaves the result in a static buffer whose address is exported.
// Memory can grow only inside the Begin/Prepare calls, so JS refreshes its views of `memory` after those.

export {
  ISCC_DIGEST,
  ISCC_INFO,
  ISCC_PIXELS,
  isccBegin,
  isccBeginAt,
  isccFinish,
  isccHashPixels,
  isccPrepare,
  isccResample,
  isccResampleFrom,
  isccScan,
  isccWholeBox,
} from "./iscc";
export { PDQ_FLOATS, PDQ_HASH, pdqBegin, pdqFinish, pdqLumaBegin, pdqLumaPush, pdqLumaPushFrom, pdqPush, pdqPushRows, pdqWindow, pdqWorkEnd } from "./pdq";
export { planeBegin, planeBeginAt, planeOpaque, planeOutput, planeRows, planeRowsFrom, planeStagingRows } from "./plane";
