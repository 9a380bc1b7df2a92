import audiowmModule from "../../wasm/build/audiowm.wasm";
import chromaprintModule from "../../wasm/build/chromaprint.wasm";
import { audioDecoder, audioEncoders } from "./codecs/audio/workerd";
import { Chromaprinter } from "./fingerprint/audio";
import type { AudioServices } from "./types";
import { WasmAudioWatermarker } from "./watermark/audio";

/** The audio pipeline of this isolate, with our Chromaprint and watermark kernels and the decoders imported as modules (workerd only; import lazily). */
export function workerdAudioServices(): AudioServices {
  return {
    decoder: audioDecoder,
    encoders: audioEncoders,
    chromaprint: () => new Chromaprinter(chromaprintModule),
    watermarker: new WasmAudioWatermarker(audiowmModule),
  };
}
