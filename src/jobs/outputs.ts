import type { ManifestCheck, WatermarkStrength } from "../media/types";

/*
 * What each step records in job_steps.output (JSON): a redelivered job resumes from these, so their shapes are
 * part of the stored data, not just of this code.
 */

/** An object a step wrote to R2; `etag` pins the exact bytes for the steps that read it back. */
export interface StoredBlob {
  key: string;
  etag: string;
  sha256: string;
  byte_length: number;
}

/** The watermark step's output: the mark read back from the encoded bytes before this was recorded. */
export interface WatermarkOutput {
  output: StoredBlob;
  algorithm: string;
  strength: WatermarkStrength;
  /** The 64-bit payload as 16 hex digits: the id the soft-binding index maps back to this publication. */
  payload: string;
  /** PSNR of the marked luma (images); SNR of the marked samples (audio). */
  psnr_db: number;
  /** The image's size (0 for audio). */
  width: number;
  height: number;
}

/** The fingerprint step's output, one entry per admitted algorithm, in admission order. */
export interface FingerprintOutput {
  fingerprints: { algorithm: string; value: string; bits: string; quality: number | null }[];
  /**
   * PDQ of fixed windows of the published image (src/media/fingerprint/regions.ts), `bits` as hex: index-only (the
   * pdq_regions table), never in the manifest or the receipt. Absent when PDQ was not admitted or has too little
   * quality to be indexed, or the image is too large for windows.
   */
  pdq_regions?: { region: number; bits: string; quality: number }[];
  /**
   * Set by an express run (the windows are off the answer's path): the windows are computed and indexed after the
   * publication by steps/pdq-windows.ts, which then replaces this flag with `pdq_regions`. Never set with it.
   */
  pdq_regions_deferred?: true;
}

/** The sign step's output: the manifest store is always written; `output` only on the embedded lane. */
export interface SignOutput {
  /** The signed asset (embedded lane); null for sidecars, whose asset bytes stay the source object. */
  output: StoredBlob | null;
  manifest: StoredBlob;
  active_manifest_label: string;
  /** True when the asset was signed by streaming (large media, steps/sign-streamed.ts): checked by streaming too. */
  streamed?: boolean;
}

/** The soft bindings a publication records (and indexes), from the watermark and fingerprint steps. */
export interface DurableCredentials {
  watermark: WatermarkOutput | null;
  fingerprints: FingerprintOutput | null;
}

/** What one publication makes public; every field was produced (and checked) by an earlier step. */
export interface PublicationPlan {
  /** The bytes to publish; null when the upload itself is published unchanged (sidecar lane). */
  output: StoredBlob | null;
  sidecarManifest: StoredBlob | null;
  /** SHA-256 of the manifest store written (embedded or sidecar): the transparency log's entry. */
  manifestSha256: string | null;
  manifestLabel: string | null;
  /** The reference engine's check of our output; null for an unsigned (watermark-only) publication. */
  check: ManifestCheck | null;
  durable: DurableCredentials;
}
