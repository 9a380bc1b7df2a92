/**
 * #19 review: the corpus of the hostile review of the decoder's coefficient clearing, per-block AC flags and
 * bit-buffer locals (test/fixtures/jpegdec/review, README there), with variants derived from each file (scans
 * reordered, dropped or duplicated, cuts mid-scan, flipped bytes, a missing restart marker), and a harness that
 * drives the kernel as JpegStreamDecoder does (inputAlloc, header, start, next), optionally after scribbling
 * arbitrary bytes over the memory an earlier image used (an input can hold any bytes, so any address an earlier
 * decode wrote may hold anything).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { concatBytes } from "../../../src/platform/bytes.ts";

export const ROOT = join(import.meta.dirname, "..", "..", "..");
export const REVIEW_DIR = join(ROOT, "test", "fixtures", "jpegdec", "review");
export const LOG2_SCALES = [0, 1, 2, 3] as const;

export function reviewFiles(): [string, Uint8Array][] {
  return readdirSync(REVIEW_DIR)
    .filter((n) => n.endsWith(".jpg"))
    .sort()
    .map((n) => [n, new Uint8Array(readFileSync(join(REVIEW_DIR, n)))]);
}

/** The segments before the first SOS, each scan (tables before it, SOS header, entropy data), and nothing after. */
export function splitScans(bytes: Uint8Array): { head: Uint8Array; scans: Uint8Array[] } | null {
  const b = (i: number) => bytes[i] ?? 0;
  const scans: Uint8Array[] = [];
  let head: Uint8Array | null = null;
  let p = 2;
  let start = -1;
  while (p + 4 <= bytes.length) {
    if (b(p) !== 0xff) return null;
    const m = b(p + 1);
    if (m === 0xd9) break;
    const len = (b(p + 2) << 8) | b(p + 3);
    if (m !== 0xda) {
      if (head !== null && start < 0) start = p;
      p += 2 + len;
      continue;
    }
    if (head === null) head = bytes.subarray(0, p);
    if (start < 0) start = p;
    let q = p + 2 + len;
    while (q < bytes.length && !(b(q) === 0xff && b(q + 1) !== 0 && (b(q + 1) < 0xd0 || b(q + 1) > 0xd7))) q++;
    scans.push(bytes.subarray(start, q));
    start = -1;
    p = q;
  }
  return head === null ? null : { head, scans };
}

const EOI = Uint8Array.of(0xff, 0xd9);

/** A small seeded generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The SOS header's length within a scan part (tables first, then FFDA). */
function sosDataStart(scan: Uint8Array): number {
  let p = 0;
  while (p + 4 <= scan.length) {
    const len = ((scan[p + 2] ?? 0) << 8) | (scan[p + 3] ?? 0);
    if (scan[p + 1] === 0xda) return p + 2 + len;
    p += 2 + len;
  }
  return scan.length;
}

/** The file itself and the variants derived from it, each named. */
export function variants(name: string, bytes: Uint8Array): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [[name, bytes]];
  const s = splitScans(bytes);
  if (!s) return out;
  const { head, scans } = s;
  const n = scans.length;
  const at = (i: number) => scans[i] as Uint8Array;
  const cutHalf = (i: number) => {
    const sc = at(i);
    const d = sosDataStart(sc);
    return sc.subarray(0, d + ((sc.length - d) >> 1));
  };
  for (const i of new Set([0, 1, n - 1])) {
    if (i >= n) continue;
    out.push([`${name} cut mid-scan ${i}`, concatBytes([head, ...scans.slice(0, i), cutHalf(i)])]);
    out.push([`${name} cut mid-scan ${i} + EOI`, concatBytes([head, ...scans.slice(0, i), cutHalf(i), EOI])]);
  }
  if (n > 1) {
    for (let k = 1; k < Math.min(n, 4); k++) out.push([`${name} first ${k} scans + EOI`, concatBytes([head, ...scans.slice(0, k), EOI])]);
    out.push([`${name} scans 0 and 1 swapped`, concatBytes([head, at(1), at(0), ...scans.slice(2), EOI])]);
    out.push([`${name} without scan 0`, concatBytes([head, ...scans.slice(1), EOI])]);
    out.push([`${name} scan 0 twice`, concatBytes([head, at(0), ...scans, EOI])]);
    out.push([`${name} last scan first`, concatBytes([head, at(n - 1), ...scans.slice(0, n - 1), EOI])]);
  }
  // a restart marker of scan 0 removed: the restart check fails mid-scan
  const s0 = at(0);
  for (let q = sosDataStart(s0); q + 1 < s0.length; q++)
    if (s0[q] === 0xff && (s0[q + 1] ?? 0) >= 0xd0 && (s0[q + 1] ?? 0) <= 0xd7) {
      out.push([`${name} first RST of scan 0 removed`, concatBytes([head, s0.subarray(0, q), s0.subarray(q + 2), ...scans.slice(1), EOI])]);
      break;
    }
  const r = rng(name.length * 7919 + bytes.length);
  // SOS headers rewritten (the entropy data then means something else, or nothing): successive approximation
  // bits, the spectral band, the order of the components
  for (let i = 0; i < Math.min(n, 4); i++) {
    const sc = at(i);
    let p = 0;
    while (p + 4 <= sc.length && sc[p + 1] !== 0xda) p += 2 + (((sc[p + 2] ?? 0) << 8) | (sc[p + 3] ?? 0));
    if (sc[p + 1] !== 0xda) continue;
    const nc = sc[p + 4] ?? 0;
    const params = p + 5 + nc * 2; // Ss, Se, Ah|Al
    const with_ = (edit: (c: Uint8Array) => void, what: string) => {
      const copy = new Uint8Array(sc);
      edit(copy);
      out.push([`${name} scan ${i} ${what}`, concatBytes([head, ...scans.slice(0, i), copy, ...scans.slice(i + 1), EOI])]);
    };
    const ahal = (Math.floor(r() * 3) << 4) | Math.floor(r() * 4);
    with_(
      (c) => {
        c[params + 2] = ahal;
      },
      `Ah/Al ${ahal >> 4}/${ahal & 15}`,
    );
    if (nc === 1) {
      const ss = Math.floor(r() * 64);
      const se = ss === 0 ? 0 : ss + Math.floor(r() * (64 - ss));
      with_((c) => {
        c[params] = ss;
        c[params + 1] = se;
      }, `band ${ss}..${se}`);
    } else
      with_((c) => {
        const ids = [];
        for (let j = 0; j < nc; j++) ids.push([c[p + 5 + j * 2] ?? 0, c[p + 6 + j * 2] ?? 0] as const);
        ids.reverse().forEach(([id, t], j) => {
          c[p + 5 + j * 2] = id;
          c[p + 6 + j * 2] = t;
        });
      }, "components reversed");
  }
  // flipped entropy bytes (never making a marker)
  for (let f = 0; f < 4; f++) {
    const i = Math.floor(r() * n);
    const sc = at(i);
    const d = sosDataStart(sc);
    if (sc.length - d < 2) continue;
    const copy = new Uint8Array(sc);
    const q = d + Math.floor(r() * (sc.length - d));
    if (copy[q] === 0xff || (q > 0 && copy[q - 1] === 0xff)) continue;
    copy[q] = ((copy[q] ?? 0) ^ (1 + Math.floor(r() * 254))) & 0xff;
    if (copy[q] === 0xff) copy[q] = 0xfe;
    out.push([`${name} byte ${q} of scan ${i} flipped`, concatBytes([head, ...scans.slice(0, i), copy, ...scans.slice(i + 1), EOI])]);
  }
  return out;
}

