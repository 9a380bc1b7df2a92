/**
 * Our own audio watermark (`svc-awm-stdm-1`): keyed spread-transform dither modulation on STFT log-powers of a
 * canonical 16 kHz signal, 64-bit payload under BCH(127,78) + CRC-14, computed by the AssemblyScript kernel
 * wasm/audiowm (see kernel.ts for the wrapper, wasm/audiowm/index.ts for the algorithm).
 */
export {
  AUDIO_WATERMARK_ALGORITHM,
  AUDIO_WATERMARK_MAXIMUM_SECONDS,
  AUDIO_WATERMARK_MIN_SNR_DB,
  AUDIO_WATERMARK_MINIMUM_SECONDS,
  AUDIO_WATERMARK_TARGET_SNR_DB,
  type AudioWatermarkDiagnostics,
  WasmAudioWatermarker,
} from "./kernel";
export type { AudioPcm, AudioWatermarkDetectResult, AudioWatermarkEmbedResult, AudioWatermarker } from "./types";
