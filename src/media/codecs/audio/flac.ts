/**
 * FLAC to 16-bit PCM with libFLAC (npm @wasm-audio-decoders/flac). We read the metadata blocks ourselves
 * (STREAMINFO; every other block, e.g. a signed file's APPLICATION block or a picture, is skipped whole) and find
 * the frames ourselves (`FlacFrames`), in time linear in the file's size, then hand libFLAC whole frames. (The
 * package's finder, codec-parser, recomputes a CRC over up to 512 KiB for every candidate next header: a crafted run
 * of header-like bytes made it spend a minute of CPU on 2 MB.) libFLAC's samples come back as float
 * (sample / (2^(bits-1) - 1)); we recover the integer sample exactly (for 8/16 bits; within one 24-bit step for 24)
 * and reduce it as FFmpeg's s32→s16 does (an arithmetic shift), so 16-bit files decode bit-exactly.
 */
import { type FlacChunk, newFlacDecoder } from "./npm-decoders";
import { finish, PcmWriter } from "./pcm";
import type { AudioDecodeOptions, AudioDecodeResult, AudioSink } from "./types";

/** Frames handed over per call: about this many bytes, so each call's output (float, copied) stays small. */
const FEED_BYTES = 32_768;
/** The bit depths the package scales its float output by; it leaves others unscaled (an uninitialised divisor). */
const BIT_DEPTHS = [8, 16, 24, 32];

export interface FlacStreamInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** 0 when unknown. */
  totalSamples: number;
  /** The largest block (samples per channel) of the stream, per STREAMINFO. */
  maxBlockSize: number;
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
      const maxBlockSize = (b[body + 2]! << 8) | b[body + 3]!;
      info = { sampleRate, channels, bitsPerSample, totalSamples, maxBlockSize };
    } else if (!info) {
      return failed("FLAC metadata does not start with STREAMINFO");
    }
    at = body + size;
  }
  if (!info) return failed("FLAC without STREAMINFO");
  if (info.sampleRate === 0) return failed("FLAC STREAMINFO sample rate 0");
  return { ...info, audioOffset: at };
}

export const CRC8 = new Uint8Array(256);
export const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c8 = i;
  let c16 = i << 8;
  for (let k = 0; k < 8; k++) {
    c8 = c8 & 0x80 ? ((c8 << 1) ^ 0x07) & 0xff : (c8 << 1) & 0xff;
    c16 = c16 & 0x8000 ? ((c16 << 1) ^ 0x8005) & 0xffff : (c16 << 1) & 0xffff;
  }
  CRC8[i] = c8;
  CRC16[i] = c16;
}

const RATES = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000];
const DEPTHS = [0, 8, 12, -1, 16, 20, 24, 32];

interface FrameHeader {
  /** Bytes of the header, CRC-8 included. */
  length: number;
  variable: boolean;
  /** Frame number (fixed block size) or first sample number (variable). */
  number: number;
  blockSize: number;
}

/** The frame header at `i` if it is one (CRC-8 right) agreeing with STREAMINFO, else null. */
function frameHeader(b: Uint8Array, i: number, info: FlacStreamInfo): FrameHeader | null {
  if (i + 6 > b.length || b[i] !== 0xff || (b[i + 1]! & 0xfe) !== 0xf8) return null;
  const bsCode = b[i + 2]! >> 4;
  const rateCode = b[i + 2]! & 15;
  const assignment = b[i + 3]! >> 4;
  const depthCode = (b[i + 3]! >> 1) & 7;
  if (bsCode === 0 || rateCode === 15 || assignment > 10 || depthCode === 3 || (b[i + 3]! & 1) !== 0) return null;
  if ((assignment < 8 ? assignment + 1 : 2) !== info.channels) return null;
  if (depthCode !== 0 && DEPTHS[depthCode] !== info.bitsPerSample) return null;
  if (rateCode !== 0 && rateCode < 12 && RATES[rateCode] !== info.sampleRate) return null;
  // The coded number: UTF-8-like, 1 to 7 bytes.
  let at = i + 4;
  const lead = b[at++]!;
  let extra = 0;
  while (extra < 7 && lead & (0x80 >> extra)) extra++;
  if (extra === 1 || lead === 0xff) return null;
  const continuation = extra === 0 ? 0 : extra - 1;
  let number = extra === 0 ? lead : lead & (0x7f >> extra);
  if (at + continuation + 5 > b.length) return null;
  for (let k = 0; k < continuation; k++) {
    const c = b[at++]!;
    if ((c & 0xc0) !== 0x80) return null;
    number = number * 64 + (c & 0x3f);
  }
  let blockSize: number;
  if (bsCode === 1) blockSize = 192;
  else if (bsCode <= 5) blockSize = 576 << (bsCode - 2);
  else if (bsCode === 6) blockSize = b[at++]! + 1;
  else if (bsCode === 7) {
    blockSize = ((b[at]! << 8) | b[at + 1]!) + 1;
    at += 2;
  } else blockSize = 256 << (bsCode - 8);
  if (info.maxBlockSize > 0 && blockSize > info.maxBlockSize) return null;
  let rate = RATES[rateCode] ?? 0;
  if (rateCode === 12) rate = b[at++]! * 1000;
  else if (rateCode === 13) rate = (b[at++]! << 8) | b[at++]!;
  else if (rateCode === 14) rate = ((b[at++]! << 8) | b[at++]!) * 10;
  if (rateCode >= 12 && rate !== info.sampleRate) return null;
  let crc = 0;
  for (let k = i; k < at; k++) crc = CRC8[crc ^ b[k]!]!;
  if (at >= b.length || crc !== b[at]) return null;
  return { length: at + 1 - i, variable: (b[i + 1]! & 1) === 1, number, blockSize };
}

