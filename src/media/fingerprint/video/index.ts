/**
 * Our own video fingerprints over decoded frames: vPDQ (per-frame PDQ with upstream's matcher: the excerpt
 * matcher) and TMK+PDQF (one fixed-size feature per video: the whole-video matcher), both exact against
 * ThreatExchange's vectors (see test/node/media/vpdq-*.test.ts, tmk-*.test.ts).
 */

export {
  checkFrame,
  FfmpegCfrResampler,
  type FramePdqResult,
  framePdq,
  MAX_FRAME_SIDE,
  type RgbFrame,
  TMK_FRAME_SPEC,
  type VideoFrameSpec,
  VPDQ_FRAME_SPEC,
  vpdqFullResolutionFrameSpec,
} from "./frames";
export {
  decodeTmk,
  encodeTmk,
  isTmkMatch,
  TMK_DECODE_LIMITS,
  TMK_FOURIER_COEFFICIENTS,
  TMK_FPS,
  TMK_MATCH,
  TMK_PDQF_DIMENSION,
  TMK_PERIODS,
  type TmkDecodeResult,
  type TmkFeatures,
  TmkPdqfHasher,
  type TmkResult,
  type TmkScoreResult,
  tmkScores,
} from "./tmk";
export {
  decodeVpdq,
  dedupeVpdq,
  encodeVpdq,
  isVpdqMatch,
  VPDQ_MATCH,
  VPDQ_MAX_HASHES,
  VPDQ_SECONDS_PER_HASH,
  type VpdqDecodeResult,
  type VpdqFrameHash,
  VpdqHasher,
  type VpdqHasherOptions,
  type VpdqMatch,
  type VpdqMatchOptions,
  type VpdqResult,
  vpdqMatch,
} from "./vpdq";
