import { CorruptError, corrupt, equalBytes, fourcc, latin1, u8, u16be, u32be, u64be } from "./bytes";
import { C2PA_BMFF_UUID } from "./c2pa-markers";
import { type AudioConfig, parseAv1C, parseAvcC, parseEsds, parseHvcC, parseVpcC, type VideoConfig } from "./codecs";
import { type Detection, detection, type MeasuredFacts, positiveInt, rate, seconds } from "./detection";
import { type Box, boxes, child, children, printable, timing } from "./isobmff-box";
import { type HeifImage, parseMeta } from "./isobmff-heif";
import { measureMovie } from "./isobmff-timing";

/**
 * ISO base media file format (ISO/IEC 14496-12) and QuickTime: MP4, M4A, MOV, HEIF/HEIC, AVIF and their
 * sequences. Boxes are walked with every size checked against its parent; descent is explicit (moov → trak →
 * mdia → minf → stbl → stsd → sample entry), so nesting depth is bounded by construction and by MAX_DEPTH.
 */
interface SampleEntry {
  format: string;
  codec: string | null;
  width: number | null;
  height: number | null;
  video: VideoConfig | null;
  audio: AudioConfig | null;
  transfer: number | null;
}

/** What one `trak` says; numbers are 0 when their box is absent. */
export interface Track {
  handler: string;
  timescale: number;
  duration: number;
  samples: number;
  entry: SampleEntry | null;
  tkhdWidth: number;
  tkhdHeight: number;
  maxChunkOffset: number;
}

const VIDEO_CODECS: Record<string, string> = {
  avc1: "h264",
  avc2: "h264",
  avc3: "h264",
  avc4: "h264",
  hvc1: "hevc",
  hev1: "hevc",
  hvc2: "hevc",
  hev2: "hevc",
  dvh1: "hevc",
  dvhe: "hevc",
  av01: "av1",
  vp08: "vp8",
  vp09: "vp9",
  mp4v: "mpeg4",
  s263: "h263",
  h263: "h263",
  jpeg: "mjpeg",
  mjpa: "mjpeg",
  mjpb: "mjpeg",
  apch: "prores",
  apcn: "prores",
  apcs: "prores",
  apco: "prores",
  ap4h: "prores",
  ap4x: "prores",
};
const AUDIO_CODECS: Record<string, string> = {
  "ac-3": "ac3",
  "ec-3": "eac3",
  "ac-4": "ac4",
  Opus: "opus",
  fLaC: "flac",
  alac: "alac",
  ".mp3": "mp3",
  samr: "amr-nb",
  sawb: "amr-wb",
  ulaw: "mulaw",
  alaw: "alaw",
  lpcm: "pcm",
  sowt: "pcm",
  twos: "pcm",
  in24: "pcm",
  in32: "pcm",
  fl32: "pcm",
  fl64: "pcm",
  "raw ": "pcm",
  ipcm: "pcm",
  fpcm: "pcm",
};
const VISUAL = new Set([...Object.keys(VIDEO_CODECS), "encv"]);
const AUDIO = new Set([...Object.keys(AUDIO_CODECS), "mp4a", "enca"]);

