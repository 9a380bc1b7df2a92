import { corrupt, fourcc, startsWith, u8, u16le, u24le, u32le, u64le } from "./bytes";
import { type Detection, detection, positiveInt, rate, seconds } from "./detection";

/** RIFF (and its 64-bit variants RF64/BW64): WebP, WAVE, AVI; any other form is a generic RIFF file. */
export function isRiff(b: Uint8Array): boolean {
  return b.length >= 12 && (startsWith(b, "RIFF") || startsWith(b, "RF64") || startsWith(b, "BW64"));
}

/** Keeps one chunk list small enough for a 128 MB isolate (a file of 8-byte chunks would not be). */
const MAX_CHUNKS = 200_000;

interface Chunk {
  id: string;
  /** Offset of the chunk data. */
  data: number;
  size: number;
}

/**
 * Chunks in [start, end). A chunk's size may be replaced by `sizeOf` (RF64's ds64 sizes, streaming
 * placeholders). A data area that overruns `end` is truncation; fewer than 8 trailing bytes are ignored.
 */
function chunks(b: Uint8Array, start: number, end: number, sizeOf?: (id: string, raw: number, data: number) => number): Chunk[] {
  const out: Chunk[] = [];
  let pos = start;
  while (pos + 8 <= end) {
    const id = fourcc(b, pos);
    const raw = u32le(b, pos + 4);
    const data = pos + 8;
    const size = sizeOf ? sizeOf(id, raw, data) : raw;
    if (data + size > end) corrupt(`RIFF chunk '${id}' overruns its parent`);
    if (out.length >= MAX_CHUNKS) corrupt("too many RIFF chunks in one list");
    out.push({ id, data, size });
    pos = data + size + (size & 1);
  }
  return out;
}

/** Returns [form type, end of the RIFF body, ds64 data size if RF64]. */
function riffHeader(b: Uint8Array): { form: string; end: number; ds64Data: number | null } {
  const magic = fourcc(b, 0);
  const size = u32le(b, 4);
  const form = fourcc(b, 8);
  let end: number;
  let ds64Data: number | null = null;
  if (magic === "RIFF") {
    // 0 and 0xFFFFFFFF are placeholders left by streaming writers: the body runs to the end of the bytes.
    end = size === 0 || size === 0xffffffff ? b.length : 8 + size;
  } else {
    if (fourcc(b, 12) !== "ds64") corrupt(`${magic} without ds64 chunk`);
    end = 8 + u64le(b, 20);
    ds64Data = u64le(b, 28);
  }
  if (end > b.length) corrupt("RIFF body truncated");
  if (end < 12) corrupt("RIFF body too short");
  return { form, end, ds64Data };
}

export function parseRiff(b: Uint8Array): Detection {
  const { form, end, ds64Data } = riffHeader(b);
  const sizeOf = (id: string, raw: number, data: number) => {
    if (raw !== 0xffffffff) return raw;
    if (id === "data" && ds64Data !== null) return ds64Data;
    // A streaming writer's placeholder on the last chunk: it runs to the end.
    if (id === "data" || id === "movi" || id === "LIST") return end - data;
    return raw;
  };
  const top = chunks(b, 12, end, sizeOf);
  const c2pa = top.some((c) => c.id === "C2PA");
  if (form === "WEBP") return webp(b, top, c2pa);
  if (form === "WAVE") return wave(b, top, c2pa);
  if (form === "AVI ") return avi(b, top, c2pa);
  return detection(null, "riff", { has_c2pa_manifest: c2pa }, ["image/x-riff-based", "audio/x-riff-based", "video/x-riff-based"], {
    label: `RIFF form '${form}'`,
  });
}