/** The number the frame after `h` carries. */
const following = (h: FrameHeader) => h.number + (h.variable ? h.blockSize : 1);

/**
 * The frames of a FLAC stream, in order, in time linear in its size. A frame is a header agreeing with STREAMINFO
 * whose CRC-16 footer checks (computed incrementally while looking for its end) where the next frame's header
 * starts, or at the end of the file (or of the audio before an ID3v1/APE tag). A frame whose end is not
 * found within its largest possible size (verbatim samples) is dropped and the next header with a later number is
 * looked for. Bytes scanned for frame ends are counted: past twice the file's size plus 4 MiB (only a crafted file
 * gets near it) the stream stops.
 */
export class FlacFrames {
  /** Why the frames stopped before the end of the file, if they did. */
  stopped: string | null = null;
  #at: number;
  #last: FrameHeader | null = null;
  #scanned = 0;
  readonly #budget: number;

  constructor(
    private readonly b: Uint8Array,
    private readonly info: FlacStreamInfo,
  ) {
    this.#at = info.audioOffset;
    this.#budget = 2 * b.length + (4 << 20);
  }

  /** Looking for a frame after a dropped one (not right at the end of the last frame found). */
  #resyncing = false;

  /**
   * A header at `i` that may start the next frame: after a dropped frame, one numbered a little after the last frame
   * found (right after a frame, its end's check is enough: a concatenated stream restarts its numbers there).
   */
  #candidate(i: number): FrameHeader | null {
    const h = frameHeader(this.b, i, this.info);
    if (!h || !this.#last || !this.#resyncing) return h;
    const last = this.#last;
    if (h.variable !== last.variable || h.number < following(last)) return null;
    return h.number - following(last) <= 64 * (h.variable ? Math.max(last.blockSize, 1) : 1) ? h : null;
  }

  /** Whether `i` ends the audio: the end of the file, or a trailing tag. */
  #audioEnds(i: number): boolean {
    const b = this.b;
    if (i === b.length) return true;
    const tag = String.fromCharCode(b[i]!, b[i + 1] ?? 0, b[i + 2] ?? 0);
    return tag === "TAG" || tag === "ID3" || tag === "APE";
  }

  /** The next frame, or null at the end (see `stopped`). */
  next(): Uint8Array | null {
    const { b, info } = this;
    while (this.#at + 6 <= b.length) {
      const p = this.#at;
      const h = this.#candidate(p);
      if (!h) {
        this.#at = p + 1;
        this.#resyncing = true;
        continue;
      }
      // Verbatim samples (one extra bit for a side channel) plus headers: no frame of this header is longer.
      const bound = Math.min(b.length, p + Math.ceil((h.blockSize * info.channels * (info.bitsPerSample + 1)) / 8) + 64 * info.channels);
      let crc = 0;
      let end = -1;
      let q = p;
      for (; q < bound; q++) {
        if (crc === 0 && q >= p + h.length + 2) {
          if (b[q] === 0xff && (b[q + 1]! & 0xfe) === 0xf8) {
            const n = frameHeader(b, q, info);
            // Any number: concatenated streams (and FFmpeg's stream copies) restart their frame numbers.
            if (n && n.variable === h.variable) {
              end = q;
              break;
            }
          } else if (this.#audioEnds(q)) {
            end = q;
            break;
          }
        }
        crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >> 8) ^ b[q]!]!;
      }
      if (end < 0 && q === b.length && crc === 0) end = q;
      this.#scanned += q - p;
      if (this.#scanned > this.#budget) {
        this.stopped = "FLAC stream too damaged to resynchronise";
        return null;
      }
      if (end < 0) {
        // Not a frame (or a damaged one): look for the next header from the byte after this one's start.
        this.#at = p + 1;
        this.#resyncing = true;
        continue;
      }
      this.#last = h;
      this.#resyncing = false;
      this.#at = end;
      return b.subarray(p, end);
    }
    return null;
  }
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
  const take = (out: FlacChunk): boolean => {
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
  const frames = new FlacFrames(bytes, info);
  try {
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    let ended = false;
    const flush = async () => {
      if (batch.length > 0) ended = !take(await decoder.decodeFrames(batch));
      batch = [];
      batchBytes = 0;
    };
    for (let frame = frames.next(); frame && !ended; frame = frames.next()) {
      if (writer.full) {
        writer.truncated = true;
        break;
      }
      batch.push(frame);
      batchBytes += frame.length;
      if (batchBytes >= FEED_BYTES) await flush();
    }
    if (!ended) await flush();
  } finally {
    decoder.free();
  }
  return finish(writer, "FLAC", frames.stopped);
}
