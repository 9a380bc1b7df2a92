import { encodeFlac, type FlacEncodeInput, type FlacEncodeResult } from "./flac-encode";
import { encodeMp3, type Mp3EncodeInput, type Mp3EncodeResult } from "./mp3-encode";

export type { FlacEncodeInput, FlacEncodeResult, FlacMetadataBlock } from "./flac-encode";
export type { Mp3EncodeInput, Mp3EncodeResult } from "./mp3-encode";

/**
 * Audio out, for the watermark step's re-encodes: FLAC by our own encoder (lossless: decoders give back exactly the
 * samples given), MP3 by LAME in wasm (lossy, constant bitrate). Invariant: neither method throws; what cannot be
 * encoded is `failed` with the reason. AAC has no encoder that fits the Worker: M4A is signed without the watermark.
 */
export interface AudioEncoders {
  flac(input: FlacEncodeInput): FlacEncodeResult;
  mp3(input: Mp3EncodeInput): Promise<Mp3EncodeResult>;
}

/** The encoders with LAME's compiled module injected (workerd: imported as a module; Node: compiled from the file). */
export class WasmAudioEncoders implements AudioEncoders {
  constructor(private readonly lame: WebAssembly.Module) {}

  flac(input: FlacEncodeInput): FlacEncodeResult {
    return encodeFlac(input);
  }

  mp3(input: Mp3EncodeInput): Promise<Mp3EncodeResult> {
    return encodeMp3(this.lame, input);
  }
}
