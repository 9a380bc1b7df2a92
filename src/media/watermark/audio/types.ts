/** Interleaved 16-bit PCM: `pcm.length` is frames x `channels`. */
export interface AudioPcm {
  pcm: Int16Array;
  sampleRate: number;
  channels: number;
}

export type AudioWatermarkEmbedResult =
  /** `pcm`: the marked samples (same rate, channels and length); `snr_db`: SNR of the output against the input, all channels. */
  | { status: "embedded"; pcm: Int16Array; snr_db: number }
  /** The audio is shorter than `minimumSeconds`. */
  | { status: "too_short"; message: string }
  | { status: "failed"; message: string };

export type AudioWatermarkDetectResult =
  /**
   * `payload`: the 8 payload bytes as embedded; `confidence` in [0, 1]; `offsetSeconds`: where in the input the
   * first whole repetition of the watermark's period begins (its alignment; the payload is read from every repetition).
   */
  | { status: "detected"; payload: Uint8Array; confidence: number; offsetSeconds: number }
  | { status: "not_detected" }
  | { status: "failed"; message: string };

/**
 * An inaudible audio watermark carrying a `payloadBits` payload under a key. Invariants: `detect(embed(x, p, k), k)`
 * returns `p` for all audio at least `minimumSeconds` long that `embed` reports `embedded` (embed checks this itself
 * and fails rather than return audio that does not read back); the mark repeats throughout, so any excerpt of
 * `minimumSeconds` or more carries the whole payload; `detect` on unmarked audio, or with another key, reports
 * `not_detected` except with probability below `falsePositiveBound` (the error-correcting code's bound); `embed`
 * keeps the SNR at or above `minimumSnrDb`; neither method throws.
 */
export interface AudioWatermarker {
  /** Our own algorithm name, as written in capabilities and in the manifest's `c2pa.soft-binding` `alg`. */
  readonly algorithm: string;
  readonly payloadBits: 64;
  readonly minimumSeconds: number;
  readonly minimumSnrDb: number;
  readonly falsePositiveBound: number;
  embed(input: AudioPcm & { payload: Uint8Array; key: Uint8Array }): AudioWatermarkEmbedResult;
  detect(input: AudioPcm & { key: Uint8Array }): AudioWatermarkDetectResult;
}
