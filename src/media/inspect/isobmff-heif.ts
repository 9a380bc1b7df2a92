/** HEIF (ISO/IEC 23008-12) item properties of isobmff.ts: the primary image's size and codec configuration. */
import { CorruptError, corrupt, fourcc, u8, u16be, u32be, u64be } from "./bytes";
import { parseAv1C, parseHvcC, type VideoConfig } from "./codecs";
import { positiveInt } from "./detection";
import { type Box, boxes, child, children } from "./isobmff-box";

export interface HeifImage {
  width: number | null;
  height: number | null;
  config: VideoConfig | null;
  bits: number | null;
}

/** HEIF `meta` (ISO/IEC 23008-12): the primary item, its `ispe` size and its codec configuration. */
export function parseMeta(b: Uint8Array, meta: Box): HeifImage | null {
  // ISO `meta` is a full box; QuickTime's is not. Tell them apart by where `hdlr` sits.
  const full = meta.end - meta.body >= 12 && fourcc(b, meta.body + 8) === "hdlr";
  const kids = boxes(b, meta.body + (full ? 4 : 0), meta.end, 1);
  const hdlr = child(kids, "hdlr");
  if (!hdlr || hdlr.end - hdlr.body < 12 || fourcc(b, hdlr.body + 8) !== "pict") return null;
  const pitm = child(kids, "pitm");
  if (!pitm) corrupt("HEIF without a primary item");
  const primary = u8(b, pitm.body) === 0 ? u16be(b, pitm.body + 4) : u32be(b, pitm.body + 4);

  const types = new Map<number, string>();
  const iinf = child(kids, "iinf");
  if (iinf) {
    const v0 = u8(b, iinf.body) === 0;
    for (const infe of boxes(b, iinf.body + (v0 ? 6 : 8), iinf.end, 2)) {
      if (infe.type !== "infe") continue;
      const version = u8(b, infe.body);
      if (version < 2) continue;
      const id = version === 2 ? u16be(b, infe.body + 4) : u32be(b, infe.body + 4);
      const typeAt = infe.body + (version === 2 ? 8 : 10);
      types.set(id, fourcc(b, typeAt));
    }
  }

  const iloc = child(kids, "iloc");
  if (iloc) checkItemLocations(b, iloc);

  const props: Box[] = [];
  const assoc = new Map<number, number[]>();
  const iprp = children(b, child(kids, "iprp"), 2);
  const ipco = child(iprp, "ipco");
  if (ipco) props.push(...boxes(b, ipco.body, ipco.end, 3));
  const ipma = child(iprp, "ipma");
  if (ipma) {
    const version = u8(b, ipma.body);
    const wide = (u8(b, ipma.body + 3) & 1) === 1;
    const count = u32be(b, ipma.body + 4);
    let pos = ipma.body + 8;
    for (let i = 0; i < count; i++) {
      if (pos >= ipma.end) corrupt("ipma entries overrun the box");
      const id = version < 1 ? u16be(b, pos) : u32be(b, pos);
      pos += version < 1 ? 2 : 4;
      const n = u8(b, pos++);
      const list: number[] = [];
      for (let k = 0; k < n; k++) {
        const index = wide ? u16be(b, pos) & 0x7fff : u8(b, pos) & 0x7f;
        pos += wide ? 2 : 1;
        list.push(index);
      }
      if (pos > ipma.end) corrupt("ipma entries overrun the box");
      assoc.set(id, list);
    }
  }
  const propsOf = (id: number) => (assoc.get(id) ?? []).map((i) => props[i - 1]).filter((p): p is Box => p !== undefined);

  const coded = (t: string | undefined) => t === "hvc1" || t === "av01" || t === "jpeg";
  const primaryType = types.get(primary);
  if (types.size > 0 && primaryType === undefined) corrupt("HEIF primary item has no item info");
  const codedId = coded(primaryType) ? primary : [...types].find(([, t]) => coded(t))?.[0];

  let width: number | null = null;
  let height: number | null = null;
  for (const p of propsOf(primary)) {
    if (p.type === "ispe" && p.end - p.body >= 12) {
      width = positiveInt(u32be(b, p.body + 4));
      height = positiveInt(u32be(b, p.body + 8));
    }
  }
  let config: VideoConfig | null = null;
  let bits: number | null = null;
  for (const p of propsOf(codedId ?? primary)) {
    try {
      if (p.type === "hvcC") config = parseHvcC(b, p.body, p.end);
      else if (p.type === "av1C") config = parseAv1C(b, p.body, p.end);
    } catch (err) {
      if (!(err instanceof CorruptError)) throw err;
      corrupt(`${p.type}: ${err.message}`);
    }
    if (p.type === "pixi" && p.end - p.body >= 6) bits = u8(b, p.body + 5);
  }
  return { width, height, config, bits };
}

/** iloc extents stored in the file (construction method 0) must lie inside it: a cut-off image fails here. */
export function checkItemLocations(b: Uint8Array, iloc: Box): void {
  const version = u8(b, iloc.body);
  if (version > 2) return;
  const sizes = u16be(b, iloc.body + 4);
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 15;
  const baseSize = (sizes >> 4) & 15;
  const indexSize = version >= 1 ? sizes & 15 : 0;
  for (const s of [offsetSize, lengthSize, baseSize, indexSize]) if (s !== 0 && s !== 4 && s !== 8) corrupt("iloc field size invalid");
  const read = (at: number, size: number) => (size === 0 ? 0 : size === 4 ? u32be(b, at) : u64be(b, at));
  let pos = iloc.body + 6;
  const count = version < 2 ? u16be(b, pos) : u32be(b, pos);
  pos += version < 2 ? 2 : 4;
  for (let i = 0; i < count; i++) {
    if (pos >= iloc.end) corrupt("iloc entries overrun the box");
    pos += version < 2 ? 2 : 4; // item_ID
    let method = 0;
    if (version >= 1) {
      method = u16be(b, pos) & 15;
      pos += 2;
    }
    pos += 2; // data_reference_index
    const base = read(pos, baseSize);
    pos += baseSize;
    const extents = u16be(b, pos);
    pos += 2;
    for (let k = 0; k < extents; k++) {
      pos += indexSize;
      const offset = read(pos, offsetSize);
      pos += offsetSize;
      const length = read(pos, lengthSize);
      pos += lengthSize;
      if (pos > iloc.end) corrupt("iloc entries overrun the box");
      if (method === 0 && base + offset + length > b.length) corrupt("HEIF item data overruns the file");
    }
  }
}