function sampleEntry(b: Uint8Array, e: Box, quicktime: boolean, depth: number): SampleEntry {
  let format = e.type;
  const entry: SampleEntry = { format, codec: null, width: null, height: null, video: null, audio: null, transfer: null };
  if (VISUAL.has(format)) {
    if (e.end - e.body < 78) corrupt("visual sample entry too short");
    entry.width = positiveInt(u16be(b, e.body + 24));
    entry.height = positiveInt(u16be(b, e.body + 26));
    const kids = boxes(b, e.body + 78, e.end, depth + 1);
    format = originalFormat(b, kids, depth + 1) ?? format;
    entry.format = format;
    entry.codec = VIDEO_CODECS[format] ?? format.trim();
    for (const k of kids) {
      try {
        if (k.type === "avcC") entry.video = parseAvcC(b, k.body, k.end);
        else if (k.type === "hvcC") entry.video = parseHvcC(b, k.body, k.end);
        else if (k.type === "av1C") entry.video = parseAv1C(b, k.body, k.end);
        else if (k.type === "vpcC") entry.video = parseVpcC(b, k.body, k.end);
      } catch (err) {
        if (!(err instanceof CorruptError)) throw err;
        corrupt(`${k.type}: ${err.message}`);
      }
      if (k.type === "colr" && k.end - k.body >= 10) {
        const kind = fourcc(b, k.body);
        if (kind === "nclx" || kind === "nclc") entry.transfer = u16be(b, k.body + 6);
      }
    }
    if (entry.transfer === null) entry.transfer = entry.video?.transfer ?? null;
  } else if (AUDIO.has(format)) {
    if (e.end - e.body < 28) corrupt("audio sample entry too short");
    const version = u16be(b, e.body + 8);
    // QuickTime sound descriptions v1/v2 carry 16/36 more bytes before the child atoms; ISO entries do not.
    const extra = quicktime ? (version === 1 ? 16 : version === 2 ? 36 : 0) : 0;
    const channels = u16be(b, e.body + 16);
    const sampleRate = u32be(b, e.body + 24) >>> 16;
    entry.audio = { codec: "", sample_rate: positiveInt(sampleRate), channels: positiveInt(channels) };
    if (e.body + 28 + extra <= e.end) {
      const kids = boxes(b, e.body + 28 + extra, e.end, depth + 1);
      format = originalFormat(b, kids, depth + 1) ?? format;
      const esds = child(kids, "esds") ?? child(children(b, child(kids, "wave"), depth + 2), "esds");
      if (esds) {
        try {
          const es = parseEsds(b, esds.body + 4, esds.end);
          if (es.audio) entry.audio = { ...entry.audio, ...definedOnly(es.audio) };
          else entry.codec = `mp4a-0x${es.objectType.toString(16)}`;
        } catch (err) {
          if (!(err instanceof CorruptError)) throw err;
          corrupt(`esds: ${err.message}`);
        }
      }
    }
    entry.format = format;
    entry.codec = entry.audio.codec || entry.codec || (format === "mp4a" ? "aac" : (AUDIO_CODECS[format] ?? format.trim()));
    entry.audio.codec = entry.codec;
  }
  return entry;
}

function definedOnly(a: AudioConfig): Partial<AudioConfig> {
  const out: Partial<AudioConfig> = { codec: a.codec };
  if (a.sample_rate !== null) out.sample_rate = a.sample_rate;
  if (a.channels !== null) out.channels = a.channels;
  return out;
}

/** Encrypted entries (encv/enca) name their real format in sinf/frma. */
function originalFormat(b: Uint8Array, kids: Box[], depth: number): string | null {
  const frma = child(children(b, child(kids, "sinf"), depth + 1), "frma");
  return frma && frma.end - frma.body >= 4 ? fourcc(b, frma.body) : null;
}

function parseTrak(b: Uint8Array, trak: Box, quicktime: boolean): Track {
  const kids = boxes(b, trak.body, trak.end, 2);
  const tkhd = child(kids, "tkhd");
  let tkhdWidth = 0;
  let tkhdHeight = 0;
  if (tkhd) {
    const v1 = u8(b, tkhd.body) === 1;
    const at = tkhd.body + (v1 ? 88 : 76);
    if (at + 8 <= tkhd.end) {
      tkhdWidth = u32be(b, at) / 65536;
      tkhdHeight = u32be(b, at + 4) / 65536;
    }
  }
  const mdia = children(b, child(kids, "mdia"), 3);
  const { timescale, duration } = timing(b, child(mdia, "mdhd"));
  const hdlr = child(mdia, "hdlr");
  const handler = hdlr && hdlr.end - hdlr.body >= 12 ? fourcc(b, hdlr.body + 8) : "";
  const minf = children(b, child(mdia, "minf"), 4);
  const stbl = children(b, child(minf, "stbl"), 5);
  const stsd = child(stbl, "stsd");
  let entry: SampleEntry | null = null;
  if (stsd) {
    if (stsd.end - stsd.body < 8) corrupt("stsd box too short");
    const entries = boxes(b, stsd.body + 8, stsd.end, 6);
    if (entries[0]) entry = sampleEntry(b, entries[0], quicktime, 6);
  }
  // The sample count (frame rate); what the samples play is read by isobmff-timing.ts (so is the edit list).
  let samples = 0;
  const stts = child(stbl, "stts");
  if (stts) {
    const count = u32be(b, stts.body + 4);
    if (stts.body + 8 + count * 8 > stts.end) corrupt("stts entries overrun the box");
    for (let i = 0; i < count; i++) samples += u32be(b, stts.body + 8 + i * 8);
  }
  let maxChunkOffset = 0;
  for (const type of ["stco", "co64"] as const) {
    const box = child(stbl, type);
    if (!box) continue;
    const width = type === "stco" ? 4 : 8;
    const count = u32be(b, box.body + 4);
    if (box.body + 8 + count * width > box.end) corrupt(`${type} entries overrun the box`);
    for (let i = 0; i < count; i++) {
      const at = box.body + 8 + i * width;
      const offset = width === 4 ? u32be(b, at) : u64be(b, at);
      if (offset > maxChunkOffset) maxChunkOffset = offset;
    }
  }
  return { handler, timescale, duration, samples, entry, tkhdWidth, tkhdHeight, maxChunkOffset };
}

