/**
 * Seeded, structure-aware breaks of real media for the reliability campaign (#22): ISO BMFF boxes (sizes, counts,
 * duplicated/removed/reordered/truncated boxes, fields at edge values, 64-bit sizes), FLAC metadata and frames, JPEG
 * segments, plus raw bit flips and truncations. Each break takes a fresh copy (the input is never modified) and a
 * prng, so a case replays from its seed. Structural edits keep every enclosing box's size consistent, so the parser
 * meets the break where it was made, not at the first container.
 */

export type Mutation = (input: Uint8Array, rand: () => number) => { bytes: Uint8Array; how: string };

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** Boxes whose body is a list of boxes (the ones the timing and codec floor read descend through these). */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "mvex", "moof", "traf", "dinf", "udta", "mfra"]);
/** Sample entries (inside `stsd`) and the offset of their child boxes from the entry's body. */
const SAMPLE_ENTRIES: Record<string, number> = {
  mp4a: 28,
  alac: 28,
  "ac-3": 28,
  "ec-3": 28,
  Opus: 28,
  sowt: 28,
  twos: 28,
  lpcm: 28,
  ipcm: 28,
  fLaC: 28,
  avc1: 78,
};

export interface Box {
  type: string;
  /** Offset of the box's first byte. */
  at: number;
  /** Header length (8, or 16 with a 64-bit size). */
  header: number;
  /** Whole size in bytes (to the end of its parent for size 0). */
  size: number;
  /** Offsets of the enclosing boxes' starts, outermost first. */
  parents: number[];
}

/** Every box of `b` in file order, containers, `stsd` and its sample entries descended; stops at the first box that does not fit. */
export function boxes(b: Uint8Array, start = 0, end = b.length, parents: number[] = [], out: Box[] = []): Box[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = start; at + 8 <= end && out.length < 20_000; ) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    out.push({ type, at, header, size, parents });
    const inner = [...parents, at];
    if (CONTAINERS.has(type)) boxes(b, at + header, at + size, inner, out);
    else if (type === "stsd") boxes(b, at + header + 8, at + size, inner, out);
    else if (SAMPLE_ENTRIES[type] !== undefined) boxes(b, at + header + SAMPLE_ENTRIES[type]!, at + size, inner, out);
    at += size;
  }
  return out;
}

/**
 * `b` with `remove` bytes at `at` replaced by `insert`, and the size of every box in `parents` (offsets in `b`)
 * moved by the difference (a 32-bit or 64-bit size; a size 0 box runs to its end anyway).
 */
function splice(b: Uint8Array, parents: number[], at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at));
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  const delta = insert.length - remove;
  const view = new DataView(out.buffer);
  for (const p of parents) {
    const size = view.getUint32(p);
    if (size === 1) view.setBigUint64(p + 8, view.getBigUint64(p + 8) + BigInt(delta));
    else if (size !== 0) view.setUint32(p, size + delta);
  }
  return out;
}

/** `b` without `box` (one of `boxes(b)`), every enclosing box's size moved to match. */
export function withoutBox(b: Uint8Array, box: Box): Uint8Array {
  return splice(b, box.parents, box.at, box.size, new Uint8Array(0));
}

/** Boxes the duration, the codec floor and the sample tables read: the ones worth breaking field by field. */
const TIMING = [
  "mvhd",
  "mdhd",
  "tkhd",
  "elst",
  "stts",
  "ctts",
  "stsz",
  "stsc",
  "stco",
  "co64",
  "stss",
  "trun",
  "tfhd",
  "tfdt",
  "mehd",
  "trex",
  "esds",
  "dac3",
  "dec3",
  "dOps",
  "alac",
  "mp4a",
  "ac-3",
  "ec-3",
  "Opus",
  "sowt",
  "twos",
  "stsd",
  "hdlr",
  "sidx",
];
/** FullBox counts at body offset 4 (stsz's at 8). */
const COUNTED: Record<string, number> = { stts: 4, ctts: 4, stsc: 4, stco: 4, co64: 4, stss: 4, elst: 4, trun: 4, stsd: 4, stsz: 8 };
const EDGES = [0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];

/** A box chosen at random, preferring the timing boxes half the time. */
function someBox(list: Box[], rand: () => number, filter: (b: Box) => boolean = () => true): Box | undefined {
  const fit = list.filter(filter);
  const timing = fit.filter((b) => TIMING.includes(b.type));
  const from = timing.length > 0 && rand() < 0.5 ? timing : fit;
  return from.length === 0 ? undefined : pick(rand, from);
}

