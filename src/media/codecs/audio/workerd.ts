import flac from "../../../../wasm/build/flac.wasm";
import mpg123 from "../../../../wasm/build/mpg123.wasm";
import { WasmAudioDecoder } from "./index";

/** The audio decoder of this isolate, with the decoders' wasm imported as modules (workerd only; import lazily). */
export const audioDecoder = new WasmAudioDecoder({ mpg123, flac });
