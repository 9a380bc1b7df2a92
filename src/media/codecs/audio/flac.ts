/**
 * FLAC to 16-bit PCM with libFLAC (npm @wasm-audio-decoders/flac). We read the metadata blocks ourselves
 * (STREAMINFO; every other block, e.g. a signed file's APPLICATION block or a picture, is skipped whole) and feed
 * the package only the frames after them, so nothing inside the metadata can pass for a frame. libFLAC's samples
 * come back as float (sample / (2^(bits-1) - 1)); we recover the integer sample exactly (for 8/16 bits; within one
 * 24-bit step for 24) and reduce it as FFmpeg's s32→s16 does (an arithmetic shift), so 16-bit files decode
 * bit-exactly.
 */
import { newFlacDecoder } from "./npm-decoders";
import { finish, PcmWriter } from "./pcm";
import type { AudioDecodeOptions, AudioDecodeResult, AudioSink } from "./types";

/** Bytes fed per call: a few frames, so each call's output (float, copied) stays small. */
const FEED_BYTES = 32_768;
/**
 * Input after which, with no frame decoded since, we give up. codec-parser looks up to 512 KiB ahead for the frame
 * following a candidate header: input without frames costs it work, so a file of it is cut short, not read through.
 */
const MAX_BYTES_WITHOUT_FRAME = 2 << 20;
/** The bit depths the package scales its float output by; it leaves others unscaled (an uninitialised divisor). */
const BIT_DEPTHS = [8, 16, 24, 32];

export interface FlacStreamInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** 0 when unknown. */
  totalSamples: number;
  /** Where the first frame starts (after the last metadata block). */
  audioOffset: number;
}

const failed = (message: string) => ({ status: "failed" as const, message });

/** STREAMINFO and the end of the metadata, or why the header is not usable. */
export function readFlacHeader(b: Uint8Array): FlacStreamInfo | Exclude<AudioDecodeResult, { status: "decoded" }> {
  let at = 0;
  // An ID3v2 tag in front of "fLaC" is not in the format, but some taggers write one (FFmpeg skips it too).
  while (at + 10 <= b.length && b[at] === 0x49 && b[at + 1] === 0x44 && b[at + 2] === 0x33) {
    const size = ((b[at + 6]! & 0x7f) << 21) | ((b[at + 7]! & 0x7f) << 14) | ((b[at + 8]! & 0x7f) << 7) | (b[at + 9]! & 0x7f);
    at += 10 + size + (b[at + 5]! & 0x10 ? 10 : 0);
  }
  if (at + 4 > b.length || b[at] !== 0x66 || b[at + 1] !== 0x4c || b[at + 2] !== 0x61 || b[at + 3] !== 0x43)
    return failed("not a FLAC stream (no fLaC marker)");
  at += 4;
  let info: Omit<FlacStreamInfo, "audioOffset"> | null = null;
  for (let last = false; !last; ) {
    if (at + 4 > b.length) return failed("FLAC metadata cut short");
    last = (b[at]! & 0x80) !== 0;
    const type = b[at]! & 0x7f;
    const size = (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
    const body = at + 4;
    if (body + size > b.length) return failed(`FLAC metadata block of ${size} bytes runs past the end of the file`);
    if (type === 0) {
      if (size < 34) return failed("FLAC STREAMINFO shorter than 34 bytes");
      const sampleRate = (b[body + 10]! << 12) | (b[body + 11]! << 4) | (b[body + 12]! >> 4);
      const channels = ((b[body + 12]! >> 1) & 7) + 1;
      const bitsPerSample = (((b[body + 12]! & 1) << 4) | (b[body + 13]! >> 4)) + 1;
      const totalSamples =
        (b[body + 13]! & 0x0f) * 2 ** 32 + ((b[body + 14]! << 24) >>> 0) + ((b[body + 15]! << 16) | (b[body + 16]! << 8) | b[body + 17]!);
      info = { sampleRate, channels, bitsPerSample, totalSamples };
    } else if (!info) {
      return failed("FLAC metadata does not start with STREAMINFO");
    }
    at = body + size;
  }
  if (!info) return failed("FLAC without STREAMINFO");
  if (info.sampleRate === 0) return failed("FLAC STREAMINFO sample rate 0");
  return { ...info, audioOffset: at };
}

/** FLAC to the sink; see the file's comment. */
export async function decodeFlac(
  module: WebAssembly.Module,
  bytes: Uint8Array,
  sink: AudioSink,
  options?: AudioDecodeOptions,
): Promise<AudioDecodeResult> {
  const info = readFlacHeader(bytes);
  if ("status" in info) return info;
  if (!BIT_DEPTHS.includes(info.bitsPerSample))
    return { status: "unsupported", message: `FLAC of ${info.bitsPerSample} bits per sample (the decoder scales 8, 16, 24 or 32)` };
  if (info.audioOffset >= bytes.length) return failed("FLAC without frames");
  const writer = new PcmWriter(sink, options?.maxSeconds);
  const decoder = await newFlacDecoder(module);
  // false when the stream ends early: its frames change format (or contradict STREAMINFO).
  const take = (out: Awaited<ReturnType<typeof decoder.decode>>): boolean => {
    const n = out.samplesDecoded;
    if (n === 0) return true;
    const channels = out.channelData.length;
    const bits = out.bitDepth;
    if (!BIT_DEPTHS.includes(bits) || out.sampleRate !== info.sampleRate || channels !== info.channels) return false;
    if (!writer.started) writer.start(info.sampleRate, channels);
    const scale = 2 ** (bits - 1) - 1;
    const planes = out.channelData;
    writer.push(n, (o, at, from, count) => {
      for (let c = 0; c < channels; c++) {
        const plane = planes[c]!;
        let k = at * channels + c;
        const end = from + count;
        if (bits === 16) for (let f = from; f < end; f++, k += channels) o[k] = Math.round(plane[f]! * scale);
        else if (bits === 8) for (let f = from; f < end; f++, k += channels) o[k] = Math.round(plane[f]! * scale) * 256;
        // 24/32 bits: FFmpeg's s32 → s16 is an arithmetic shift (floor), not a rounding.
        else for (let f = from; f < end; f++, k += channels) o[k] = Math.floor(Math.round(plane[f]! * scale) / 2 ** (bits - 16));
      }
    });
    return true;
  };
  try {
    let ended = false;
    let sinceFrame = 0;
    for (let offset = info.audioOffset; offset < bytes.length && !ended; offset += FEED_BYTES) {
      if (writer.full) {
        writer.truncated = true;
        break;
      }
      const before = writer.frames;
      ended = !take(await decoder.decode(bytes.subarray(offset, offset + FEED_BYTES)));
      sinceFrame = writer.frames > before ? 0 : sinceFrame + FEED_BYTES;
      // Input without frames (garbage, or a hostile run of near-headers) is not read through: see the constant.
      if (sinceFrame >= MAX_BYTES_WITHOUT_FRAME) ended = true;
    }
    // The last frame (whole only at the end of the input); past the limit, its frames mark the decode truncated.
    if (!ended) take(await decoder.finish());
  } finally {
    decoder.free();
  }
  return finish(writer, "FLAC");
}
