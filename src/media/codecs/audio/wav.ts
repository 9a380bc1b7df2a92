/**
 * WAV (RIFF/WAVE, and RF64/BW64 for files over 4 GB) to 16-bit PCM, our own parser: integer PCM of 8/16/24/32 bits,
 * IEEE float of 32/64 bits, WAVE_FORMAT_EXTENSIBLE, 1 to 8 channels. Chunks other than fmt/data (a signed file's
 * C2PA chunk, LIST, bext...) are skipped, with RIFF's padding byte after odd sizes. A data chunk claiming more than
 * the file holds is read to the last whole frame present (as FFmpeg does). Conversions to s16 are swresample's:
 * u8 (x-128)<<8, s24 and s32 by an arithmetic shift (no rounding), float round-to-nearest of x·32768 with clipping.
 */
import { finish, PcmWriter, s16FromFloat } from "./pcm";
import type { AudioDecodeOptions, AudioDecodeResult, AudioSink } from "./types";

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;
/** The KSDATAFORMAT_SUBTYPE GUID after its leading format tag (bytes 2..15): 0000-0010-8000-00AA00389B71. */
const SUBTYPE_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
const MAX_CHANNELS = 8;
const MAX_RATE = 768_000;
/** Frames converted per push: bounds the work between checks of the `maxSeconds` limit. */
const BLOCK_FRAMES = 16_384;

export interface WavFormat {
  tag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bits: number;
}

export type WavLayout =
  | { status: "ok"; format: WavFormat; dataOffset: number; dataBytes: number }
  | Exclude<AudioDecodeResult, { status: "decoded" }>;

const fourcc = (b: Uint8Array, i: number) => String.fromCharCode(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);
const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, i: number) => u32(b, i) + u32(b, i + 4) * 2 ** 32;
const failed = (message: string) => ({ status: "failed" as const, message });
const unsupported = (message: string) => ({ status: "unsupported" as const, message });

function parseFmt(b: Uint8Array, at: number, size: number): WavFormat | Exclude<AudioDecodeResult, { status: "decoded" }> {
  if (size < 16) return failed(`fmt chunk of ${size} bytes (at least 16 expected)`);
  let tag = u16(b, at);
  const channels = u16(b, at + 2);
  const sampleRate = u32(b, at + 4);
  const blockAlign = u16(b, at + 12);
  const bits = u16(b, at + 14);
  if (tag === EXTENSIBLE) {
    if (size < 40) return failed("WAVE_FORMAT_EXTENSIBLE fmt chunk shorter than 40 bytes");
    const guid = at + 24;
    if (SUBTYPE_TAIL.some((v, i) => b[guid + 2 + i] !== v)) return unsupported("WAVE_FORMAT_EXTENSIBLE with a non-standard subformat GUID");
    tag = u16(b, guid);
  }
  if (tag !== PCM && tag !== IEEE_FLOAT) return unsupported(`WAV format tag 0x${tag.toString(16)} (only PCM and IEEE float are decoded)`);
  if (channels === 0) return failed("WAV with 0 channels");
  if (channels > MAX_CHANNELS) return unsupported(`WAV with ${channels} channels (at most ${MAX_CHANNELS})`);
  if (sampleRate === 0 || sampleRate > MAX_RATE) return failed(`WAV sample rate ${sampleRate}`);
  const valid = tag === PCM ? [8, 16, 24, 32] : [32, 64];
  if (!valid.includes(bits)) return unsupported(`WAV ${tag === PCM ? "PCM" : "float"} with ${bits} bits per sample`);
  if (blockAlign !== (channels * bits) / 8) return failed(`WAV block align ${blockAlign} for ${channels} channels of ${bits} bits`);
  return { tag, channels, sampleRate, blockAlign, bits };
}

