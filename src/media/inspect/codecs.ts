import { BitReader, CorruptError, u8, u16be, unescapeRbsp } from "./bytes";

/** What a codec configuration record tells about the coded pictures. */
export interface VideoConfig {
  bit_depth: number | null;
  chroma_subsampling: string | null;
  width: number | null;
  height: number | null;
  /** ITU-T H.273 transfer characteristics when signalled (16 = PQ, 18 = HLG). */
  transfer: number | null;
}

const CHROMA = ["4:0:0", "4:2:0", "4:2:2", "4:4:4"] as const;

/** Profiles whose SPS carries chroma_format_idc and bit depths (H.264 7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/**
 * Parses an H.264 sequence parameter set NAL unit (header byte included) up to the VUI colour description.
 * Throws CorruptError when the bits run out.
 */
export function parseH264Sps(nal: Uint8Array): VideoConfig {
  const rbsp = unescapeRbsp(nal, 0, nal.length);
  const r = new BitReader(rbsp);
  const header = r.u(8);
  if ((header & 0x1f) !== 7) throw new CorruptError("avcC SPS is not NAL type 7");
  const profile = r.u(8);
  r.u(8); // constraint flags
  r.u(8); // level_idc
  r.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let separatePlanes = false;
  let bitDepth = 8;
  if (HIGH_PROFILES.has(profile)) {
    chromaFormat = r.ue();
    if (chromaFormat > 3) throw new CorruptError("SPS chroma_format_idc out of range");
    if (chromaFormat === 3) separatePlanes = r.flag();
    bitDepth = r.ue() + 8;
    r.ue(); // bit_depth_chroma_minus8
    r.flag(); // qpprime_y_zero_transform_bypass_flag
    if (r.flag()) {
      const lists = chromaFormat !== 3 ? 8 : 12;
      for (let i = 0; i < lists; i++) if (r.flag()) skipScalingList(r, i < 6 ? 16 : 64);
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.flag();
    r.se();
    r.se();
    const cycle = r.ue();
    if (cycle > 255) throw new CorruptError("SPS POC cycle too long");
    for (let i = 0; i < cycle; i++) r.se();
  } else if (pocType !== 2) throw new CorruptError("SPS pic_order_cnt_type out of range");
  r.ue(); // max_num_ref_frames
  r.flag(); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightUnits = r.ue() + 1;
  const frameMbsOnly = r.flag();
  if (!frameMbsOnly) r.flag();
  r.flag(); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (r.flag()) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const arrayType = separatePlanes ? 0 : chromaFormat;
  const subW = arrayType === 1 || arrayType === 2 ? 2 : 1;
  const subH = arrayType === 1 ? 2 : 1;
  const cropX = arrayType === 0 ? 1 : subW;
  const cropY = (arrayType === 0 ? 1 : subH) * (frameMbsOnly ? 1 : 2);
  const width = widthMbs * 16 - cropX * (crop[0]! + crop[1]!);
  const height = (frameMbsOnly ? 1 : 2) * heightUnits * 16 - cropY * (crop[2]! + crop[3]!);
  let transfer: number | null = null;
  try {
    if (r.flag()) {
      // vui_parameters(): only as far as the colour description.
      if (r.flag()) {
        if (r.u(8) === 255) r.u(32); // Extended_SAR
      }
      if (r.flag()) r.flag(); // overscan
      if (r.flag()) {
        r.u(3);
        r.flag();
        if (r.flag()) {
          r.u(8);
          transfer = r.u(8);
        }
      }
    }
  } catch {
    // A VUI cut short does not change the facts read before it.
  }
  return {
    bit_depth: bitDepth,
    chroma_subsampling: CHROMA[chromaFormat] ?? null,
    width: width > 0 ? width : null,
    height: height > 0 ? height : null,
    transfer,
  };
}

/** AVCDecoderConfigurationRecord (ISO 14496-15 5.3.3): the first SPS decides; the High-profile tail is a fallback. */
export function parseAvcC(b: Uint8Array, start: number, end: number): VideoConfig {
  if (end - start < 7 || u8(b, start) !== 1) throw new CorruptError("avcC record malformed");
  const spsCount = u8(b, start + 5) & 0x1f;
  let pos = start + 6;
  let config: VideoConfig | null = null;
  for (let i = 0; i < spsCount; i++) {
    const len = u16be(b, pos);
    if (pos + 2 + len > end) throw new CorruptError("avcC SPS overruns the record");
    if (config === null && len > 0) config = parseH264Sps(b.subarray(pos + 2, pos + 2 + len));
    pos += 2 + len;
  }
  if (config) return config;
  // No SPS in the record (avc3 carries it in-band): the optional extension of High profiles may still say.
  const profile = u8(b, start + 1);
  const ppsCount = pos < end ? u8(b, pos) : 0;
  pos += 1;
  for (let i = 0; i < ppsCount; i++) pos += 2 + u16be(b, pos);
  if (HIGH_PROFILES.has(profile) && pos + 3 <= end) {
    return {
      chroma_subsampling: CHROMA[u8(b, pos) & 3] ?? null,
      bit_depth: (u8(b, pos + 1) & 7) + 8,
      width: null,
      height: null,
      transfer: null,
    };
  }
  return { bit_depth: null, chroma_subsampling: null, width: null, height: null, transfer: null };
}

/** HEVCDecoderConfigurationRecord (ISO 14496-15 8.3.3): chroma format and bit depth are fixed-position fields. */
export function parseHvcC(b: Uint8Array, start: number, end: number): VideoConfig {
  if (end - start < 23) throw new CorruptError("hvcC record too short");
  return {
    chroma_subsampling: CHROMA[u8(b, start + 16) & 3] ?? null,
    bit_depth: (u8(b, start + 17) & 7) + 8,
    width: null,
    height: null,
    transfer: null,
  };
}

/** AV1CodecConfigurationRecord (AV1-ISOBMFF 2.3). */
export function parseAv1C(b: Uint8Array, start: number, end: number): VideoConfig {
  if (end - start < 4 || (u8(b, start) & 0x80) === 0) throw new CorruptError("av1C record malformed");
  const flags = u8(b, start + 2);
  const high = (flags >> 6) & 1;
  const twelve = (flags >> 5) & 1;
  const mono = (flags >> 4) & 1;
  const sx = (flags >> 3) & 1;
  const sy = (flags >> 2) & 1;
  return {
    bit_depth: high ? (twelve ? 12 : 10) : 8,
    chroma_subsampling: mono ? "4:0:0" : sx && sy ? "4:2:0" : sx ? "4:2:2" : "4:4:4",
    width: null,
    height: null,
    transfer: null,
  };
}

/** VPCodecConfigurationRecord (VP9-ISOBMFF), a full box: version/flags then the record. */
export function parseVpcC(b: Uint8Array, start: number, end: number): VideoConfig {
  if (end - start < 12) throw new CorruptError("vpcC record too short");
  const v = u8(b, start + 6);
  const sub = (v >> 1) & 7;
  return {
    bit_depth: v >> 4,
    chroma_subsampling: sub <= 1 ? "4:2:0" : sub === 2 ? "4:2:2" : sub === 3 ? "4:4:4" : null,
    width: null,
    height: null,
    transfer: u8(b, start + 8),
  };
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** What an audio codec configuration says; `codec` is always set, the rest null when not signalled. */
export interface AudioConfig {
  codec: string;
  sample_rate: number | null;
  channels: number | null;
}

function audioObjectType(r: BitReader): number {
  const t = r.u(5);
  return t === 31 ? 32 + r.u(6) : t;
}

function samplingFrequency(r: BitReader): number | null {
  const index = r.u(4);
  return index === 15 ? r.u(24) : (AAC_RATES[index] ?? null);
}

function aacCodecName(aot: number): string {
  switch (aot) {
    case 1:
      return "aac-main";
    case 2:
      return "aac-lc";
    case 3:
      return "aac-ssr";
    case 4:
      return "aac-ltp";
    case 5:
    case 29:
      return "he-aac";
    case 23:
      return "aac-ld";
    case 39:
      return "aac-eld";
    case 42:
      return "xhe-aac";
    case 32:
    case 33:
    case 34:
      return ["mp1", "mp2", "mp3"][aot - 32]!;
    default:
      return `mpeg4-audio-${aot}`;
  }
}

/**
 * AudioSpecificConfig (ISO 14496-3 1.6.2.1). Explicit SBR/PS signalling (object type 5 or 29) and the
 * backward-compatible sync extension (0x2b7 with sbrPresentFlag) both make HE-AAC.
 */
export function parseAudioSpecificConfig(b: Uint8Array, start: number, end: number): AudioConfig {
  const r = new BitReader(b, start, end);
  let aot = audioObjectType(r);
  let rate = samplingFrequency(r);
  const channelConfig = r.u(4);
  let sbr = false;
  if (aot === 5 || aot === 29) {
    sbr = true;
    rate = samplingFrequency(r) ?? rate; // extension (output) rate
    aot = audioObjectType(r);
  }
  const result = (): AudioConfig => ({
    codec: sbr ? "he-aac" : aacCodecName(aot),
    sample_rate: rate,
    channels: channelConfig >= 1 && channelConfig <= 6 ? channelConfig : channelConfig === 7 ? 8 : null,
  });
  try {
    if (!sbr && (aot === 2 || aot === 1 || aot === 4) && channelConfig !== 0) {
      // GASpecificConfig without a program config element: frameLengthFlag, dependsOnCoreCoder, extensionFlag.
      r.u(1);
      if (r.flag()) r.u(14);
      r.u(1);
      if (r.bitsLeft >= 16 && r.u(11) === 0x2b7 && audioObjectType(r) === 5 && r.flag()) {
        sbr = true;
        rate = samplingFrequency(r) ?? rate;
      }
    }
  } catch {
    // A config that ends early still told us its object type.
  }
  return result();
}

/**
 * What an AudioSpecificConfig's core decodes per access unit: its frame length (1024, or 960 with frameLengthFlag) at
 * its core rate, for AAC Main, LC and LTP, and SBR/PS over them (their output, twice the samples at twice the rate,
 * lasts as long). Anything else, or a config cut short: null.
 */
export function aacCore(b: Uint8Array, start: number, end: number): { frameLength: number; rate: number } | null {
  try {
    const r = new BitReader(b, start, end);
    let aot = audioObjectType(r);
    const rate = samplingFrequency(r);
    r.u(4); // channel configuration
    if (aot === 5 || aot === 29) {
      samplingFrequency(r); // the SBR output rate: the core's is the one its frames are counted at
      aot = audioObjectType(r);
    }
    if (aot !== 1 && aot !== 2 && aot !== 4) return null;
    const frameLength = r.flag() ? 960 : 1024;
    return rate !== null && rate > 0 ? { frameLength, rate } : null;
  } catch {
    return null;
  }
}

/** MPEG-4 objectTypeIndication values (ISO 14496-1 table 5) that name an audio codec outright. */
const OBJECT_TYPES: Record<number, string> = {
  102: "aac-main",
  103: "aac-lc",
  104: "aac-ssr",
  105: "mp3",
  107: "mp3",
  165: "ac3",
  166: "eac3",
  169: "dts",
  173: "opus",
  221: "vorbis",
};

function descriptorHeader(b: Uint8Array, pos: number, end: number): { tag: number; size: number; body: number } {
  const tag = u8(b, pos);
  let size = 0;
  let p = pos + 1;
  for (let i = 0; i < 4; i++) {
    const v = u8(b, p++);
    size = size * 128 + (v & 0x7f);
    if (!(v & 0x80)) break;
  }
  if (p + size > end) throw new CorruptError("esds descriptor overruns its box");
  return { tag, size, body: p };
}

/**
 * Elementary stream descriptor (esds payload after version/flags): the DecoderConfigDescriptor's
 * objectTypeIndication and where its (last) DecoderSpecificInfo lies. Throws CorruptError on a broken structure.
 */
export function esdsDescriptors(b: Uint8Array, start: number, end: number): { objectType: number; specific: [number, number] | null } {
  const es = descriptorHeader(b, start, end);
  if (es.tag !== 3) throw new CorruptError("esds without ES_Descriptor");
  const esEnd = es.body + es.size;
  let pos = es.body + 2;
  const flags = u8(b, pos++);
  if (flags & 0x80) pos += 2;
  if (flags & 0x40) pos += 1 + u8(b, pos);
  if (flags & 0x20) pos += 2;
  while (pos + 2 <= esEnd) {
    const d = descriptorHeader(b, pos, esEnd);
    if (d.tag === 4) {
      const objectType = u8(b, d.body);
      const dcEnd = d.body + d.size;
      let p = d.body + 13;
      let specific: [number, number] | null = null;
      while (p + 2 <= dcEnd) {
        const s = descriptorHeader(b, p, dcEnd);
        if (s.tag === 5 && s.size > 0) specific = [s.body, s.body + s.size];
        p = s.body + s.size;
      }
      return { objectType, specific };
    }
    pos = d.body + d.size;
  }
  throw new CorruptError("esds without DecoderConfigDescriptor");
}

/** Elementary stream descriptor (esds payload after version/flags): codec from objectTypeIndication and the ASC. */
export function parseEsds(b: Uint8Array, start: number, end: number): { objectType: number; audio: AudioConfig | null } {
  const { objectType, specific } = esdsDescriptors(b, start, end);
  if (specific && objectType === 0x40) return { objectType, audio: parseAudioSpecificConfig(b, specific[0], specific[1]) };
  const codec = OBJECT_TYPES[objectType];
  return { objectType, audio: codec ? { codec, sample_rate: null, channels: null } : null };
}
