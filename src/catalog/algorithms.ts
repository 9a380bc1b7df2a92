import { DECODE_MAXIMUM_PIXELS, WATERMARK_MINIMUM_EDGE_PIXELS } from "./limits";

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
  /** Our own algorithm, written here (not one of SPEC's learned models); used when a request names none and
   * the SPEC default is unavailable. */
  ours?: boolean;
  /** The `alg` written in the manifest's `c2pa.soft-binding` assertion. */
  soft_binding_alg?: string;
}

function wm(algorithm: string, modality: AlgorithmModality, is_default: boolean, weights: boolean): AlgorithmDefinition {
  return { algorithm, kind: "watermark", modality, is_default, requires_model_weights: weights };
}
function fp(algorithm: string, modality: AlgorithmModality, is_default: boolean, weights: boolean, locked = false): AlgorithmDefinition {
  return { algorithm, kind: "fingerprint", modality, is_default, requires_model_weights: weights, locked };
}

/** Our own image watermark (src/media/watermark, wasm/watermark): tile-periodic spread spectrum on luma. */
export const SVC_IMAGE_WATERMARK = "svc-wm-tiledss-1";
/** Our own audio watermark (src/media/watermark/audio, wasm/audiowm): keyed dither modulation of STFT log-powers. */
export const SVC_AUDIO_WATERMARK = "svc-awm-stdm-1";

/**
 * What images the image watermark and fingerprints accept, checked at admission from the inspected size so a
 * job never starts on an image it cannot finish. The watermarker's conformance test holds it to these.
 */
export const IMAGE_DECODE_LIMITS = {
  watermark_minimum_edge: WATERMARK_MINIMUM_EDGE_PIXELS,
  maximum_pixels: DECODE_MAXIMUM_PIXELS,
} as const;

export const ALGORITHMS: readonly AlgorithmDefinition[] = [
  wm("audioseal-mm02-4", "audio", true, true),
  wm("audioseal", "audio", false, true),
  { ...wm(SVC_AUDIO_WATERMARK, "audio", false, false), ours: true, soft_binding_alg: `svc.watermark.${SVC_AUDIO_WATERMARK}` },
  wm("pixelseal", "image", true, true),
  wm("trustmark-b", "image", false, true),
  wm("trustmark-c", "image", false, true),
  wm("trustmark-p", "image", false, true),
  wm("trustmark-q", "image", false, true),
  wm("videoseal-image", "image", false, true),
  { ...wm(SVC_IMAGE_WATERMARK, "image", false, false), ours: true, soft_binding_alg: `svc.watermark.${SVC_IMAGE_WATERMARK}` },
  wm("pixelseal-video", "video", true, true),
  wm("videoseal", "video", false, true),
  fp("chromaprint", "audio", true, false),
  fp("audfprint", "audio", false, false),
  fp("iscc-audio", "audio", false, false),
  { ...fp("iscc-image", "image", true, false, true), soft_binding_alg: "io.iscc.v0" },
  fp("dinov2", "image", true, true),
  { ...fp("pdq", "image", false, false), soft_binding_alg: "svc.fingerprint.pdq.1" },
  fp("dinov2-lsh256", "image", false, true),
  fp("tmk-pdqf", "video", true, false),
  fp("vpdq", "video", false, false),
];

export function capabilityOfAlgorithm(a: AlgorithmDefinition): string {
  return `${a.kind}.${a.algorithm}`;
}

/**
 * The algorithm a request gets when it names none: SPEC's default for the modality when this deployment has
 * it, else the first available one (our own, where SPEC's default needs model weights).
 */
export function defaultAlgorithm(
  kind: AlgorithmDefinition["kind"],
  modality: AlgorithmModality,
  available: (a: AlgorithmDefinition) => boolean,
): AlgorithmDefinition | undefined {
  const offered = ALGORITHMS.filter((a) => a.kind === kind && a.modality === modality);
  return offered.find((a) => a.is_default && available(a)) ?? offered.find(available);
}

/**
 * The fingerprints a request gets when it names none: SPEC's defaults that this deployment has, plus the
 * locked one (always computed where fingerprints are). Capabilities report exactly this set as `default`.
 */
export function defaultFingerprints(modality: AlgorithmModality, available: (a: AlgorithmDefinition) => boolean): AlgorithmDefinition[] {
  return ALGORITHMS.filter((a) => a.kind === "fingerprint" && a.modality === modality && (a.is_default || a.locked) && available(a));
}

/** Whether a request naming no algorithm of this kind gets `algorithm` in this deployment. */
export function isEffectiveDefault(algorithm: AlgorithmDefinition, available: (a: AlgorithmDefinition) => boolean): boolean {
  return algorithm.kind === "watermark"
    ? defaultAlgorithm("watermark", algorithm.modality, available) === algorithm
    : defaultFingerprints(algorithm.modality, available).includes(algorithm);
}
