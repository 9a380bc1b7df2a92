/**
 * Our own invisible image watermark (`svc-wm-tiledss-1`): a keyed, tile-periodic spread-spectrum pattern in
 * luma carrying a 64-bit payload under BCH(127,78) + CRC-14, computed by the AssemblyScript kernel
 * wasm/watermark (see kernel.ts for the wrapper, wasm/watermark/index.ts for the algorithm).
 */
export {
  WATERMARK_ALGORITHM,
  WATERMARK_STRENGTH_PSNR_DB,
  WasmWatermarker,
  type WatermarkDetectDiagnostics,
  watermarkFalsePositiveBound,
} from "./kernel";
