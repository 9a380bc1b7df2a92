import type { NormalizedInspectionFacts } from "../types";

/** The measurable part of the facts: everything but the accepted media type, modality and byte length. */
export type MeasuredFacts = Omit<NormalizedInspectionFacts, "media_type" | "modality" | "byte_length">;

/**
 * What one container parser recognised. `media_type` is the most specific reviewed format the bytes are
 * (null when the container is known but is no reviewed format by itself, e.g. HDF5 or an unknown RIFF form);
 * `also` lists the other declarations these bytes satisfy (family types such as `video/x-bmff-based`,
 * equivalents such as `application/xml` for SVG).
 */
export interface Detection {
  media_type: string | null;
  container: string;
  also: string[];
  facts: MeasuredFacts;
  /** Why the bytes fall outside the `video/mp4` contract (SPEC "Formats"); empty when they satisfy it. */
  contract_violations?: string[];
  /** For `media_type: null`, a short description used in messages. */
  label?: string;
}

export function blankFacts(container: string): MeasuredFacts {
  return {
    container,
    width: null,
    height: null,
    duration_seconds: null,
    frames_per_second: null,
    video_codec: null,
    audio_codec: null,
    bit_depth: null,
    chroma_subsampling: null,
    sample_rate: null,
    channels: null,
    has_c2pa_manifest: false,
  };
}

export function detection(
  media_type: string | null,
  container: string,
  facts: Partial<MeasuredFacts>,
  also: string[] = [],
  extra: Partial<Pick<Detection, "contract_violations" | "label">> = {},
): Detection {
  return { media_type, container, also, facts: { ...blankFacts(container), ...facts, container }, ...extra };
}

/** Positive, finite, rounded to milliseconds; otherwise null (a zero or missing duration is unknown). */
export function seconds(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) / 1000 : null;
}

export function rate(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) / 1000 : null;
}

export function positiveInt(value: number): number | null {
  return Number.isInteger(value) && value > 0 ? value : null;
}
