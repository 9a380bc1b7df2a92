import { FlacFrames } from "../c2pa/flac";
import { corrupt, latin1, startsWith, u8, u16be, u24be, u32be } from "./bytes";
import { type Detection, detection, positiveInt, seconds } from "./detection";

/**
 * Elementary audio streams: ID3v2-prefixed files, MPEG-1/2/2.5 audio layers I–III (MP3), AAC in ADTS or
 * ADIF, and FLAC (which c2pa-rs also prefixes with an ID3v2 tag to carry a manifest).
 */

// ---- ID3v2

export function hasId3(b: Uint8Array, at = 0): boolean {
  return startsWith(b, "ID3", at) && b.length >= at + 10;
}

function syncsafe(b: Uint8Array, o: number): number {
  const v = [u8(b, o), u8(b, o + 1), u8(b, o + 2), u8(b, o + 3)];
  if (v.some((x) => x & 0x80)) corrupt("ID3v2 size is not syncsafe");
  return (v[0]! << 21) | (v[1]! << 14) | (v[2]! << 7) | v[3]!;
}

/**
 * Skips consecutive ID3v2 tags from `at`. Returns where the audio starts and whether a GEOB frame carries a
 * C2PA manifest store (MIME type containing `c2pa`).
 */
export function skipId3(b: Uint8Array, at: number): { end: number; c2pa: boolean } {
  let pos = at;
  let c2pa = false;
  for (let tags = 0; hasId3(b, pos); tags++) {
    if (tags >= 16) corrupt("too many ID3v2 tags");
    const major = u8(b, pos + 3);
    const flags = u8(b, pos + 5);
    const size = syncsafe(b, pos + 6);
    const end = pos + 10 + size + (flags & 0x10 ? 10 : 0);
    if (major < 2 || major > 4) corrupt(`ID3v2.${major} is not a known version`);
    if (end > b.length) corrupt("ID3v2 tag overruns the file");
    if (!(flags & 0x80)) c2pa = c2pa || id3HasC2pa(b, pos, major, flags, pos + 10 + size);
    pos = end;
  }
  return { end: pos, c2pa };
}

function id3HasC2pa(b: Uint8Array, tag: number, major: number, flags: number, end: number): boolean {
  let pos = tag + 10;
  if (flags & 0x40 && major >= 3) {
    const ext = major === 4 ? syncsafe(b, pos) : u32be(b, pos) + 4;
    pos += ext;
  }
  const idLength = major === 2 ? 3 : 4;
  const headerLength = major === 2 ? 6 : 10;
  while (pos + headerLength <= end) {
    if (b[pos] === 0) break; // padding
    const id = latin1(b, pos, pos + idLength);
    const size = major === 2 ? u24be(b, pos + 3) : major === 4 ? syncsafe(b, pos + 4) : u32be(b, pos + 4);
    const body = pos + headerLength;
    if (body + size > end) return false;
    if ((id === "GEOB" || id === "GEO") && size > 1) {
      // encoding byte, then the MIME type as a NUL-terminated latin1 string
      const mime = latin1(b, body + 1, body + size, 64).split("\0")[0] ?? "";
      if (mime.toLowerCase().includes("c2pa")) return true;
    }
    pos = body + size;
  }
  return false;
}

// ---- MPEG audio frames

const BITRATES: Record<string, number[]> = {
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  "2-3": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 25: [11025, 12000, 8000] };

interface MpegFrame {
  version: number; // 1, 2 or 25 (2.5)
  layer: number;
  length: number;
  samples: number;
  sampleRate: number;
  channels: number;
  sideInfo: number;
  crc: boolean;
}

