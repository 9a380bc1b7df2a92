/**
 * Watermark and fingerprint algorithms of SPEC "Sign request", per modality, in SPEC's order (first listed is
 * the default). Each names the capability that must be installed for it to work.
 */
export type AlgorithmModality = "image" | "audio" | "video";

export interface AlgorithmDefinition {
  algorithm: string;
  kind: "watermark" | "fingerprint";
  modality: AlgorithmModality;
  is_default: boolean;
  /** Learned models need weights this deployment cannot obtain; they stay unavailable, never emulated. */
  requires_model_weights: boolean;
  /** Always computed for this modality when signing (SPEC: the image ISCC code). */
  locked?: boolean;
}

function wm(algorithm: string, modality: AlgorithmModality, is_default: boolean, weights: boolean): AlgorithmDefinition {
  return { algorithm, kind: "watermark", modality, is_default, requires_model_weights: weights };
}
function fp(algorithm: string, modality: AlgorithmModality, is_default: boolean, weights: boolean, locked = false): AlgorithmDefinition {
  return { algorithm, kind: "fingerprint", modality, is_default, requires_model_weights: weights, locked };
}

export const ALGORITHMS: readonly AlgorithmDefinition[] = [
  wm("audioseal-mm02-4", "audio", true, true),
  wm("audioseal", "audio", false, true),
  wm("pixelseal", "image", true, true),
  wm("trustmark-b", "image", false, true),
  wm("trustmark-c", "image", false, true),
  wm("trustmark-p", "image", false, true),
  wm("trustmark-q", "image", false, true),
  wm("videoseal-image", "image", false, true),
  wm("pixelseal-video", "video", true, true),
  wm("videoseal", "video", false, true),
  fp("chromaprint", "audio", true, false),
  fp("audfprint", "audio", false, false),
  fp("iscc-audio", "audio", false, false),
  fp("iscc-image", "image", true, false, true),
  fp("dinov2", "image", true, true),
  fp("pdq", "image", false, false),
  fp("dinov2-lsh256", "image", false, true),
  fp("tmk-pdqf", "video", true, false),
  fp("vpdq", "video", false, false),
];

export function capabilityOfAlgorithm(a: AlgorithmDefinition): string {
  return `${a.kind}.${a.algorithm}`;
}
