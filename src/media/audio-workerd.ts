import chromaprintModule from "../../wasm/build/chromaprint.wasm";
import { audioDecoder } from "./codecs/audio/workerd";
import { Chromaprinter } from "./fingerprint/audio";
import type { AudioServices } from "./types";

/** The audio pipeline of this isolate, with our Chromaprint kernel and the decoders imported as modules (workerd only; import lazily). */
export function workerdAudioServices(): AudioServices {
  return { decoder: audioDecoder, chromaprint: () => new Chromaprinter(chromaprintModule) };
}