function webp(b: Uint8Array, top: Chunk[], c2pa: boolean): Detection {
  const first = top[0];
  if (!first) corrupt("WebP without chunks");
  let width = 0;
  let height = 0;
  let lossy = false;
  let duration: number | null = null;
  const vp8 = (c: Chunk) => {
    if (c.size < 10) corrupt("VP8 chunk too short");
    if (u8(b, c.data + 3) !== 0x9d || u8(b, c.data + 4) !== 0x01 || u8(b, c.data + 5) !== 0x2a) corrupt("VP8 start code missing");
    return [u16le(b, c.data + 6) & 0x3fff, u16le(b, c.data + 8) & 0x3fff] as const;
  };
  const vp8l = (c: Chunk) => {
    if (c.size < 5 || u8(b, c.data) !== 0x2f) corrupt("VP8L signature missing");
    const bits = u32le(b, c.data + 1);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1] as const;
  };
  if (first.id === "VP8 ") {
    [width, height] = vp8(first);
    lossy = true;
  } else if (first.id === "VP8L") {
    [width, height] = vp8l(first);
  } else if (first.id === "VP8X") {
    if (first.size < 10) corrupt("VP8X chunk too short");
    width = u24le(b, first.data + 4) + 1;
    height = u24le(b, first.data + 7) + 1;
    const image = top.find((c) => c.id === "VP8 " || c.id === "VP8L");
    const frames = top.filter((c) => c.id === "ANMF");
    if (!image && frames.length === 0) corrupt("WebP without image data");
    if (image) {
      lossy = image.id === "VP8 ";
      // Validate the bitstream header the same way as a simple file.
      if (lossy) vp8(image);
      else vp8l(image);
    }
    if (frames.length > 0) {
      let ms = 0;
      for (const f of frames) {
        if (f.size < 16) corrupt("ANMF chunk too short");
        ms += u24le(b, f.data + 12);
      }
      duration = seconds(ms / 1000);
      lossy = frames.some((f) => f.size >= 24 && fourcc(b, f.data + 16) === "VP8 ");
    }
  } else {
    corrupt(`WebP starts with '${first.id}'`);
  }
  return detection(
    "image/webp",
    "riff-webp",
    {
      width: positiveInt(width),
      height: positiveInt(height),
      duration_seconds: duration,
      bit_depth: 8,
      chroma_subsampling: lossy ? "4:2:0" : null,
      has_c2pa_manifest: c2pa,
    },
    ["image/x-riff-based"],
  );
}

const WAVE_CODECS: Record<number, string> = {
  1: "pcm",
  2: "adpcm-ms",
  3: "pcm-float",
  6: "alaw",
  7: "mulaw",
  17: "adpcm-ima",
  80: "mp2",
  85: "mp3",
  255: "aac",
  5648: "aac",
  8192: "ac3",
  8193: "dts",
  61868: "flac",
};

function waveCodec(b: Uint8Array, c: Chunk): string {
  let tag = u16le(b, c.data);
  // WAVE_FORMAT_EXTENSIBLE: the real format code is the first two bytes of the SubFormat GUID.
  if (tag === 0xfffe && c.size >= 40) tag = u16le(b, c.data + 24);
  return WAVE_CODECS[tag] ?? `wave-0x${tag.toString(16).padStart(4, "0")}`;
}

function wave(b: Uint8Array, top: Chunk[], c2pa: boolean): Detection {
  const fmt = top.find((c) => c.id === "fmt ");
  const data = top.find((c) => c.id === "data");
  if (!fmt || fmt.size < 16) corrupt("WAVE without a valid fmt chunk");
  if (!data) corrupt("WAVE without a data chunk");
  const channels = u16le(b, fmt.data + 2);
  const sampleRate = u32le(b, fmt.data + 4);
  const byteRate = u32le(b, fmt.data + 8);
  const blockAlign = u16le(b, fmt.data + 12);
  const bits = u16le(b, fmt.data + 14);
  // The length in frames (block align and sample rate, what decoders use), not by the header's byte rate, which
  // can say anything: a WAV whose byte rate lied would pass a duration limit it does not meet.
  const frameSeconds = blockAlign > 0 && sampleRate > 0 ? Math.floor(data.size / blockAlign) / sampleRate : null;
  return detection(
    "audio/wav",
    "riff-wave",
    {
      duration_seconds: frameSeconds !== null ? seconds(frameSeconds) : byteRate > 0 ? seconds(data.size / byteRate) : null,
      audio_codec: waveCodec(b, fmt),
      bit_depth: positiveInt(bits),
      sample_rate: positiveInt(sampleRate),
      channels: positiveInt(channels),
      has_c2pa_manifest: c2pa,
    },
    ["audio/x-riff-based"],
  );
}

const AVI_VIDEO: Record<string, string> = {
  MJPG: "mjpeg",
  AVRN: "mjpeg",
  LJPG: "mjpeg",
  JPGL: "mjpeg",
  DMB1: "mjpeg",
  H264: "h264",
  X264: "h264",
  AVC1: "h264",
  DAVC: "h264",
  VSSH: "h264",
  HEVC: "hevc",
  H265: "hevc",
  HVC1: "hevc",
  HEV1: "hevc",
  XVID: "mpeg4",
  DIVX: "mpeg4",
  DX50: "mpeg4",
  FMP4: "mpeg4",
  MP4V: "mpeg4",
  MP42: "msmpeg4",
  MP43: "msmpeg4",
  DIV3: "msmpeg4",
  VP80: "vp8",
  VP90: "vp9",
  AV01: "av1",
  DVSD: "dv",
  FFV1: "ffv1",
  MPG1: "mpeg1",
  MPG2: "mpeg2",
};