/** ISO BMFF breaks (MP4, M4A, MOV): each names the box it broke. */
export const BMFF_MUTATIONS: [string, Mutation][] = [
  [
    "box size at an edge",
    (input, rand) => {
      const b = input.slice();
      const box = someBox(boxes(b), rand);
      if (!box) return { bytes: b, how: "no box" };
      const view = new DataView(b.buffer);
      const value = pick(rand, [0, 1, 7, 8, box.size - 1, box.size + 1, box.size + 4096, 0xffff_ffff]);
      view.setUint32(box.at, value >>> 0);
      // Size 1 names a 64-bit size: the next 8 bytes (the type's successor) now read as one, far past the file.
      if (value === 1 && box.header === 8 && box.at + 16 <= b.length) view.setBigUint64(box.at + 8, 0xffff_ffff_ffffn);
      return { bytes: b, how: `${box.type} at ${box.at} sized ${value}` };
    },
  ],
  [
    "64-bit size",
    (input, rand) => {
      // The same box in the 64-bit size form (valid ISO BMFF): parents grow by 8; or its high word set (past any file).
      const list = boxes(input).filter((x) => x.header === 8);
      const box = someBox(list, rand);
      if (!box) return { bytes: input.slice(), how: "no box" };
      const huge = rand() < 0.3;
      const head = new Uint8Array(16);
      const view = new DataView(head.buffer);
      view.setUint32(0, 1);
      head.set(input.subarray(box.at + 4, box.at + 8), 4);
      view.setBigUint64(8, huge ? (1n << 40n) + BigInt(box.size + 8) : BigInt(box.size + 8));
      return {
        bytes: splice(input, box.parents, box.at, 8, head),
        how: `${box.type} at ${box.at} as a 64-bit size${huge ? " past 2^40" : ""}`,
      };
    },
  ],
  [
    "box duplicated",
    (input, rand) => {
      const box = someBox(boxes(input), rand, (x) => x.size < 1 << 20);
      if (!box) return { bytes: input.slice(), how: "no box" };
      const copy = input.slice(box.at, box.at + box.size);
      const times = rand() < 0.2 ? 1 + Math.floor(rand() * Math.min(2000, (1 << 21) / box.size)) : 1;
      const insert = new Uint8Array(copy.length * times);
      for (let k = 0; k < times; k++) insert.set(copy, k * copy.length);
      return { bytes: splice(input, box.parents, box.at + box.size, 0, insert), how: `${box.type} at ${box.at} duplicated ${times}×` };
    },
  ],
  [
    "box removed",
    (input, rand) => {
      const box = someBox(boxes(input), rand);
      if (!box) return { bytes: input.slice(), how: "no box" };
      return { bytes: splice(input, box.parents, box.at, box.size, new Uint8Array(0)), how: `${box.type} at ${box.at} removed` };
    },
  ],
  [
    "boxes reordered",
    (input, rand) => {
      // A box swapped with its next sibling (box order inside moov, trak, traf and at the top level is free or not).
      const list = boxes(input);
      const pairs = list.flatMap((x) => {
        const next = list.find((y) => y.at === x.at + x.size && y.parents.length === x.parents.length);
        return next ? [[x, next] as [Box, Box]] : [];
      });
      if (pairs.length === 0) return { bytes: input.slice(), how: "no pair" };
      const [a, c] = pick(rand, pairs);
      const out = input.slice();
      out.set(input.subarray(c.at, c.at + c.size), a.at);
      out.set(input.subarray(a.at, a.at + a.size), a.at + c.size);
      return { bytes: out, how: `${a.type} at ${a.at} swapped with ${c.type}` };
    },
  ],
  [
    "box body truncated",
    (input, rand) => {
      // The box ends early but its size says so: a table shorter than its count, a header missing its fields.
      const box = someBox(boxes(input), rand, (x) => x.size > x.header);
      if (!box) return { bytes: input.slice(), how: "no box" };
      const body = box.size - box.header;
      const cut = 1 + Math.floor(rand() * body);
      const out = splice(input, box.parents, box.at + box.size - cut, cut, new Uint8Array(0));
      const view = new DataView(out.buffer);
      if (box.header === 16) view.setBigUint64(box.at + 8, BigInt(box.size - cut));
      else if (view.getUint32(box.at) !== 0) view.setUint32(box.at, box.size - cut);
      return { bytes: out, how: `${box.type} at ${box.at} cut by ${cut}` };
    },
  ],
  [
    "field at an edge",
    (input, rand) => {
      // A 32-bit word of a timing box (timescale, duration, delta, count, flags, default duration, decode time…).
      const b = input.slice();
      const box = someBox(boxes(b), rand, (x) => TIMING.includes(x.type) && x.size >= x.header + 4);
      if (!box) return { bytes: b, how: "no timing box" };
      const words = Math.floor((box.size - box.header) / 4);
      const w = Math.floor(rand() * Math.min(words, 16));
      const view = new DataView(b.buffer);
      const at = box.at + box.header + w * 4;
      const old = view.getUint32(at);
      const value = pick(rand, [...EDGES, old + 1, old - 1, old * 1000, old >>> 8]) >>> 0;
      view.setUint32(at, value);
      return { bytes: b, how: `${box.type} at ${box.at} word ${w}: ${old} → ${value}` };
    },
  ],
  [
    "count inflated",
    (input, rand) => {
      // An entry or sample count past its table: one more, 2^31, 2^32-1 (huge sample counts in stts/trun/stsz).
      const b = input.slice();
      const box = someBox(boxes(b), rand, (x) => COUNTED[x.type] !== undefined && x.size >= x.header + COUNTED[x.type]! + 4);
      if (!box) return { bytes: b, how: "no counted box" };
      const view = new DataView(b.buffer);
      const at = box.at + box.header + COUNTED[box.type]!;
      const old = view.getUint32(at);
      const value = pick(rand, [old + 1, old * 2, 0x10000, 0x8000_0000, 0xffff_ffff, 0]) >>> 0;
      view.setUint32(at, value);
      return { bytes: b, how: `${box.type} count ${old} → ${value}` };
    },
  ],
  [
    "version or flags changed",
    (input, rand) => {
      // A FullBox read with the other version (64-bit fields in a 32-bit box) or other flags (trun/tfhd optional fields).
      const b = input.slice();
      const box = someBox(boxes(b), rand, (x) => TIMING.includes(x.type) && x.size >= x.header + 4);
      if (!box) return { bytes: b, how: "no full box" };
      const at = box.at + box.header;
      if (rand() < 0.5) {
        const v = pick(rand, [0, 1, 2, 255]);
        b[at] = v;
        return { bytes: b, how: `${box.type} version ${v}` };
      }
      const bit = Math.floor(rand() * 24);
      b[at + 1 + (2 - (bit >> 3))]! ^= 1 << (bit & 7);
      return { bytes: b, how: `${box.type} flag bit ${bit} flipped` };
    },
  ],
];

