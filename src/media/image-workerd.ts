import fingerprintModule from "../../wasm/build/fingerprint.wasm";
import watermarkModule from "../../wasm/build/watermark.wasm";
import { imageCodec } from "./codecs/workerd";
import { IsccImageFingerprinter, PdqFingerprinter } from "./fingerprint";
import type { Fingerprinter, ImageServices } from "./types";
import { WasmWatermarker } from "./watermark";

/** The image pipeline of this isolate, with our kernels imported as modules (workerd only; import lazily). */
export function workerdImageServices(): ImageServices {
  const iscc = new IsccImageFingerprinter(fingerprintModule);
  const pdq = new PdqFingerprinter(fingerprintModule);
  return {
    codec: imageCodec,
    watermarker: new WasmWatermarker(watermarkModule),
    fingerprinters: new Map<string, Fingerprinter>([
      [iscc.algorithm, iscc],
      [pdq.algorithm, pdq],
    ]),
  };
}