/** Finds fmt and the start of data, skipping every other chunk (what a writer needs to rewrite the samples in place). */
export function wavLayout(b: Uint8Array): WavLayout {
  if (b.length < 12) return failed("not a WAV file (shorter than a RIFF header)");
  const riff = fourcc(b, 0);
  if ((riff !== "RIFF" && riff !== "RF64" && riff !== "BW64") || fourcc(b, 8) !== "WAVE") return failed("not a RIFF/WAVE file");
  let format: WavFormat | null = null;
  let ds64DataBytes: number | null = null;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = fourcc(b, at);
    const size = u32(b, at + 4);
    const body = at + 8;
    if (id === "data") {
      if (!format) return failed("WAV data chunk before its fmt chunk");
      // RF64/BW64 put the real size in ds64 and 0xFFFFFFFF here (so does a streaming writer, without ds64: to the end).
      const claimed = size === 0xffffffff && ds64DataBytes !== null ? ds64DataBytes : size;
      return { status: "ok", format, dataOffset: body, dataBytes: Math.min(claimed, b.length - body) };
    }
    if (body + size > b.length) return failed(`WAV ${JSON.stringify(id)} chunk of ${size} bytes runs past the end of the file`);
    if (id === "fmt ") {
      const f = parseFmt(b, body, size);
      if ("status" in f) return f;
      format = f;
    } else if (id === "ds64" && size >= 16) {
      ds64DataBytes = u64(b, body + 8);
    }
    at = body + size + (size & 1);
  }
  return failed(format ? "WAV file without a data chunk" : "WAV file without a fmt chunk");
}

/** Interleaved samples of `format` at `base` to s16. */
function filler(b: Uint8Array, base: number, format: WavFormat) {
  const { channels, blockAlign, bits, tag } = format;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return (out: Int16Array, at: number, from: number, n: number) => {
    const samples = n * channels;
    let i = base + from * blockAlign;
    let o = at * channels;
    if (tag === IEEE_FLOAT && bits === 32) {
      for (let s = 0; s < samples; s++, i += 4) out[o++] = s16FromFloat(view.getFloat32(i, true));
    } else if (tag === IEEE_FLOAT) {
      for (let s = 0; s < samples; s++, i += 8) out[o++] = s16FromFloat(view.getFloat64(i, true));
    } else if (bits === 8) {
      for (let s = 0; s < samples; s++) out[o++] = (b[i++]! - 128) << 8;
    } else if (bits === 16) {
      for (let s = 0; s < samples; s++, i += 2) out[o++] = b[i]! | (b[i + 1]! << 8);
    } else {
      // 24 and 32 bits: the top two bytes (an arithmetic shift right by 8 or 16; the Int16Array store wraps).
      const skip = bits / 8 - 2;
      for (let s = 0; s < samples; s++, i += 2) {
        i += skip;
        out[o++] = b[i]! | (b[i + 1]! << 8);
      }
    }
  };
}

/** WAV to the sink (see the file's comment). Synchronous work, bounded memory: one chunk of PCM besides the file. */
export function decodeWav(bytes: Uint8Array, sink: AudioSink, options?: AudioDecodeOptions): AudioDecodeResult {
  const parsed = wavLayout(bytes);
  if (parsed.status !== "ok") return parsed;
  const { format, dataOffset, dataBytes } = parsed;
  const total = Math.floor(dataBytes / format.blockAlign);
  if (total === 0) return failed(dataBytes === 0 ? "WAV data chunk is empty" : "WAV data chunk shorter than one frame");
  const writer = new PcmWriter(sink, options?.maxSeconds);
  writer.start(format.sampleRate, format.channels);
  const fill = filler(bytes, dataOffset, format);
  for (let from = 0; from < total && !writer.full; from += BLOCK_FRAMES) {
    const n = Math.min(BLOCK_FRAMES, total - from);
    writer.push(n, (out, at, f, m) => fill(out, at, from + f, m));
  }
  if (writer.full && writer.frames < total) writer.truncated = true;
  return finish(writer, "WAV");
}
