/**
 * Audio to 16-bit PCM inside the Worker, streaming (see `AudioDecoder`): WAV by our own parser, FLAC and MP3 by npm
 * wasm decoders (libFLAC, libmpg123) whose modules are injected (`AudioDecoderModules`). AAC (M4A/MP4 audio, ADTS)
 * is `unsupported`: no npm wasm AAC decoder fits the Worker (the one FFmpeg build on npm is 1.2 MB of wasm,
 * decodes whole files in memory and loads its own wasm).
 *
 * Costs (Node 22, 10-minute files, test/node/media/audio-decode.memory.test.ts): MP3 ~390 and FLAC ~290 CPU ms per
 * minute of audio; live memory ~24 MB over the caller's bytes whatever the length, 16 MB of it the decoder's wasm
 * linear memory (fixed by both modules: one instance per decode, left to the GC after it). WAV needs no wasm.
 */
import { decodeFlac } from "./flac";
import { decodeMpeg } from "./mpeg";
import type { AudioDecodeOptions, AudioDecodeResult, AudioDecoder, AudioDecoderModules, AudioSink } from "./types";
import { decodeWav } from "./wav";

export type { AudioDecodeOptions, AudioDecodeResult, AudioDecoder, AudioDecoderModules, AudioSink } from "./types";

type Format = "wav" | "flac" | "mpeg";

/** Media types (and their common aliases) → our decoder. */
const FORMATS: Record<string, Format> = {
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/vnd.wave": "wav",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
  "audio/mpeg": "mpeg",
  "audio/mp3": "mpeg",
  "audio/x-mp3": "mpeg",
  "audio/mpeg3": "mpeg",
  "audio/x-mpeg": "mpeg",
};
const AAC = new Set(["audio/mp4", "audio/m4a", "audio/x-m4a", "audio/aac", "audio/x-aac", "audio/aacp"]);

const essence = (mediaType: string) => mediaType.split(";", 1)[0]!.trim().toLowerCase();

/** The `AudioDecoder` of this isolate's modules (workerd: codecs/audio/workerd.ts; Node: codecs/audio/node.ts). */
export class WasmAudioDecoder implements AudioDecoder {
  readonly mediaTypes = Object.keys(FORMATS);

  constructor(private readonly modules: AudioDecoderModules) {}

  async decode(bytes: Uint8Array, mediaType: string, sink: AudioSink, options?: AudioDecodeOptions): Promise<AudioDecodeResult> {
    const type = essence(mediaType);
    const format = FORMATS[type];
    if (!format) {
      const message = AAC.has(type)
        ? `${type}: AAC is not decoded here (no wasm AAC decoder that runs in the Worker)`
        : `${type}: no audio decoder for this media type`;
      return { status: "unsupported", message };
    }
    const max = options?.maxSeconds;
    if (max !== undefined && !(max >= 0)) return { status: "failed", message: `maxSeconds must be a number >= 0, not ${max}` };
    try {
      if (format === "wav") return decodeWav(bytes, sink, options);
      if (format === "flac") return await decodeFlac(this.modules.flac, bytes, sink, options);
      return await decodeMpeg(this.modules.mpg123, bytes, sink, options);
    } catch (e) {
      // The packages throw on some malformed input (and a sink may throw): a result, never an escaping error.
      return { status: "failed", message: `${format} decoder error: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
}