interface Movie {
  fragmented: boolean;
  tracks: Track[];
}

function parseMoov(b: Uint8Array, moov: Box, quicktime: boolean): Movie {
  const kids = boxes(b, moov.body, moov.end, 1);
  const tracks = kids.filter((k) => k.type === "trak").map((t) => parseTrak(b, t, quicktime));
  return { fragmented: child(kids, "mvex") !== undefined, tracks };
}

const HEIC_STILL = new Set(["heic", "heix", "heim", "heis"]);
const HEIC_SEQUENCE = new Set(["hevc", "hevx", "hevm", "hevs"]);
const HEIF_STILL = new Set(["mif1", "mif2", "miaf"]);

function classify(major: string | null, brands: Set<string>, movie: Movie | null, image: HeifImage | null): string {
  if (major === null) return "video/quicktime"; // pre-ftyp QuickTime movie
  if (major === "qt  ") return "video/quicktime";
  if (major === "avif" || major === "avis") return "image/avif";
  if (HEIC_STILL.has(major)) return "image/heic";
  if (HEIC_SEQUENCE.has(major)) return "image/heic-sequence";
  if (HEIF_STILL.has(major)) {
    if (brands.has("avif")) return "image/avif";
    if ([...HEIC_STILL].some((x) => brands.has(x))) return "image/heic";
    return "image/heif";
  }
  if (major === "msf1") {
    if (brands.has("avis")) return "image/avif";
    if ([...HEIC_SEQUENCE].some((x) => brands.has(x))) return "image/heic-sequence";
    return "image/heif-sequence";
  }
  // 3GPP, Canon CR3 and other BMFF brands that no reviewed format names.
  if (major.startsWith("3g") || major === "crx ") return "video/x-bmff-based";
  const tracks = movie?.tracks ?? [];
  if (tracks.some((t) => t.handler === "vide")) return "video/mp4";
  if (tracks.some((t) => t.handler === "soun")) return "audio/mp4";
  if (image) return "image/heif";
  return "video/x-bmff-based";
}

