import { readFile } from "node:fs/promises";
import type { CreateFfmpegCore } from "./ffmpeg-core";
import { FfmpegVideoDecoder, type VideoDecodeLimits } from "./index";

/** Node's WebAssembly compiles bytes (the Worker types leave `compile` out, as workerd forbids it). */
const compileBytes = (WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> }).compile;

const BUILD = new URL("../../../../wasm/build/", import.meta.url);
let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * The video decoder for Node (tests, benchmarks): compiles wasm/build/ffmpeg-core.wasm once per process (built by
 * `npm run build:wasm`). Never imported by Worker code, which imports the module (workerd.ts).
 */
export async function nodeVideoDecoder(limits: Partial<VideoDecodeLimits> = {}): Promise<FfmpegVideoDecoder> {
  compiled ??= readFile(new URL("ffmpeg-core.wasm", BUILD)).then((bytes) => compileBytes(bytes));
  const glue = (await import(new URL("ffmpeg-core.mjs", BUILD).href)) as { default: CreateFfmpegCore };
  return new FfmpegVideoDecoder(await compiled, glue.default, limits);
}
