/**
 * The npm decoders, with compiled modules injected. Both packages compile their embedded wasm string unless given a
 * module, which workerd forbids: the module is handed over through the packages' own hook (the decoder class's
 * static `module`, which their Web Worker variants use), and each decoder checks that it took it.
 */
// First, before the packages (a side-effect import: never reordered): see worker-placeholder.ts.
import "./worker-placeholder";
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { MPEGDecoder } from "mpg123-decoder";
import { UnavailableWorker } from "./worker-placeholder";

// The packages are loaded (this body runs after every import): take the placeholder away again.
if ((globalThis as { Worker?: unknown }).Worker === UnavailableWorker) delete (globalThis as { Worker?: unknown }).Worker;

export interface DecodedChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: { message: string }[];
}

interface WithModule {
  _module?: unknown;
}

/** A new libmpg123 decoder (gapless: the LAME/Xing tag's encoder delay and padding trimmed, as FFmpeg does). */
export async function newMpegDecoder(module: WebAssembly.Module): Promise<MPEGDecoder> {
  (MPEGDecoder as unknown as { module?: WebAssembly.Module }).module = module;
  const decoder = new MPEGDecoder();
  if ((decoder as unknown as WithModule)._module !== module)
    throw new Error("mpg123-decoder did not take the injected module (glue changed?)");
  await decoder.ready;
  return decoder;
}

export type FlacChunk = DecodedChunk & { bitDepth: number };

/** libFLAC fed whole frames (found by flac.ts: the package's own frame finder, codec-parser, is not used). */
export interface FlacFrameDecoder {
  decodeFrames(frames: Uint8Array[]): Promise<FlacChunk>;
  free(): void;
}

interface FlacDecoderInternals extends FlacFrameDecoder {
  ready: Promise<void>;
  _decoder?: WithModule;
}

/**
 * FLACDecoder builds its inner decoder (the class that reads the static `module`) in its constructor, through a
 * symbol-keyed method that receives that class; the package exports neither. This subclass's versions of the
 * symbol-keyed methods set `module` on any class handed to them before the package's own method runs.
 */
const injectingFlacClasses = new WeakMap<WebAssembly.Module, new () => FLACDecoder>();

function injectingFlacClass(module: WebAssembly.Module): new () => FLACDecoder {
  let cls = injectingFlacClasses.get(module);
  if (cls) return cls;
  class Injecting extends FLACDecoder {}
  const proto = FLACDecoder.prototype as unknown as Record<symbol, unknown>;
  for (const key of Object.getOwnPropertySymbols(proto)) {
    const method = proto[key];
    if (typeof method !== "function") continue;
    Object.defineProperty(Injecting.prototype, key, {
      value(this: unknown, ...args: unknown[]) {
        for (const a of args) if (typeof a === "function") (a as { module?: unknown }).module = module;
        return method.apply(this, args);
      },
    });
  }
  cls = Injecting;
  injectingFlacClasses.set(module, cls);
  return cls;
}

/** A new libFLAC decoder, fed through the package's public decodeFrames. */
export async function newFlacDecoder(module: WebAssembly.Module): Promise<FlacFrameDecoder> {
  const Cls = injectingFlacClass(module);
  const decoder = new Cls() as unknown as FlacDecoderInternals;
  if (decoder._decoder?._module !== module) throw new Error("@wasm-audio-decoders/flac did not take the injected module (glue changed?)");
  await decoder.ready;
  return decoder;
}
