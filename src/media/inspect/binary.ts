import { corrupt, fourcc, latin1, startsWith, u16be, u16le, u32be, u32le } from "./bytes";
import { type Detection, detection } from "./detection";

// ---- OpenType / TrueType (sfnt)

const SFNT_VERSIONS = new Set(["OTTO", "\x00\x01\x00\x00", "true", "typ1"]);

export function isSfnt(b: Uint8Array): boolean {
  return b.length >= 12 && SFNT_VERSIONS.has(fourcc(b, 0));
}

/**
 * OpenType font file: the table directory is read and every table must lie inside the file. CFF-flavoured
 * ('OTTO') and TrueType-flavoured fonts are both `font/otf` (OpenType covers both outline formats).
 */
export function parseSfnt(b: Uint8Array): Detection {
  const count = u16be(b, 4);
  if (count === 0) corrupt("font without tables");
  if (12 + count * 16 > b.length) corrupt("font table directory overruns the file");
  let c2pa = false;
  for (let i = 0; i < count; i++) {
    const r = 12 + i * 16;
    const tag = fourcc(b, r);
    const offset = u32be(b, r + 8);
    const length = u32be(b, r + 12);
    if (offset + length > b.length) corrupt(`font table '${tag.replace(/[^\x20-\x7e]/g, "?")}' overruns the file`);
    if (tag === "C2PA") c2pa = true;
  }
  return detection("font/otf", "sfnt", { has_c2pa_manifest: c2pa });
}

// ---- NumPy .npy

export function isNpy(b: Uint8Array): boolean {
  return startsWith(b, [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);
}

/** Item size of a simple dtype descriptor such as '<f4', '|u1', '<U10' (None for structured or object dtypes). */
function itemSize(descr: string): number | null {
  const m = /^[<>|=]?([a-zA-Z])(\d+)$/.exec(descr);
  if (!m) return null;
  const kind = m[1]!;
  const n = Number(m[2]);
  if (kind === "U") return n * 4;
  if (kind === "O") return null;
  return n;
}

/** NPY: magic, version, header length, a Python dict literal header; the array data must fit. */
export function parseNpy(b: Uint8Array): Detection {
  const major = b[6];
  if (major !== 1 && major !== 2 && major !== 3) corrupt(`NPY version ${major} unknown`);
  const headerLength = major === 1 ? u16le(b, 8) : u32le(b, 8);
  const start = major === 1 ? 10 : 12;
  if (start + headerLength > b.length) corrupt("NPY header overruns the file");
  const header = latin1(b, start, start + headerLength, 65536);
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || shape === undefined) corrupt("NPY header lacks descr or shape");
  const size = itemSize(descr);
  const dims = shape
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
  if (size !== null && dims.every((d) => /^\d+$/.test(d))) {
    const total = dims.reduce((acc, d) => acc * Number(d), 1) * size;
    if (start + headerLength + total > b.length) corrupt("NPY array data truncated");
  }
  return detection("application/x-npy", "npy", {});
}

// ---- Python pickle

/** Protocols 2–5 start with the PROTO opcode; 0 and 1 have no magic and are not sniffed. */
export function isPickle(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0x80 && b[1]! >= 2 && b[1]! <= 5;
}

export function parsePickle(b: Uint8Array): Detection {
  if (b[b.length - 1] !== 0x2e) corrupt("pickle does not end with STOP");
  return detection("application/x-pickle", "pickle", {});
}

// ---- HDF5 (Keras .h5, TensorFlow weights)

const HDF5 = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

/** The superblock may follow a user block of 512, 1024, 2048… bytes; the first few positions are checked. */
export function isHdf5(b: Uint8Array): boolean {
  for (const at of [0, 512, 1024, 2048, 4096]) if (startsWith(b, HDF5, at)) return true;
  return false;
}

export function parseHdf5(): Detection {
  return detection(null, "hdf5", {}, [], { label: "HDF5" });
}