/** Raw breaks for every format. */
export const RAW_MUTATIONS: [string, Mutation][] = [
  [
    "bits flipped",
    (input, rand) => {
      const b = input.slice();
      const flips = 1 + Math.floor(rand() * 16);
      for (let i = 0; i < flips; i++) b[Math.floor(rand() * b.length)]! ^= 1 << Math.floor(rand() * 8);
      return { bytes: b, how: `${flips} bits flipped` };
    },
  ],
  [
    "truncated",
    (input, rand) => {
      const keep = Math.max(1, Math.floor(input.length * rand()));
      return { bytes: input.slice(0, keep), how: `truncated to ${keep}` };
    },
  ],
];

/** FLAC breaks: STREAMINFO fields, metadata block headers, frames (sync codes, block sizes, repeats). */
export const FLAC_MUTATIONS: [string, Mutation][] = [
  [
    "STREAMINFO field at an edge",
    (input, rand) => {
      // STREAMINFO body at 8: min/max block (16 bits each), min/max frame (24 each), rate (20), channels-1 (3),
      // bits-1 (5), total samples (36).
      const b = input.slice();
      const view = new DataView(b.buffer);
      const field = Math.floor(rand() * 5);
      if (field === 0) view.setUint16(8 + pick(rand, [0, 2]), pick(rand, [0, 1, 15, 16, 0xffff]));
      else if (field === 1) {
        // sample rate: 20 bits at byte 18
        const rate = pick(rand, [0, 1, 8, 655_350, 0xfffff]);
        b[18] = rate >> 12;
        b[19] = (rate >> 4) & 0xff;
        b[20] = ((rate & 15) << 4) | (b[20]! & 15);
      } else if (field === 2) {
        // total samples: 36 bits ending at byte 25
        const total = pick(rand, [0, 1, 0xf_ffff_ffff, 0x8_0000_0000]);
        b[21] = (b[21]! & 0xf0) | Math.floor(total / 2 ** 32);
        view.setUint32(22, total >>> 0);
      } else if (field === 3) view.setUint16(12, pick(rand, [0, 0xffff]));
      else b[20] = pick(rand, [0, 0xff]);
      return { bytes: b, how: `STREAMINFO field ${field} at an edge` };
    },
  ],
  [
    "metadata block header broken",
    (input, rand) => {
      // A block length (24 bits) inflated, the last-block flag cleared or set early, a type changed.
      const b = input.slice();
      const blocks: number[] = [];
      for (let at = 4; at + 4 <= b.length && blocks.length < 64; ) {
        blocks.push(at);
        const last = b[at]! & 0x80;
        at += 4 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
        if (last) break;
      }
      const at = pick(rand, blocks);
      const how = Math.floor(rand() * 3);
      if (how === 0) {
        const len = pick(rand, [0, 1, 0xffffff, b.length]);
        b[at + 1] = (len >> 16) & 0xff;
        b[at + 2] = (len >> 8) & 0xff;
        b[at + 3] = len & 0xff;
      } else if (how === 1) b[at]! ^= 0x80;
      else b[at] = (b[at]! & 0x80) | pick(rand, [0, 1, 4, 6, 127]);
      return { bytes: b, how: `metadata block at ${at} ${["length at an edge", "last flag flipped", "type changed"][how]}` };
    },
  ],
  [
    "frames repeated or spliced",
    (input, rand) => {
      // A run of frame bytes repeated many times (false and real syncs by the thousand), or deleted.
      const from = Math.min(input.length - 1, 42 + Math.floor(rand() * (input.length - 42)));
      const len = Math.min(input.length - from, 16 + Math.floor(rand() * 2048));
      if (rand() < 0.3) return { bytes: splice(input, [], from, len, new Uint8Array(0)), how: `${len} frame bytes at ${from} deleted` };
      const times = Math.max(2, Math.min(1000, Math.floor((1 << 21) / len)));
      const insert = new Uint8Array(len * times);
      for (let k = 0; k < times; k++) insert.set(input.subarray(from, from + len), k * len);
      return { bytes: splice(input, [], from, 0, insert), how: `${len} frame bytes at ${from} repeated ${times}×` };
    },
  ],
  [
    "frame header changed",
    (input, rand) => {
      // A frame header (sync 0xFFF8/0xFFF9) with its block size or rate code changed: CRC-8 now wrong, or sync forged.
      const b = input.slice();
      const syncs: number[] = [];
      for (let i = 42; i + 4 < b.length; i++) if (b[i] === 0xff && (b[i + 1]! & 0xfe) === 0xf8) syncs.push(i);
      if (syncs.length === 0) return { bytes: b, how: "no frame" };
      const at = pick(rand, syncs);
      b[at + 2] = Math.floor(rand() * 256);
      return { bytes: b, how: `frame at ${at} block/rate byte ${b[at + 2]}` };
    },
  ],
];