export interface Kernel {
  memory: WebAssembly.Memory;
  inputAlloc(length: number): number;
  header(): number;
  start(scaleLog2: number, maxPixels: number): number;
  rewind(scaleLog2: number): number;
  next(): number;
  outWidth(): number;
  outHeight(): number;
  outPtr(): number;
  /** 1 when next() failed in entropy-coded data (a progressive file's deferred AC scans). */
  failedInScan?(): number;
  keepCoefficients(keep: number): void;
}

export const instantiate = (module: WebAssembly.Module) => new WebAssembly.Instance(module, {}).exports as unknown as Kernel;

/** The highest address below which an earlier decode of `k` has written (the end of its first output rows). */
export function dirtyWith(k: Kernel, bytes: Uint8Array): number {
  const ptr = k.inputAlloc(bytes.length);
  new Uint8Array(k.memory.buffer, ptr, bytes.length).set(bytes);
  if (k.header() !== 0 || k.start(0, 1e9) !== 0) throw new Error("the dirtying image does not decode");
  const rows = k.next();
  if (rows <= 0) throw new Error("the dirtying image has no rows");
  const end = k.outPtr() + rows * k.outWidth() * 4;
  while (k.next() > 0);
  return end;
}

/**
 * Decodes `bytes` at 1 / 2^log2 on `k` as JpegStreamDecoder does; with `scribble`, the memory from the input up to
 * `scribble.end` (below what an earlier decode wrote) is first overwritten with `scribble.bytes` repeated.
 */
export function decodeOn(
  k: Kernel,
  bytes: Uint8Array,
  log2: number,
  scribble?: { end: number; bytes: Uint8Array },
  keep = false,
): string | Uint8Array {
  const ptr = k.inputAlloc(bytes.length);
  if (ptr === 0) return "status 3";
  if (scribble) {
    const mem = new Uint8Array(k.memory.buffer);
    for (let p = ptr; p < scribble.end; p += scribble.bytes.length)
      mem.set(scribble.bytes.subarray(0, Math.min(scribble.bytes.length, scribble.end - p)), p);
  }
  new Uint8Array(k.memory.buffer, ptr, bytes.length).set(bytes);
  let s = k.header();
  if (s !== 0) return `status ${s}`;
  if (keep) k.keepCoefficients(1);
  s = k.start(log2, 50_000_000);
  if (s !== 0) return `status ${s}`;
  return readRows(k);
}

export function readRows(k: Kernel): string | Uint8Array {
  const w = k.outWidth();
  const h = k.outHeight();
  const img = new Uint8Array(w * h * 4);
  let y = 0;
  for (;;) {
    const n = k.next();
    // a failure in scan data reads as start()'s did (every scan used to be decoded there; JpegStreamDecoder reports
    // both as the scan data's), whichever row it surfaced in
    if (n < 0) return k.failedInScan?.() === 1 ? `status ${-n}` : `status ${-n} at row ${y}`;
    if (n === 0) break;
    img.set(new Uint8Array(k.memory.buffer, k.outPtr(), n * w * 4), y * w * 4);
    y += n;
  }
  return y === h ? img : `ended at row ${y}`;
}

export const digest = (r: string | Uint8Array) => (typeof r === "string" ? r : createHash("sha256").update(r).digest("hex").slice(0, 16));

/** Every variant of the file at every scale, decoded by `decode`: one line per variant, and a digest of them all. */
export function record(name: string, bytes: Uint8Array, decode: (v: Uint8Array, log2: number) => string | Uint8Array) {
  const lines = variants(name, bytes).map(([vname, v]) => `${vname}: ${LOG2_SCALES.map((s) => digest(decode(v, s))).join(" ")}`);
  return { lines, combined: createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 24) };
}