/** An MPEG audio frame header at `pos`, or null. Free-format frames (bitrate index 0) are not accepted. */
function mpegFrame(b: Uint8Array, pos: number): MpegFrame | null {
  if (pos + 4 > b.length || b[pos] !== 0xff || (b[pos + 1]! & 0xe0) !== 0xe0) return null;
  const h1 = b[pos + 1]!;
  const h2 = b[pos + 2]!;
  const h3 = b[pos + 3]!;
  const versionBits = (h1 >> 3) & 3;
  const layerBits = (h1 >> 1) & 3;
  if (versionBits === 1 || layerBits === 0) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 25;
  const layer = 4 - layerBits;
  const bitrateIndex = h2 >> 4;
  const rateIndex = (h2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const bitrate = BITRATES[`${version === 1 ? 1 : 2}-${layer}`]![bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const padding = (h2 >> 1) & 1;
  const mono = h3 >> 6 === 3;
  let samples: number;
  let length: number;
  if (layer === 1) {
    samples = 384;
    length = (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  } else {
    samples = layer === 3 && version !== 1 ? 576 : 1152;
    length = Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  }
  const sideInfo = layer !== 3 ? 0 : version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { version, layer, length, samples, sampleRate, channels: mono ? 1 : 2, sideInfo, crc: (h1 & 1) === 0 };
}

function sameStream(a: MpegFrame, b: MpegFrame): boolean {
  return a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;
}

/**
 * Where frames resume at or after `from`, or null: a frame (`frameAt` gives its length, null for none) that ends
 * exactly at the end of `b` or is followed by another. Junk or a tag between frames (a decoder skips them and plays
 * on) must not end the count that prices the audio; two frames in a row do not occur by chance in tags or junk (about
 * 1 in 10^10 per byte). Linear: each position is looked at once.
 */
function resync(b: Uint8Array, from: number, frameAt: (p: number) => number | null): number | null {
  for (let p = from; p + 4 <= b.length; p++) {
    if (b[p] !== 0xff) continue;
    const length = frameAt(p);
    if (length === null || p + length > b.length) continue;
    if (p + length === b.length || frameAt(p + length) !== null) return p;
  }
  return null;
}

/** Trailing tags that may follow the last frame. */
function isTrailer(b: Uint8Array, pos: number): boolean {
  return startsWith(b, "TAG", pos) || startsWith(b, "APETAGEX", pos) || startsWith(b, "LYRICS", pos) || startsWith(b, "ID3", pos);
}

/** Two consecutive frames, or one frame that is the whole input: enough to call bytes MPEG audio without a tag. */
export function isMpegAudio(b: Uint8Array, at = 0): boolean {
  const first = mpegFrame(b, at);
  if (!first) return false;
  const next = at + first.length;
  if (next === b.length) return true;
  const second = mpegFrame(b, next);
  return second !== null && sameStream(first, second);
}

/**
 * Walks every frame from `start`. A frame that runs past the end is truncation. Bytes that stop looking like
 * frames end the walk (trailing tags, or junk some encoders leave): the frames counted so far make the duration.
 */
export function parseMpegAudio(b: Uint8Array, start: number, c2pa: boolean): Detection {
  const first = mpegFrame(b, start);
  if (!first) corrupt("no MPEG audio frame where one was expected");
  let pos = start;
  let frames = 0;
  // A Xing/Info or VBRI header frame carries no audio.
  const tagAt = start + 4 + (first.crc ? 2 : 0) + first.sideInfo;
  const infoFrame = startsWith(b, "Xing", tagAt) || startsWith(b, "Info", tagAt) || startsWith(b, "VBRI", start + 36);
  const frameAt = (p: number) => {
    const f = mpegFrame(b, p);
    return f && sameStream(first, f) ? f.length : null;
  };
  while (pos < b.length) {
    const frame = mpegFrame(b, pos);
    if (!frame || !sameStream(first, frame)) {
      if (frames === 0) corrupt("no MPEG audio frame where one was expected");
      // Decoders resync past bytes that are no frame and play on: so does the count (pricing takes it).
      const next = resync(b, pos + 1, frameAt);
      if (next === null) break;
      pos = next;
      continue;
    }
    if (pos + frame.length > b.length) corrupt("last MPEG audio frame is truncated");
    frames++;
    pos += frame.length;
  }
  if (pos < b.length && b.length - pos < 4 && !isTrailer(b, pos)) corrupt("MPEG audio ends inside a frame header");
  const audioFrames = frames - (infoFrame ? 1 : 0);
  const layer3 = first.layer === 3;
  return detection(
    layer3 ? "audio/mpeg" : "audio/MPA",
    "mpeg-audio",
    {
      duration_seconds: seconds((audioFrames * first.samples) / first.sampleRate),
      audio_codec: `mp${first.layer}`,
      sample_rate: first.sampleRate,
      channels: first.channels,
      has_c2pa_manifest: c2pa,
    },
    [layer3 ? "audio/MPA" : "audio/mpeg"],
  );
}

// ---- AAC: ADTS and ADIF

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const AAC_PROFILES = ["aac-main", "aac-lc", "aac-ssr", "aac-ltp"];

interface AdtsFrame {
  length: number;
  profile: number;
  sampleRate: number;
  channels: number;
  blocks: number;
}

function adtsFrame(b: Uint8Array, pos: number): AdtsFrame | null {
  if (pos + 7 > b.length || b[pos] !== 0xff || (b[pos + 1]! & 0xf6) !== 0xf0) return null;
  const h2 = b[pos + 2]!;
  const rateIndex = (h2 >> 2) & 15;
  if (rateIndex >= AAC_RATES.length) return null;
  const length = ((b[pos + 3]! & 3) << 11) | (b[pos + 4]! << 3) | (b[pos + 5]! >> 5);
  const header = b[pos + 1]! & 1 ? 7 : 9;
  if (length < header) return null;
  return {
    length,
    profile: h2 >> 6,
    sampleRate: AAC_RATES[rateIndex]!,
    channels: ((h2 & 1) << 2) | (b[pos + 3]! >> 6),
    blocks: (b[pos + 6]! & 3) + 1,
  };
}

export function isAdts(b: Uint8Array, at = 0): boolean {
  const first = adtsFrame(b, at);
  if (!first) return false;
  const next = at + first.length;
  return next === b.length || adtsFrame(b, next) !== null;
}

export function parseAdts(b: Uint8Array, start: number, c2pa: boolean): Detection {
  const first = adtsFrame(b, start);
  if (!first) corrupt("no ADTS frame where one was expected");
  let pos = start;
  let blocks = 0;
  const frameAt = (p: number) => {
    const f = adtsFrame(b, p);
    return f && f.sampleRate === first.sampleRate ? f.length : null;
  };
  while (pos < b.length) {
    const frame = adtsFrame(b, pos);
    if (!frame) {
      // As for MPEG audio: decoders resync past junk and play on.
      const next = resync(b, pos + 1, frameAt);
      if (next === null) break;
      pos = next;
      continue;
    }
    if (pos + frame.length > b.length) corrupt("last ADTS frame is truncated");
    blocks += frame.blocks;
    pos += frame.length;
  }
  return detection("audio/aac", "adts", {
    duration_seconds: seconds((blocks * 1024) / first.sampleRate),
    audio_codec: AAC_PROFILES[first.profile] ?? null,
    sample_rate: first.sampleRate,
    channels: first.channels === 7 ? 8 : positiveInt(first.channels),
    has_c2pa_manifest: c2pa,
  });
}

export function isAdif(b: Uint8Array, at = 0): boolean {
  return startsWith(b, "ADIF", at);
}

export function parseAdif(c2pa: boolean): Detection {
  return detection("audio/aac", "adif", { audio_codec: "aac", has_c2pa_manifest: c2pa });
}

// ---- FLAC

export function isFlac(b: Uint8Array, at = 0): boolean {
  return startsWith(b, "fLaC", at);
}

/** FLAC: STREAMINFO first, metadata blocks up to the last-block flag, then frames (sync 0xFFF8 or 0xFFF9). */
export function parseFlac(b: Uint8Array, start: number, c2pa: boolean): Detection {
  let pos = start + 4;
  let info: number | null = null;
  for (let blocks = 0; ; blocks++) {
    const header = u8(b, pos);
    const type = header & 0x7f;
    const length = u24be(b, pos + 1);
    if (type === 127) corrupt("FLAC metadata block type 127 is invalid");
    if (blocks === 0 && (type !== 0 || length < 34)) corrupt("FLAC does not start with STREAMINFO");
    if (pos + 4 + length > b.length) corrupt("FLAC metadata block overruns the file");
    if (blocks === 0) info = pos + 4;
    pos += 4 + length;
    if (header & 0x80) break;
  }
  const streamInfo = b.subarray(info!, info! + 34);
  const { sample_rate: sampleRate, total } = flacStreamInfoFacts(streamInfo, 0);
  if (sampleRate === 0) corrupt("FLAC sample rate is zero");
  if (total > 0) {
    if (pos + 2 > b.length) corrupt("FLAC has no audio frames");
    if (b[pos] !== 0xff || (b[pos + 1]! & 0xfe) !== 0xf8) corrupt("FLAC frame sync missing after metadata");
  }
  const { total: _total, ...facts } = flacStreamInfoFacts(streamInfo, 0, flacFramesEnd(b, pos, streamInfo));
  return detection("audio/flac", "flac", {
    ...facts,
    has_c2pa_manifest: c2pa,
  });
}

/**
 * How far the frames of the audio at `audio` (to the end of `b`) reach, by the streamed scanner's own frame walk
 * (c2pa/flac.ts FlacFrames): the later of the sample just past the last whole frame as its header states it and the
 * samples the chain of whole frames carries; null when neither can be told (no frames, a file not ending with a
 * whole frame: the report then stands on STREAMINFO alone).
 */
function flacFramesEnd(b: Uint8Array, audio: number, streamInfo: Uint8Array): number | null {
  if (audio + 2 > b.length || b[audio] !== 0xff || (b[audio + 1]! & 0xfe) !== 0xf8) return null;
  const frames = new FlacFrames(b.length);
  frames.scan(audio, b.subarray(audio));
  return frames.reach(streamInfo).reach;
}

/**
 * The facts a FLAC's STREAMINFO states (body at `si`), shared with the streamed inspection of large uploads
 * (uploads/large-inspection.ts) so both report the same file alike: sample rate (20 bits), channels (3 bits, + 1),
 * bits per sample (5 bits, + 1), and the duration: the total samples (36 bits, `total`), or the end of the last
 * frame (`framesEnd`, the sample number just past it as its header states it) when that is later. Pricing takes
 * this duration, and STREAMINFO's total can be patched smaller without any decoder minding (flac -t passes, ffprobe
 * shows the smaller figure): the frames are what plays. Neither known (a total of 0, no frame end): null.
 */
export function flacStreamInfoFacts(b: Uint8Array, si: number, framesEnd: number | null = null) {
  const sampleRate = (u16be(b, si + 10) << 4) | (u8(b, si + 12) >> 4);
  const total = (u8(b, si + 13) & 15) * 2 ** 32 + u32be(b, si + 14);
  const samples = Math.max(total, framesEnd ?? 0);
  return {
    total,
    duration_seconds: sampleRate > 0 ? seconds(samples / sampleRate) : null,
    audio_codec: "flac",
    bit_depth: (((u8(b, si + 12) & 1) << 4) | (u8(b, si + 13) >> 4)) + 1,
    sample_rate: sampleRate,
    channels: ((u8(b, si + 12) >> 1) & 7) + 1,
  };
}
