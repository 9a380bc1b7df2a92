// wrangler and the vitest plugin load `.wasm` imports as compiled WebAssembly.Module objects.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

// FFmpeg's emscripten glue, copied from @ffmpeg/core into wasm/build by scripts/build-video-decoder.mjs; typed by
// src/media/codecs/video/ffmpeg-core.ts where it is used.
declare module "*/ffmpeg-core.mjs" {
  const createFfmpegCore: unknown;
  export default createFfmpegCore;
}
