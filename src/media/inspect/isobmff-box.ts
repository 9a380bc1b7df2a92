/**
 * The ISO BMFF box reader of isobmff.ts: every size checked against its parent, nesting bounded by MAX_DEPTH.
 */
import { corrupt, fourcc, u8, u32be, u64be } from "./bytes";

/** One box: [start, end) lies inside its parent, `body` is where the payload starts (after size, type, largesize). */
export interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

export const MAX_DEPTH = 12;
/** Keeps the box list of one level small enough for a 128 MB isolate (a file of 8-byte boxes would not be). */
export const MAX_BOXES_PER_LEVEL = 200_000;
/**
 * Top-level boxes a file may hold, on every path: the in-memory reader (its list of them) and the streamed walk of
 * large uploads (c2pa/bmff.ts) refuse the same files. The in-memory list's bound, which the streamed walk (no list)
 * had halved: a long low-latency CMAF recording (a `moof` and `mdat` per 0.2 s part: 144,000 boxes in 4 h, the
 * pricing envelope) needs more than 100,000; past 200,000 a 4 h file would need parts under 0.15 s, and a file in
 * memory (at most 10 MiB) boxes of 50 bytes.
 */
export const MAXIMUM_TOP_LEVEL_BOXES = MAX_BOXES_PER_LEVEL;
export const FIRST_BOX_TYPES = new Set(["ftyp", "styp", "moov", "mdat", "free", "skip", "wide", "pnot"]);

export function isIsobmff(b: Uint8Array): boolean {
  if (b.length < 8) return false;
  const type = String.fromCharCode(b[4]!, b[5]!, b[6]!, b[7]!);
  if (!FIRST_BOX_TYPES.has(type)) return false;
  const size = u32be(b, 0);
  return size === 1 || size === 0 || size >= 8;
}

/** Child boxes of [start, end). A size that overruns the parent is corruption; so is a partial header. */
export function boxes(b: Uint8Array, start: number, end: number, depth: number): Box[] {
  if (depth > MAX_DEPTH) corrupt("boxes nested too deeply");
  const out: Box[] = [];
  let pos = start;
  while (pos < end) {
    const left = end - pos;
    if (left < 8) {
      // QuickTime allows a 32-bit zero terminator at the end of some atom lists.
      if (left === 4 && u32be(b, pos) === 0) break;
      corrupt("box header truncated");
    }
    let size = u32be(b, pos);
    const type = fourcc(b, pos + 4);
    let header = 8;
    if (size === 1) {
      if (left < 16) corrupt("box header truncated");
      size = u64be(b, pos + 8);
      header = 16;
    } else if (size === 0) {
      size = left; // runs to the end of its parent
    }
    if (size < header || size > left) corrupt(`'${printable(type)}' box overruns its parent`);
    if (out.length >= (depth === 0 ? MAXIMUM_TOP_LEVEL_BOXES : MAX_BOXES_PER_LEVEL))
      corrupt(depth === 0 ? `more than ${MAXIMUM_TOP_LEVEL_BOXES} top-level boxes` : "too many boxes in one level");
    out.push({ type, start: pos, body: pos + header, end: pos + size });
    pos += size;
  }
  return out;
}

export function printable(type: string): string {
  return type.replace(/[^\x20-\x7e]/g, "?");
}

export function child(list: Box[], type: string): Box | undefined {
  return list.find((x) => x.type === type);
}

export function children(b: Uint8Array, box: Box | undefined, depth: number, skip = 0): Box[] {
  return box ? boxes(b, box.body + skip, box.end, depth) : [];
}

/** Timescale and duration from mvhd/mdhd (version 0 or 1). An all-ones duration means unknown. */
export function timing(b: Uint8Array, box: Box | undefined): { timescale: number; duration: number } {
  if (!box) return { timescale: 0, duration: 0 };
  const v1 = u8(b, box.body) === 1;
  if (box.end - box.body < (v1 ? 32 : 20)) corrupt(`'${box.type}' box too short`);
  const timescale = u32be(b, box.body + (v1 ? 20 : 12));
  let duration: number;
  if (v1) {
    duration = u32be(b, box.body + 24) === 0xffffffff ? 0 : u64be(b, box.body + 24);
  } else {
    duration = u32be(b, box.body + 16);
    if (duration === 0xffffffff) duration = 0;
  }
  return { timescale, duration };
}
