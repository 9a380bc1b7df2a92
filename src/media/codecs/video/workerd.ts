import createFfmpegCore from "../../../../wasm/build/ffmpeg-core.mjs";
import ffmpegWasm from "../../../../wasm/build/ffmpeg-core.wasm";
import type { CreateFfmpegCore } from "./ffmpeg-core";
import { FfmpegVideoDecoder } from "./index";

/**
 * The video decoder of this isolate, FFmpeg's wasm imported as a module (workerd cannot compile bytes). For the media
 * Worker only: importing this puts 32 MB of wasm into the bundle (10 MB gzipped), so no API Worker code may import it.
 */
export const videoDecoder = new FfmpegVideoDecoder(ffmpegWasm, createFfmpegCore as CreateFfmpegCore);
