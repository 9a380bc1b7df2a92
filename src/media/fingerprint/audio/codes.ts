/**
 * Chromaprint value encodings and hashes, pure helpers (no wasm): the compressed fingerprint string fpcalc and
 * AcoustID use (`AQAA…`), its decoder, Chromaprint's 32-bit SimHash, and the ISCC Content-Code Audio v0.
 */
import { encodeIsccUnit, IsccContentSubType, IsccMainType } from "../codes";

/** Chromaprint's default algorithm (TEST2), the one the kernel computes. */
export const CHROMAPRINT_ALGORITHM = 1;

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Appends `value` (`width` bits) to a little-endian bit stream (first value in the low bits of the first byte). */
class BitWriter {
  readonly bytes: number[] = [];
  #acc = 0;
  #n = 0;

  put(value: number, width: number): void {
    this.#acc |= value << this.#n;
    this.#n += width;
    while (this.#n >= 8) {
      this.bytes.push(this.#acc & 0xff);
      this.#acc >>>= 8;
      this.#n -= 8;
    }
  }

  flush(): void {
    if (this.#n > 0) this.bytes.push(this.#acc & 0xff);
    this.#acc = 0;
    this.#n = 0;
  }
}

/**
 * The compressed form of a raw fingerprint, as libchromaprint's chromaprint_encode_fingerprint makes it: a 4-byte
 * header (algorithm, 24-bit frame count), then each frame XOR the previous one written as the gaps between its set
 * bits (3-bit codes, 7 = "7 or more, rest in the exceptions", 0 ends a frame), then the exceptions (5-bit codes).
 * Returned as unpadded base64url (`base64: true`, the default) or as the raw bytes.
 */
export function compressChromaprint(raw: ArrayLike<number>, algorithm = CHROMAPRINT_ALGORITHM): Uint8Array {
  const normal = new BitWriter();
  const exceptional = new BitWriter();
  const n = raw.length;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    let x = (raw[i]! ^ previous) >>> 0;
    previous = raw[i]! >>> 0;
    let bit = 1;
    let last = 0;
    while (x !== 0) {
      if (x & 1) {
        const gap = bit - last;
        if (gap >= 7) {
          normal.put(7, 3);
          exceptional.put(gap - 7, 5);
        } else {
          normal.put(gap, 3);
        }
        last = bit;
      }
      x >>>= 1;
      bit++;
    }
    normal.put(0, 3);
  }
  normal.flush();
  exceptional.flush();
  const out = new Uint8Array(4 + normal.bytes.length + exceptional.bytes.length);
  out[0] = algorithm & 0xff;
  out[1] = (n >>> 16) & 0xff;
  out[2] = (n >>> 8) & 0xff;
  out[3] = n & 0xff;
  out.set(normal.bytes, 4);
  out.set(exceptional.bytes, 4 + normal.bytes.length);
  return out;
}

/** Unpadded base64url with Chromaprint's alphabet (`-` and `_`). */
export function chromaprintBase64(bytes: Uint8Array): string {
  let s = "";
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s += B64[v >> 18]! + B64[(v >> 12) & 63]! + B64[(v >> 6) & 63]! + B64[v & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i]!;
    s += B64[v >> 2]! + B64[(v << 4) & 63]!;
  } else if (rest === 2) {
    const v = (bytes[i]! << 8) | bytes[i + 1]!;
    s += B64[v >> 10]! + B64[(v >> 4) & 63]! + B64[(v << 2) & 63]!;
  }
  return s;
}

/** The fingerprint string fpcalc prints (compressed, base64url): `AQAA…` for the default algorithm. */
export function encodeChromaprint(raw: ArrayLike<number>, algorithm = CHROMAPRINT_ALGORITHM): string {
  return chromaprintBase64(compressChromaprint(raw, algorithm));
}

export type DecodedChromaprint = { status: "decoded"; algorithm: number; raw: Uint32Array } | { status: "failed"; message: string };

/** Largest frame count a compressed fingerprint may declare here (its header allows 2^24 - 1; ~14 days). */
const MAX_DECODED_FRAMES = 1 << 24;

