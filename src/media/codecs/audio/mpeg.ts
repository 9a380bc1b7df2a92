/**
 * MPEG audio (MP3, and layers I/II) to 16-bit PCM with libmpg123 (npm mpg123-decoder). We find the first frame
 * ourselves (after ID3v2 tags, e.g. a signed file's GEOB manifest, and any junk): a frame header confirmed by the
 * next frame's, which gives the channel count (the package always outputs two channels) and rejects files with no
 * MPEG audio before libmpg123 sees them. The stream from that frame on is fed in small pieces; its float output goes
 * to s16 as swresample converts it (s16FromFloat).
 */
import { type DecodedChunk, newMpegDecoder } from "./npm-decoders";
import { finish, PcmWriter, s16FromFloat } from "./pcm";
import type { AudioDecodeOptions, AudioDecodeResult, AudioSink } from "./types";

/** Bytes fed per call: about half a second at 128 kb/s, so each call's output (float, copied) stays small. */
const FEED_BYTES = 8192;
/** How far past the tags we look for the first frame before giving up. */
const SYNC_SEARCH_BYTES = 1 << 20;

// kb/s by version (1, or 2/2.5) and layer (I, II, III); index 0 is free format, 15 invalid.
const BITRATES_V1 = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
];
const BITRATES_V2 = [
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const RATES_V1 = [44100, 48000, 32000];

export interface MpegFrameHeader {
  /** 1, 2 or 2.5 (as 25). */
  version: 1 | 2 | 25;
  layer: 1 | 2 | 3;
  sampleRate: number;
  channels: 1 | 2;
  /** Bytes of the whole frame. */
  length: number;
  /** The frame's bitrate, kb/s. */
  kbps: number;
}

/** The frame header at `i`, if the four bytes there are one (free-format frames are not recognised). */
export function frameHeader(b: Uint8Array, i: number): MpegFrameHeader | null {
  if (i + 4 > b.length || b[i] !== 0xff || (b[i + 1]! & 0xe0) !== 0xe0) return null;
  const v = (b[i + 1]! >> 3) & 3;
  const l = (b[i + 1]! >> 1) & 3;
  const br = b[i + 2]! >> 4;
  const sr = (b[i + 2]! >> 2) & 3;
  if (v === 1 || l === 0 || br === 0 || br === 15 || sr === 3) return null;
  const version = v === 3 ? 1 : v === 2 ? 2 : 25;
  const layer = (4 - l) as 1 | 2 | 3;
  const sampleRate = RATES_V1[sr]! / (version === 1 ? 1 : version === 2 ? 2 : 4);
  const kbps = (version === 1 ? BITRATES_V1 : BITRATES_V2)[layer - 1]![br]!;
  const padding = (b[i + 2]! >> 1) & 1;
  const length =
    layer === 1
      ? (Math.floor((12000 * kbps) / sampleRate) + padding) * 4
      : Math.floor(((layer === 3 && version !== 1 ? 72000 : 144000) * kbps) / sampleRate) + padding;
  const channels = b[i + 3]! >> 6 === 3 ? 1 : 2;
  return { version, layer, sampleRate, channels, length, kbps };
}

/** Bytes of the ID3v2 tags at `i` (0 if none); -1 when a tag claims to run past the end of the file. */
export function id3v2Length(b: Uint8Array, i: number): number {
  let at = i;
  while (at + 10 <= b.length && b[at] === 0x49 && b[at + 1] === 0x44 && b[at + 2] === 0x33) {
    const size = ((b[at + 6]! & 0x7f) << 21) | ((b[at + 7]! & 0x7f) << 14) | ((b[at + 8]! & 0x7f) << 7) | (b[at + 9]! & 0x7f);
    const footer = b[at + 5]! & 0x10 ? 10 : 0;
    at += 10 + size + footer;
    if (at > b.length) return -1;
  }
  return at - i;
}

/**
 * The first MPEG audio frame: a header whose next frame (at its length) has a header of the same version, layer and
 * rate, or that ends the file (or meets an ID3v1 "TAG"). Junk before it is skipped.
 */
export function firstFrame(b: Uint8Array): { offset: number; header: MpegFrameHeader } | { error: string } {
  const tags = id3v2Length(b, 0);
  if (tags < 0) return { error: "ID3v2 tag runs past the end of the file" };
  const end = Math.min(b.length, tags + SYNC_SEARCH_BYTES);
  for (let i = tags; i + 4 <= end; i++) {
    const h = frameHeader(b, i);
    if (!h) continue;
    const next = i + h.length;
    if (next === b.length || (next + 3 <= b.length && b[next] === 0x54 && b[next + 1] === 0x41 && b[next + 2] === 0x47))
      return { offset: i, header: h };
    const n = frameHeader(b, next);
    if (n && n.version === h.version && n.layer === h.layer && n.sampleRate === h.sampleRate) return { offset: i, header: h };
  }
  return { error: `no MPEG audio frame in the first ${end - tags} bytes after the tags` };
}

/**
 * The offset of the first frame, walking frame by frame from `from`, whose channel count is not `channels`; null when
 * there is none (the walk stops at anything that is not a frame: trailing tags, damage, free-format frames).
 */
function channelChange(b: Uint8Array, from: number, channels: number): number | null {
  for (let at = from; at + 4 <= b.length; ) {
    const h = frameHeader(b, at);
    if (!h || h.length <= 0) return null;
    if (h.channels !== channels) return at;
    at += h.length;
  }
  return null;
}

/** MP3 (MPEG-1/2/2.5 audio) to the sink; see the file's comment. */
export async function decodeMpeg(
  module: WebAssembly.Module,
  bytes: Uint8Array,
  sink: AudioSink,
  options?: AudioDecodeOptions,
): Promise<AudioDecodeResult> {
  const first = firstFrame(bytes);
  if ("error" in first) return { status: "failed", message: first.error };
  const channels = first.header.channels;
  const writer = new PcmWriter(sink, options?.maxSeconds);
  // Frames of another channel count later on (mono joined to stereo): the decoder would not say (it gives the same
  // planes either way), so the stream is cut where the frame headers change, and the result says so.
  const change = channelChange(bytes, first.offset, channels);
  const end = change ?? bytes.length;
  if (change !== null) writer.otherStream = true;
  const decoder = await newMpegDecoder(module);
  try {
    for (let offset = first.offset; offset < end; offset += FEED_BYTES) {
      if (writer.full) {
        writer.truncated = true;
        break;
      }
      const out: DecodedChunk = decoder.decode(bytes.subarray(offset, Math.min(end, offset + FEED_BYTES)));
      if (out.samplesDecoded === 0) continue;
      if (!writer.started) writer.start(out.sampleRate, channels);
      // A later stream of another rate (a concatenated file): stop at its start rather than mix rates.
      else if (out.sampleRate !== writer.sampleRate) {
        writer.otherStream = true;
        break;
      }
      const planes = out.channelData.slice(0, channels);
      writer.push(out.samplesDecoded, (o, at, from, n) => {
        for (let c = 0; c < channels; c++) {
          const plane = planes[c]!;
          for (let f = 0, k = at * channels + c; f < n; f++, k += channels) o[k] = s16FromFloat(plane[from + f]!);
        }
      });
    }
  } finally {
    decoder.free();
  }
  return finish(writer, "MPEG");
}