export function parseIsobmff(b: Uint8Array): Detection {
  const top = boxes(b, 0, b.length, 0);
  const ftyp = top.find((x) => x.type === "ftyp");
  let major: string | null = null;
  const brands = new Set<string>();
  if (ftyp) {
    if (ftyp.end - ftyp.body < 8) corrupt("ftyp box too short");
    major = fourcc(b, ftyp.body);
    brands.add(major);
    for (let p = ftyp.body + 8; p + 4 <= ftyp.end; p += 4) brands.add(fourcc(b, p));
  }
  const quicktime = major === null || major === "qt  ";
  const moov = top.find((x) => x.type === "moov");
  const movie = moov ? parseMoov(b, moov, quicktime) : null;
  const timed = movie ? measureMovie(b, top) : null;
  const metaBox = top.find((x) => x.type === "meta");
  const image = metaBox ? parseMeta(b, metaBox) : null;
  const fragmented = (movie?.fragmented ?? false) || top.some((x) => x.type === "moof");
  const c2pa = top.some(
    (x) =>
      x.type === "uuid" && x.end - x.body >= 16 && equalBytes(b, x.body, C2PA_BMFF_UUID) && latin1(b, x.body + 20, x.end, 8) === "manifest",
  );

  if (!movie && !image && !top.some((x) => x.type === "moof")) corrupt("ISOBMFF file without moov, image meta or moof");
  const mediaType = classify(major, brands, movie, image);
  const isImage = mediaType.startsWith("image/");
  const isSequence = mediaType.endsWith("-sequence") || (mediaType === "image/avif" && major === "avis");
  if (mediaType === "video/quicktime" && !movie) corrupt("QuickTime movie without moov");
  if ((mediaType === "video/mp4" || mediaType === "audio/mp4") && !movie) corrupt("MP4 without moov");
  if (isImage && !image && !(isSequence && movie)) corrupt("HEIF/AVIF without a primary image");
  if (movie && !fragmented) {
    for (const t of movie.tracks) if (t.maxChunkOffset >= b.length) corrupt("sample data lies beyond the end of the file");
  }

  const facts: Partial<MeasuredFacts> = { has_c2pa_manifest: c2pa };
  const video = movie?.tracks.filter((t) => t.handler === "vide" || (isSequence && t.handler === "pict")) ?? [];
  const audio = movie?.tracks.filter((t) => t.handler === "soun") ?? [];
  if (movie && !(isImage && !isSequence)) {
    const v = video[0];
    const a = audio[0];
    // Never less than a track plays (its samples, cut to its edit list; a fragmented movie's fragments summed): the
    // stated durations (mvhd, mehd, mdhd) are summaries a customer can patch smaller without any player minding
    // (ffprobe then shows the smaller figure), and pricing takes this one. The streamed inspection of large uploads
    // feeds the same MovieTiming, so both paths report the same figure and refuse the same tables.
    const total = timed?.seconds ?? 0;
    facts.duration_seconds = seconds(total);
    if (v) {
      const cfg = v.entry?.video ?? null;
      facts.width = v.entry?.width ?? cfg?.width ?? positiveInt(Math.round(v.tkhdWidth));
      facts.height = v.entry?.height ?? cfg?.height ?? positiveInt(Math.round(v.tkhdHeight));
      facts.video_codec = v.entry?.codec ?? null;
      facts.bit_depth = cfg?.bit_depth ?? null;
      facts.chroma_subsampling = cfg?.chroma_subsampling ?? null;
      if (v.timescale > 0 && v.duration > 0 && v.samples > 0) facts.frames_per_second = rate(v.samples / (v.duration / v.timescale));
    }
    if (a) {
      facts.audio_codec = a.entry?.codec ?? null;
      facts.sample_rate = a.entry?.audio?.sample_rate ?? null;
      facts.channels = a.entry?.audio?.channels ?? null;
    }
  }
  if (image && (isImage || mediaType === "video/x-bmff-based")) {
    facts.width = image.width ?? facts.width ?? null;
    facts.height = image.height ?? facts.height ?? null;
    facts.bit_depth = image.config?.bit_depth ?? image.bits ?? facts.bit_depth ?? null;
    facts.chroma_subsampling = image.config?.chroma_subsampling ?? facts.chroma_subsampling ?? null;
  }

  const also = ["video/x-bmff-based"];
  if (mediaType === "image/heic") also.push("image/heif");
  if (mediaType === "image/heic-sequence") also.push("image/heif-sequence");

  const violations: string[] = [];
  if (mediaType === "video/mp4" && movie) {
    if (fragmented) violations.push("fragmented MP4 (moof/mvex) is not supported");
    if (video.length !== 1) violations.push(`expected exactly one video track, found ${video.length}`);
    const v = video[0];
    if (v) {
      const codec = v.entry?.codec ?? "unknown";
      const cfg = v.entry?.video ?? null;
      if (codec !== "h264") violations.push(`video codec ${codec} is not supported (H.264 only)`);
      else if (!cfg || cfg.bit_depth === null) violations.push("H.264 bit depth could not be read (no SPS in avcC)");
      else {
        if (cfg.bit_depth !== 8) violations.push(`${cfg.bit_depth}-bit video is not supported (8-bit only)`);
        if (cfg.chroma_subsampling !== "4:2:0")
          violations.push(`chroma subsampling ${cfg.chroma_subsampling ?? "unknown"} is not supported (4:2:0 only)`);
      }
      const transfer = v.entry?.transfer ?? null;
      if (transfer === 16 || transfer === 18) violations.push(`HDR video (${transfer === 16 ? "PQ" : "HLG"} transfer) is not supported`);
    }
    if (audio.length > 1) violations.push(`expected at most one audio track, found ${audio.length}`);
    const a = audio[0];
    if (a && a.entry?.codec !== "aac-lc") violations.push(`audio codec ${a.entry?.codec ?? "unknown"} is not supported (AAC-LC only)`);
    const other = movie.tracks.filter((t) => t.handler !== "vide" && t.handler !== "soun");
    // Named up to 8, then counted: a hostile file may carry hundreds of thousands of tracks, and this text is stored.
    const named = other.slice(0, 8).map((t) => `'${printable(t.handler) || "?"}'`);
    if (other.length > 8) named.push(`and ${other.length - 8} more`);
    if (other.length > 0) violations.push(`extra track(s) not allowed: ${named.join(", ")}`);
  }
  return detection(mediaType, "isobmff", facts, also, { contract_violations: violations });
}