/** JPEG segments (markers 0xFFxx with a 16-bit length, then entropy-coded data after SOS). */
function segments(b: Uint8Array): { marker: number; at: number; length: number }[] {
  const out: { marker: number; at: number; length: number }[] = [];
  for (let i = 2; i + 4 <= b.length; ) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    out.push({ marker, at: i, length });
    i += 2 + length;
  }
  return out;
}

/** JPEG breaks: segment lengths, SOF dimensions and components, scan parameters, segments duplicated or removed. */
export const JPEG_MUTATIONS: [string, Mutation][] = [
  [
    "segment length at an edge",
    (input, rand) => {
      const b = input.slice();
      const segs = segments(b);
      if (segs.length === 0) return { bytes: b, how: "no segment" };
      const s = pick(rand, segs);
      const v = pick(rand, [0, 1, 2, s.length - 1, s.length + 1, 0xffff]);
      new DataView(b.buffer).setUint16(s.at + 2, v & 0xffff);
      return { bytes: b, how: `FF${s.marker.toString(16)} at ${s.at} length ${s.length} → ${v}` };
    },
  ],
  [
    "frame or scan header at an edge",
    (input, rand) => {
      // SOF: precision, height, width, component count, sampling factors, table ids; SOS: component count,
      // spectral selection (Ss, Se) and successive approximation (Ah/Al) — the progressive decoder's inputs.
      const b = input.slice();
      const segs = segments(b).filter((s) => (s.marker >= 0xc0 && s.marker <= 0xc2) || s.marker === 0xda);
      if (segs.length === 0) return { bytes: b, how: "no SOF/SOS" };
      const s = pick(rand, segs);
      const off = 4 + Math.floor(rand() * Math.max(1, s.length - 2));
      const v = pick(rand, [0, 1, 0x0f, 0x10, 0x3f, 0x40, 0x44, 0xff]);
      if (s.at + off < b.length) b[s.at + off] = v;
      return { bytes: b, how: `FF${s.marker.toString(16)} byte ${off} → ${v}` };
    },
  ],
  [
    "segment duplicated or removed",
    (input, rand) => {
      const segs = segments(input);
      if (segs.length === 0) return { bytes: input.slice(), how: "no segment" };
      const s = pick(rand, segs);
      const end = Math.min(input.length, s.at + 2 + s.length);
      if (rand() < 0.5) return { bytes: splice(input, [], s.at, end - s.at, new Uint8Array(0)), how: `FF${s.marker.toString(16)} removed` };
      const times = rand() < 0.3 ? 200 : 1;
      const seg = input.subarray(s.at, end);
      const insert = new Uint8Array(seg.length * times);
      for (let k = 0; k < times; k++) insert.set(seg, k * seg.length);
      return { bytes: splice(input, [], end, 0, insert), how: `FF${s.marker.toString(16)} duplicated ${times}×` };
    },
  ],
];