function aviVideoCodec(code: string): string {
  if (code === "\0\0\0\0" || code === "DIB " || code === "RGB ") return "raw";
  return AVI_VIDEO[code.toUpperCase()] ?? code.replace(/[^\x21-\x7e]/g, "").toLowerCase();
}

/**
 * The chunks of stream `index` (`NNdc`/`NNdb`: its frames, dropped ones included) in `movi` and its `rec ` lists.
 * Counting only: a chunk that overruns its list ends the count there (the file is judged by the walk above).
 */
function aviFrames(b: Uint8Array, movi: Chunk, index: number): number {
  if (index < 0 || index > 99) return 0;
  const prefix = String(index).padStart(2, "0");
  let frames = 0;
  const walk = (start: number, end: number, depth: number) => {
    for (let pos = start; pos + 8 <= end; ) {
      const id = fourcc(b, pos);
      const size = u32le(b, pos + 4);
      if (pos + 8 + size > end) return;
      if (id === "LIST" && depth < 2 && size >= 4 && fourcc(b, pos + 8) === "rec ") walk(pos + 12, pos + 8 + size, depth + 1);
      else if (id.startsWith(prefix) && (id.endsWith("dc") || id.endsWith("db"))) frames++;
      pos += 8 + size + (size & 1);
    }
  };
  walk(movi.data + 4, movi.data + movi.size, 0);
  return frames;
}

function avi(b: Uint8Array, top: Chunk[], c2pa: boolean): Detection {
  const hdrl = top.find((c) => c.id === "LIST" && c.size >= 4 && fourcc(b, c.data) === "hdrl");
  if (!hdrl) corrupt("AVI without hdrl list");
  const movi = top.find((c) => c.id === "LIST" && c.size >= 4 && fourcc(b, c.data) === "movi");
  if (!movi) corrupt("AVI without movi list");
  const header = chunks(b, hdrl.data + 4, hdrl.data + hdrl.size);
  const avih = header.find((c) => c.id === "avih");
  if (!avih || avih.size < 40) corrupt("AVI without main header");
  const usPerFrame = u32le(b, avih.data);
  const totalFrames = u32le(b, avih.data + 16);
  let width = u32le(b, avih.data + 32);
  let height = u32le(b, avih.data + 36);
  let videoCodec: string | null = null;
  let audioCodec: string | null = null;
  let fps: number | null = null;
  let duration: number | null = null;
  let sampleRate: number | null = null;
  let channels: number | null = null;
  let streamIndex = -1;
  for (const list of header) {
    if (list.id !== "LIST" || list.size < 4 || fourcc(b, list.data) !== "strl") continue;
    streamIndex++;
    const stream = chunks(b, list.data + 4, list.data + list.size);
    const strh = stream.find((c) => c.id === "strh");
    const strf = stream.find((c) => c.id === "strf");
    if (!strh || strh.size < 36) corrupt("AVI stream without header");
    const kind = fourcc(b, strh.data);
    const scale = u32le(b, strh.data + 20);
    const ratePerScale = u32le(b, strh.data + 24);
    const length = u32le(b, strh.data + 32);
    if (kind === "vids" && videoCodec === null) {
      const compression = strf && strf.size >= 20 ? fourcc(b, strf.data + 16) : fourcc(b, strh.data + 4);
      videoCodec = aviVideoCodec(compression);
      if (scale > 0 && ratePerScale > 0) {
        fps = rate(ratePerScale / scale);
        // Never less than the frames the file carries: the header's length is a summary a customer can patch
        // smaller (pricing takes this duration), the stream's chunks in `movi` are what plays.
        duration = seconds((Math.max(length, aviFrames(b, movi, streamIndex)) * scale) / ratePerScale);
      }
      if (strf && strf.size >= 12 && (width === 0 || height === 0)) {
        width = u32le(b, strf.data + 4);
        height = Math.abs(u32le(b, strf.data + 8) | 0);
      }
    } else if (kind === "auds" && audioCodec === null && strf && strf.size >= 16) {
      audioCodec = waveCodec(b, strf);
      channels = positiveInt(u16le(b, strf.data + 2));
      sampleRate = positiveInt(u32le(b, strf.data + 4));
    }
  }
  if (fps === null && usPerFrame > 0) {
    fps = rate(1_000_000 / usPerFrame);
    duration = seconds((totalFrames * usPerFrame) / 1_000_000);
  }
  return detection(
    "video/x-msvideo",
    "riff-avi",
    {
      width: positiveInt(width),
      height: positiveInt(height),
      duration_seconds: duration,
      frames_per_second: fps,
      video_codec: videoCodec,
      audio_codec: audioCodec,
      sample_rate: sampleRate,
      channels,
      has_c2pa_manifest: c2pa,
    },
    ["video/x-riff-based"],
  );
}
