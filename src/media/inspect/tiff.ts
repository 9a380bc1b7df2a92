import { corrupt, startsWith, u16be, u16le, u32be, u32le, u64be, u64le } from "./bytes";
import { type Detection, detection, positiveInt } from "./detection";

/** TIFF and BigTIFF, either byte order; DNG and other TIFF-based raws share the structure. */
export function isTiff(b: Uint8Array): boolean {
  return (
    startsWith(b, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(b, [0x49, 0x49, 0x2b, 0x00]) ||
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2b])
  );
}

const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
  16: 8,
  17: 8,
  18: 8,
};
const MAX_IFDS = 256;
const MAX_VALUES = 1 << 20;

const TAG = {
  newSubfileType: 254,
  width: 256,
  height: 257,
  bitsPerSample: 258,
  photometric: 262,
  stripOffsets: 273,
  stripByteCounts: 279,
  tileOffsets: 324,
  tileByteCounts: 325,
  subIfds: 330,
  ycbcrSubsampling: 530,
  dngVersion: 50706,
  c2pa: 52545,
};

interface Ifd {
  values: Map<number, number[]>;
  next: number;
}

class TiffReader {
  readonly little: boolean;
  readonly big: boolean;
  constructor(private readonly b: Uint8Array) {
    this.little = b[0] === 0x49;
    this.big = (this.little ? u16le(b, 2) : u16be(b, 2)) === 43;
  }
  u16(o: number) {
    return this.little ? u16le(this.b, o) : u16be(this.b, o);
  }
  u32(o: number) {
    return this.little ? u32le(this.b, o) : u32be(this.b, o);
  }
  u64(o: number) {
    return this.little ? u64le(this.b, o) : u64be(this.b, o);
  }
  offset(o: number) {
    return this.big ? this.u64(o) : this.u32(o);
  }

  firstIfd(): number {
    if (!this.big) return this.u32(4);
    if (this.u16(4) !== 8) corrupt("BigTIFF offset size is not 8");
    return this.u64(8);
  }

  /** Reads one IFD, keeping integer values of the tags we use; every value's range is checked. */
  ifd(at: number): Ifd {
    const b = this.b;
    const countSize = this.big ? 8 : 2;
    const entrySize = this.big ? 20 : 12;
    const inline = this.big ? 8 : 4;
    const count = this.big ? this.u64(at) : this.u16(at);
    const first = at + countSize;
    if (count === 0) corrupt("TIFF IFD without entries");
    if (first + count * entrySize + inline > b.length) corrupt("TIFF IFD overruns the file");
    const values = new Map<number, number[]>();
    const wanted = new Set<number>(Object.values(TAG));
    for (let i = 0; i < count; i++) {
      const e = first + i * entrySize;
      const tag = this.u16(e);
      const type = this.u16(e + 2);
      const n = this.big ? this.u64(e + 4) : this.u32(e + 4);
      const size = TYPE_SIZES[type];
      if (size === undefined) continue; // unknown type: skip, its size is unknown
      const bytes = n * size;
      const valueAt = bytes <= inline ? e + (this.big ? 12 : 8) : this.offset(e + (this.big ? 12 : 8));
      if (valueAt + bytes > b.length) corrupt(`TIFF tag ${tag} value overruns the file`);
      if (!wanted.has(tag)) continue;
      if (tag === TAG.c2pa || tag === TAG.dngVersion) {
        values.set(tag, [n]);
        continue;
      }
      if (n > MAX_VALUES) corrupt(`TIFF tag ${tag} has too many values`);
      const list: number[] = [];
      for (let k = 0; k < n; k++) {
        const o = valueAt + k * size;
        if (type === 3 || type === 8) list.push(this.u16(o));
        else if (type === 4 || type === 9 || type === 13) list.push(this.u32(o));
        else if (type === 16 || type === 17 || type === 18) list.push(this.u64(o));
        else if (type === 1 || type === 6 || type === 7) list.push(b[o]!);
        else break;
      }
      values.set(tag, list);
    }
    const next = this.offset(first + count * entrySize);
    return { values, next };
  }
}