/** Decodes a compressed fingerprint string (base64url, as encodeChromaprint makes it); never throws. */
export function decodeChromaprint(text: string): DecodedChromaprint {
  const fail = (message: string): DecodedChromaprint => ({ status: "failed", message });
  if (typeof text !== "string") return fail("not a string");
  // Each byte needs 4/3 characters and each frame at least 3 bits: bounds the work by the input's own length.
  if (text.length % 4 === 1) return fail("impossible base64 length");
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const ch of text) {
    const v = B64.indexOf(ch);
    if (v < 0) return fail(`invalid character ${JSON.stringify(ch)}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bytes.length < 4) return fail("shorter than the header");
  const algorithm = bytes[0]!;
  const frames = (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  if (frames > MAX_DECODED_FRAMES || frames * 3 > (bytes.length - 4) * 8) return fail("frame count exceeds the data");
  const bitAt = (pos: number) => (bytes[4 + (pos >> 3)]! >> (pos & 7)) & 1;
  const read = (pos: number, width: number) => {
    let v = 0;
    for (let k = 0; k < width; k++) v |= bitAt(pos + k) << k;
    return v;
  };
  const totalBits = (bytes.length - 4) * 8;
  // First pass: the 3-bit codes up to the last frame's terminator; then the exceptions follow byte-aligned.
  const codes: number[] = [];
  let pos = 0;
  let ended = 0;
  while (ended < frames) {
    if (pos + 3 > totalBits) return fail("truncated");
    const c = read(pos, 3);
    pos += 3;
    codes.push(c);
    if (c === 0) ended++;
  }
  let epos = Math.ceil(pos / 8) * 8;
  const raw = new Uint32Array(frames);
  let frame = 0;
  let last = 0;
  let x = 0;
  let previous = 0;
  for (const c of codes) {
    if (c === 0) {
      previous = (x ^ previous) >>> 0;
      raw[frame++] = previous;
      x = 0;
      last = 0;
      continue;
    }
    let gap = c;
    if (c === 7) {
      if (epos + 5 > totalBits) return fail("truncated exceptions");
      gap += read(epos, 5);
      epos += 5;
    }
    const bit = last + gap;
    if (bit > 32) return fail("bit position past 32");
    x = (x | (1 << (bit - 1))) >>> 0;
    last = bit;
  }
  return { status: "decoded", algorithm, raw };
}

/**
 * Chromaprint's SimHash of a raw fingerprint (chromaprint_hash_fingerprint): bit j is set when more than half
 * (integer half, strictly more) of the frames have it set; 0 for an empty fingerprint.
 */
export function chromaprintHash(raw: ArrayLike<number>): number {
  const n = raw.length;
  if (n === 0) return 0;
  const counts = new Uint32Array(32);
  for (let i = 0; i < n; i++) {
    const v = raw[i]! >>> 0;
    for (let j = 0; j < 32; j++) counts[j]! += (v >>> j) & 1;
  }
  const threshold = Math.floor(n / 2);
  let hash = 0;
  for (let j = 0; j < 32; j++) if (counts[j]! > threshold) hash |= 1 << j;
  return hash >>> 0;
}

/**
 * iscc-core's alg_simhash over 32-bit big-endian digests: bit set when at least half the values have it
 * (`>= len / 2`, unlike Chromaprint's hash). Written big-endian into `out` at `at`.
 */
function isccSimhash(values: ArrayLike<number>, from: number, to: number, out: Uint8Array, at: number): void {
  const n = to - from;
  if (n <= 0) return; // an empty part stays zero, as iscc-core pads it
  const counts = new Uint32Array(32);
  for (let i = from; i < to; i++) {
    const v = values[i]! >>> 0;
    for (let j = 0; j < 32; j++) counts[j]! += (v >>> j) & 1;
  }
  let h = 0;
  for (let j = 0; j < 32; j++) if (counts[j]! * 2 >= n) h |= 1 << j;
  out[at] = h >>> 24;
  out[at + 1] = (h >>> 16) & 0xff;
  out[at + 2] = (h >>> 8) & 0xff;
  out[at + 3] = h & 0xff;
}

/** more_itertools.divide(parts, n): [start, end) of each part, the first n % parts parts one longer. */
function divide(parts: number, n: number): Array<[number, number]> {
  const q = Math.floor(n / parts);
  const r = n % parts;
  const out: Array<[number, number]> = [];
  let start = 0;
  for (let i = 0; i < parts; i++) {
    const len = q + (i < r ? 1 : 0);
    out.push([start, start + len]);
    start += len;
  }
  return out;
}

/**
 * The soft hash of ISCC Content-Code Audio v0 (iscc-core soft_hash_audio_v0): 32 bytes; the first `bits / 8` are
 * the code's body. Part 1: SimHash of all values; parts 2-5: of each quarter in order; parts 6-8: of each third of
 * the values sorted as signed int32. No values: all zero.
 */
export function isccAudioDigest(raw: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(32);
  const n = raw.length;
  if (n === 0) return out;
  isccSimhash(raw, 0, n, out, 0);
  let at = 4;
  for (const [s, e] of divide(4, n)) {
    isccSimhash(raw, s, e, out, at);
    at += 4;
  }
  const sorted = Int32Array.from({ length: n }, (_, i) => raw[i]! | 0).sort();
  for (const [s, e] of divide(3, n)) {
    isccSimhash(sorted, s, e, out, at);
    at += 4;
  }
  return out;
}

/**
 * ISCC Content-Code Audio v0 (ISO 24138) of a Chromaprint fingerprint, exactly as iscc-core's
 * gen_audio_code_v0(cv, bits): `ISCC:EI…`. `bits`: 32..256 in steps of 32 (default 64). The values may be given
 * as uint32 (the kernel's output) or int32 (fpcalc -signed); only their bits matter.
 */
export function isccAudioCode(raw: Uint32Array | Int32Array | ArrayLike<number>, bits = 64): string {
  if (!Number.isInteger(bits) || bits < 32 || bits > 256 || bits % 32 !== 0)
    throw new RangeError(`ISCC audio code length must be 32..256 in steps of 32: ${bits}`);
  return encodeIsccUnit({
    mainType: IsccMainType.CONTENT,
    subType: IsccContentSubType.AUDIO,
    version: 0,
    digest: isccAudioDigest(raw),
    bitLength: bits,
  });
}
