import { readFile } from "node:fs/promises";
import { WasmAudioEncoders } from "./encoders";
import { WasmAudioDecoder } from "./index";

/** Node's WebAssembly compiles bytes (the Worker types leave `compile` out, as workerd forbids it). */
const compileBytes = (WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> }).compile;

/**
 * The audio decoder for Node (tests, benchmarks, scripts): compiles wasm/build/{mpg123,flac}.wasm (built by
 * `npm run build:wasm`). Never imported by Worker code, which imports the modules (workerd.ts).
 */
export async function nodeAudioDecoder(): Promise<WasmAudioDecoder> {
  const compile = async (name: string) => compileBytes(await readFile(new URL(`../../../../wasm/build/${name}.wasm`, import.meta.url)));
  return new WasmAudioDecoder({ mpg123: await compile("mpg123"), flac: await compile("flac") });
}

/** The audio encoders for Node: LAME compiled from wasm/build/lame.wasm (copied by `npm run build:wasm`). */
export async function nodeAudioEncoders(): Promise<WasmAudioEncoders> {
  return new WasmAudioEncoders(await compileBytes(await readFile(new URL("../../../../wasm/build/lame.wasm", import.meta.url))));
}
