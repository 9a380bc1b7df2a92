// The decoder's interfaces live with the other media interfaces (media/types.ts); re-exported for this folder.
export type { AudioDecodeOptions, AudioDecodeResult, AudioDecoder, AudioSink } from "../../types";

/**
 * The compiled wasm modules of the npm decoders (extracted by scripts/build-audio-decoders.mjs into
 * wasm/build/<name>.wasm). workerd cannot compile wasm from bytes, so they are imported as modules there
 * (codecs/audio/workerd.ts) and compiled from the files in Node (codecs/audio/node.ts).
 */
export interface AudioDecoderModules {
  /** mpg123-decoder's libmpg123 (MPEG-1/2 layers I–III). */
  mpg123: WebAssembly.Module;
  /** @wasm-audio-decoders/flac's libFLAC. */
  flac: WebAssembly.Module;
}
