/**
 * Our own audio fingerprints: Chromaprint (algorithm TEST2, bit-exact with libchromaprint; computed by the
 * AssemblyScript kernel wasm/chromaprint, see chromaprinter.ts), its compressed string and SimHash, the ISCC
 * Content-Code Audio v0 derived from it, and the aligner that compares two fingerprints.
 */

export { type Alignment, type AlignOptions, alignFingerprints, CHROMAPRINT_MATCH_MAX_BER } from "./align";
export {
  CHROMAPRINT_DEFAULT_MAX_FRAMES,
  CHROMAPRINT_FRAMES_PER_SECOND,
  CHROMAPRINT_MAX_CHANNELS,
  CHROMAPRINT_MAX_RATE,
  CHROMAPRINT_MIN_RATE,
  Chromaprinter,
  type ChromaprinterState,
  type ChromaprintResult,
} from "./chromaprinter";
export * from "./codes";