/** Every strip or tile must lie inside the file; a cut-off file fails here. */
function checkImageData(b: Uint8Array, ifd: Ifd): void {
  for (const [offsetsTag, countsTag] of [
    [TAG.stripOffsets, TAG.stripByteCounts],
    [TAG.tileOffsets, TAG.tileByteCounts],
  ] as const) {
    const offsets = ifd.values.get(offsetsTag);
    const counts = ifd.values.get(countsTag);
    if (!offsets || !counts) continue;
    for (let i = 0; i < Math.min(offsets.length, counts.length); i++) {
      if (offsets[i]! + counts[i]! > b.length) corrupt("TIFF image data overruns the file");
    }
  }
}

export function parseTiff(b: Uint8Array): Detection {
  const r = new TiffReader(b);
  const ifds: Ifd[] = [];
  const seen = new Set<number>();
  let at = r.firstIfd();
  if (at === 0) corrupt("TIFF without an IFD");
  while (at !== 0) {
    if (seen.has(at) || ifds.length >= MAX_IFDS) corrupt("TIFF IFD chain loops or is too long");
    seen.add(at);
    const ifd = r.ifd(at);
    checkImageData(b, ifd);
    ifds.push(ifd);
    at = ifd.next;
  }
  const ifd0 = ifds[0]!;
  // One level of SubIFDs (DNG keeps the raw image there, IFD0 being a preview).
  const subs: Ifd[] = [];
  for (const off of ifd0.values.get(TAG.subIfds)?.slice(0, 64) ?? []) {
    if (off === 0 || seen.has(off)) continue;
    seen.add(off);
    const sub = r.ifd(off);
    checkImageData(b, sub);
    subs.push(sub);
  }
  const all = [...ifds, ...subs];
  const isDng = ifd0.values.has(TAG.dngVersion);
  const isRaw = all.some((d) => {
    const p = d.values.get(TAG.photometric)?.[0];
    return p === 32803 || p === 34892; // CFA, LinearRaw
  });
  const c2pa = ifd0.values.has(TAG.c2pa);
  // The primary image is the full-resolution one (NewSubfileType 0, the default), largest first.
  const candidates = all.filter((d) => (d.values.get(TAG.newSubfileType)?.[0] ?? 0) === 0 && d.values.has(TAG.width));
  const primary = candidates.sort((x, y) => (y.values.get(TAG.width)![0] ?? 0) - (x.values.get(TAG.width)![0] ?? 0))[0] ?? ifd0;
  const width = primary.values.get(TAG.width)?.[0] ?? 0;
  const height = primary.values.get(TAG.height)?.[0] ?? 0;
  if (!isDng && !isRaw && (width === 0 || height === 0)) corrupt("TIFF without image dimensions");
  const bits = primary.values.get(TAG.bitsPerSample)?.[0] ?? 1;
  let chroma: string | null = null;
  if (primary.values.get(TAG.photometric)?.[0] === 6) {
    const [h, v] = primary.values.get(TAG.ycbcrSubsampling) ?? [2, 2];
    chroma =
      h === 1 && v === 1 ? "4:4:4" : h === 2 && v === 1 ? "4:2:2" : h === 2 && v === 2 ? "4:2:0" : h === 4 && v === 1 ? "4:1:1" : null;
  }
  const facts = {
    width: positiveInt(width),
    height: positiveInt(height),
    bit_depth: positiveInt(bits),
    chroma_subsampling: chroma,
    has_c2pa_manifest: c2pa,
  };
  if (isDng) return detection("image/x-adobe-dng", "tiff", facts, ["image/x-tiff-based"]);
  // Camera raws other than DNG (CR2, NEF, ARW, …) are TIFF-based but no reviewed format by themselves.
  const cr2 = b[8] === 0x43 && b[9] === 0x52;
  if (isRaw || cr2) return detection("image/x-tiff-based", "tiff", facts);
  return detection("image/tiff", "tiff", facts, ["image/x-tiff-based"]);
}
