/**
 * Bounded byte access shared by every container parser. Every read checks its range and throws
 * `CorruptError` instead of reading past the buffer, so a parser can be written as straight-line code and
 * the top level turns the throw into a `corrupt` result.
 */

/** A structural error in the bytes (truncation, a length field that does not fit, a bad marker). */
export class CorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorruptError";
  }
}

export function corrupt(message: string): never {
  throw new CorruptError(message);
}

/** Throws unless [offset, offset + length) lies inside `limit` (default: the whole buffer). */
export function need(bytes: Uint8Array, offset: number, length: number, what: string, limit = bytes.length): void {
  if (!(offset >= 0 && length >= 0 && offset + length <= limit && limit <= bytes.length)) {
    corrupt(`truncated ${what}`);
  }
}

export function u8(b: Uint8Array, o: number): number {
  if (o < 0 || o >= b.length) corrupt("truncated data");
  return b[o]!;
}
export function u16be(b: Uint8Array, o: number): number {
  need(b, o, 2, "data");
  return (b[o]! << 8) | b[o + 1]!;
}
export function u16le(b: Uint8Array, o: number): number {
  need(b, o, 2, "data");
  return b[o]! | (b[o + 1]! << 8);
}
export function u24be(b: Uint8Array, o: number): number {
  need(b, o, 3, "data");
  return (b[o]! << 16) | (b[o + 1]! << 8) | b[o + 2]!;
}
export function u24le(b: Uint8Array, o: number): number {
  need(b, o, 3, "data");
  return b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16);
}
export function u32be(b: Uint8Array, o: number): number {
  need(b, o, 4, "data");
  return ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
}
export function u32le(b: Uint8Array, o: number): number {
  need(b, o, 4, "data");
  return ((b[o + 3]! << 24) >>> 0) + ((b[o + 2]! << 16) | (b[o + 1]! << 8) | b[o]!);
}
/** 64-bit values as numbers; anything above 2^53 cannot be a real offset or size here, so it is corrupt. */
export function u64be(b: Uint8Array, o: number): number {
  const hi = u32be(b, o);
  const lo = u32be(b, o + 4);
  if (hi >= 0x200000) corrupt("64-bit field out of range");
  return hi * 0x100000000 + lo;
}
export function u64le(b: Uint8Array, o: number): number {
  const lo = u32le(b, o);
  const hi = u32le(b, o + 4);
  if (hi >= 0x200000) corrupt("64-bit field out of range");
  return hi * 0x100000000 + lo;
}

/** Four bytes as a latin1 string (box types, chunk ids, brands). */
export function fourcc(b: Uint8Array, o: number): string {
  need(b, o, 4, "four-character code");
  return String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
}

/** Bytes as latin1, never more than `max` characters (so a huge field cannot make a huge string). */
export function latin1(b: Uint8Array, start: number, end: number, max = 1024): string {
  const stop = Math.min(end, b.length, start + max);
  let s = "";
  for (let i = Math.max(0, start); i < stop; i++) s += String.fromCharCode(b[i]!);
  return s;
}

export function startsWith(b: Uint8Array, prefix: ArrayLike<number> | string, at = 0): boolean {
  const p = typeof prefix === "string" ? ascii(prefix) : prefix;
  if (at < 0 || at + p.length > b.length) return false;
  for (let i = 0; i < p.length; i++) if (b[at + i] !== p[i]) return false;
  return true;
}

export function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/**
 * First index of `needle` in b[from, to), or -1. Worst case is O(n·m) for a pathological haystack, so
 * callers keep needles short (≤ 32 bytes), which keeps it linear in practice.
 */
export function indexOf(b: Uint8Array, needle: Uint8Array | string, from = 0, to = b.length): number {
  const n = typeof needle === "string" ? ascii(needle) : needle;
  if (n.length === 0) return from;
  const first = n[0]!;
  const last = Math.min(to, b.length) - n.length;
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    if (b[i] !== first) continue;
    for (let j = 1; j < n.length; j++) if (b[i + j] !== n[j]) continue outer;
    return i;
  }
  return -1;
}

export function equalBytes(b: Uint8Array, at: number, expected: ArrayLike<number>): boolean {
  return startsWith(b, expected, at);
}

/** MSB-first bit reader (H.264 SPS, AAC AudioSpecificConfig). Never reads past `end`: an overrun throws CorruptError. */
export class BitReader {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly start = 0,
    private readonly end = bytes.length,
  ) {}

  get bitsLeft(): number {
    return (this.end - this.start) * 8 - this.bit;
  }

  u(n: number): number {
    if (n > 32) corrupt("bit field too wide");
    if (n > this.bitsLeft) corrupt("truncated bit field");
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.start + (this.bit >> 3)]!;
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return v;
  }

  flag(): boolean {
    return this.u(1) === 1;
  }

  /** Unsigned Exp-Golomb (H.264 7.2 ue(v)). Capped at 31 leading zeros, beyond which no legal value exists. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros++;
      if (zeros > 31) corrupt("Exp-Golomb code too long");
    }
    return zeros === 0 ? 0 : 2 ** zeros - 1 + this.u(zeros);
  }

  /** Signed Exp-Golomb (se(v)). */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** LSB-first bit reader (JPEG XL headers). Never reads past `end`: an overrun throws CorruptError. */
export class LsbBitReader {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly start = 0,
    private readonly end = bytes.length,
  ) {}

  u(n: number): number {
    if (n > 32) corrupt("bit field too wide");
    if (n > (this.end - this.start) * 8 - this.bit) corrupt("truncated bit field");
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.start + (this.bit >> 3)]!;
      v += ((byte >> (this.bit & 7)) & 1) * 2 ** i;
      this.bit++;
    }
    return v;
  }

  flag(): boolean {
    return this.u(1) === 1;
  }
}

/** Removes H.264/HEVC emulation-prevention bytes (00 00 03 → 00 00) from a NAL unit. */
export function unescapeRbsp(b: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  let n = 0;
  let zeros = 0;
  for (let i = start; i < end; i++) {
    const v = b[i]!;
    if (zeros >= 2 && v === 3) {
      zeros = 0;
      continue;
    }
    zeros = v === 0 ? zeros + 1 : 0;
    out[n++] = v;
  }
  return out.subarray(0, n);
}
