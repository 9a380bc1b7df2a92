import flac from "../../../../wasm/build/flac.wasm";
import lame from "../../../../wasm/build/lame.wasm";
import mpg123 from "../../../../wasm/build/mpg123.wasm";
import { WasmAudioEncoders } from "./encoders";
import { WasmAudioDecoder } from "./index";

/** The audio decoder of this isolate, with the decoders' wasm imported as modules (workerd only; import lazily). */
export const audioDecoder = new WasmAudioDecoder({ mpg123, flac });

/** The audio encoders of this isolate, LAME's wasm imported as a module (workerd only; import lazily). */
export const audioEncoders = new WasmAudioEncoders(lame);
