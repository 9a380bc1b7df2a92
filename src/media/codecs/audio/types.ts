/** Where decoded audio goes a chunk at a time: interleaved signed 16-bit PCM (what chromaprint takes). */
export interface AudioSink {
  /** Called once, before any `write`. */
  start(sampleRate: number, channels: number): void;
  /** Whole frames (a multiple of `channels` samples), at most one second of them; the array is the sink's to keep. */
  write(interleaved: Int16Array): void;
}

export type AudioDecodeResult =
  /** `frames` went to the sink; `truncated` when `maxSeconds` stopped the decode before the end of the audio. */
  | { status: "decoded"; sampleRate: number; channels: number; frames: number; truncated: boolean }
  /** A media type (or coding, e.g. AAC in M4A) no decoder here handles. */
  | { status: "unsupported"; message: string }
  /** Corrupt or truncated beyond use (no audio frame could be decoded). The sink may have been started. */
  | { status: "failed"; message: string };

export interface AudioDecodeOptions {
  /** Stop after this many seconds of audio (the result says `truncated`). */
  maxSeconds?: number;
}

/**
 * Decodes a whole audio file to 16-bit PCM, streaming: the PCM goes to the sink in chunks of at most one second and
 * nothing holds the whole of it, so memory stays bounded whatever the file's length (the file's bytes are the
 * caller's). Never throws for bad input: every file gets a result.
 */
export interface AudioDecoder {
  readonly mediaTypes: readonly string[];
  decode(bytes: Uint8Array, mediaType: string, sink: AudioSink, options?: AudioDecodeOptions): Promise<AudioDecodeResult>;
}

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
