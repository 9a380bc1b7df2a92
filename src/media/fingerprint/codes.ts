/** Fingerprint value encodings (ISCC units, base32, PDQ hex) and Hamming distance: pure helpers, no wasm. */
// ---------------------------------------------------------------- comparison

/** Number of differing bits of two equally long bit strings (throws a RangeError on different lengths). */
export function hammingDistance(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError(`hammingDistance: lengths differ (${a.length} and ${b.length} bytes)`);
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    let x = (a[i]! ^ b[i]!) & 0xff;
    x -= (x >> 1) & 0x55;
    x = (x & 0x33) + ((x >> 2) & 0x33);
    d += (x + (x >> 4)) & 0x0f;
  }
  return d;
}

// ---------------------------------------------------------------- base32 (RFC 4648, no padding)

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let acc = 0;
  let n = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    n += 8;
    while (n >= 5) {
      n -= 5;
      out += B32[(acc >> n) & 31];
    }
  }
  if (n > 0) out += B32[(acc << (5 - n)) & 31];
  return out;
}

/** Decodes unpadded (or padded) RFC 4648 base32, case-insensitively; throws on other characters or bad length. */
export function base32Decode(text: string): Uint8Array {
  const s = text.replace(/=+$/, "").toUpperCase();
  if ([1, 3, 6].includes(s.length % 8)) throw new RangeError("base32: impossible length");
  const out = new Uint8Array(Math.floor((s.length * 5) / 8));
  let acc = 0;
  let n = 0;
  let o = 0;
  for (const ch of s) {
    const v = B32.indexOf(ch);
    if (v < 0) throw new RangeError(`base32: invalid character ${JSON.stringify(ch)}`);
    acc = ((acc << 5) | v) & 0xffff;
    n += 5;
    if (n >= 8) {
      n -= 8;
      out[o++] = (acc >> n) & 0xff;
    }
  }
  return out;
}

// ---------------------------------------------------------------- ISCC units (ISO 24138)

/** ISCC MainTypes (iscc-core `MT`). */
export const IsccMainType = { META: 0, SEMANTIC: 1, CONTENT: 2, DATA: 3, INSTANCE: 4, ISCC: 5, ID: 6, FLAKE: 7 } as const;
/** SubTypes of `CONTENT` (iscc-core `ST_CC`). */
export const IsccContentSubType = { TEXT: 0, IMAGE: 1, AUDIO: 2, VIDEO: 3, MIXED: 4 } as const;

export interface IsccUnit {
  mainType: number;
  subType: number;
  version: number;
  /** Length of the body in bits. */
  bitLength: number;
  /** The body (bitLength / 8 bytes). */
  digest: Uint8Array;
}

/** Pushes n as a varnibble (0xxx | 10xxxxxx | 110xxxxxxxxx | 1110xxxxxxxxxxxx) onto a bit list. */
function pushVarnibble(bits: number[], n: number): void {
  const put = (value: number, width: number) => {
    for (let i = width - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  if (!Number.isInteger(n) || n < 0 || n >= 4680) throw new RangeError(`ISCC header value out of range: ${n}`);
  if (n < 8) put(n, 4);
  else if (n < 72) {
    put(0b10, 2);
    put(n - 8, 6);
  } else if (n < 584) {
    put(0b110, 3);
    put(n - 72, 9);
  } else {
    put(0b1110, 4);
    put(n - 584, 12);
  }
}

const STANDARD_LENGTH_TYPES: readonly number[] = [0, 1, 2, 3, 4, 7];

/**
 * Encodes one ISCC-UNIT as `ISCC:` + base32(header + body). The header is the varnibbles of MainType, SubType,
 * Version and the length field (body bits / 32 - 1 for META..INSTANCE and FLAKE; counter bytes for ID), padded to
 * whole bytes; the body is `digest` truncated to `bitLength` bits (default: all of it).
 */
export function encodeIsccUnit(unit: Omit<IsccUnit, "bitLength"> & { bitLength?: number }): string {
  const bitLength = unit.bitLength ?? unit.digest.length * 8;
  let lengthField: number;
  if (STANDARD_LENGTH_TYPES.includes(unit.mainType)) {
    if (bitLength < 32 || bitLength % 32 !== 0) throw new RangeError(`ISCC unit length must be a multiple of 32 bits: ${bitLength}`);
    lengthField = bitLength / 32 - 1;
  } else if (unit.mainType === IsccMainType.ID) {
    if (bitLength < 64 || bitLength > 96 || bitLength % 8 !== 0) throw new RangeError(`ISCC-ID length must be 64..96 bits: ${bitLength}`);
    lengthField = (bitLength - 64) / 8;
  } else {
    throw new RangeError(`not an ISCC-UNIT MainType: ${unit.mainType}`);
  }
  if (unit.digest.length * 8 < bitLength) throw new RangeError(`digest shorter than ${bitLength} bits`);
  const bits: number[] = [];
  for (const v of [unit.mainType, unit.subType, unit.version, lengthField]) pushVarnibble(bits, v);
  while (bits.length % 8) bits.push(0);
  const header = new Uint8Array(bits.length / 8);
  for (const [i, b] of bits.entries()) header[i >> 3]! |= b << (7 - (i & 7));
  const body = unit.digest.subarray(0, bitLength / 8);
  const all = new Uint8Array(header.length + body.length);
  all.set(header);
  all.set(body, header.length);
  return `ISCC:${base32Encode(all)}`;
}

/**
 * Decodes one ISCC-UNIT (`ISCC:` prefix optional, base32 case-insensitive). Throws a RangeError on anything
 * else: bad characters, a malformed header, a composite ISCC-CODE, or a body of another length than the header says.
 */
export function decodeIsccUnit(code: string): IsccUnit {
  const text = code.trim().replace(/^ISCC:/i, "");
  const bytes = base32Decode(text);
  let pos = 0;
  const total = bytes.length * 8;
  const bit = (i: number) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
  const read = (width: number) => {
    if (pos + width > total) throw new RangeError("ISCC header truncated");
    let v = 0;
    for (let i = 0; i < width; i++) v = (v << 1) | bit(pos++);
    return v;
  };
  const varnibble = () => {
    if (read(1) === 0) return read(3);
    if (read(1) === 0) return read(6) + 8;
    if (read(1) === 0) return read(9) + 72;
    if (read(1) === 0) return read(12) + 584;
    throw new RangeError("ISCC header: invalid varnibble prefix");
  };
  const mainType = varnibble();
  const subType = varnibble();
  const version = varnibble();
  const lengthField = varnibble();
  if (pos % 8) {
    if (read(4) !== 0) throw new RangeError("ISCC header: nonzero padding");
  }
  let bitLength: number;
  if (STANDARD_LENGTH_TYPES.includes(mainType)) bitLength = (lengthField + 1) * 32;
  else if (mainType === IsccMainType.ID) bitLength = lengthField * 8 + 64;
  else throw new RangeError("ISCC: a composite ISCC-CODE, not a single unit");
  const body = bytes.subarray(pos / 8);
  if (body.length !== bitLength / 8) throw new RangeError(`ISCC: body is ${body.length * 8} bits, header says ${bitLength}`);
  return { mainType, subType, version, bitLength, digest: body.slice() };
}

/** The ISCC Content-Code Image v0 of a digest (`ISCC:EE...`); `bitLength` defaults to the digest's length. */
export function isccImageCode(digest: Uint8Array, bitLength?: number): string {
  return encodeIsccUnit({
    mainType: IsccMainType.CONTENT,
    subType: IsccContentSubType.IMAGE,
    version: 0,
    digest,
    ...(bitLength === undefined ? {} : { bitLength }),
  });
}

// ---------------------------------------------------------------- PDQ

/**
 * The 64-digit lowercase hex form of a PDQ hash (the reference's `%04hx` x 16, most significant word first); the
 * bytes are in that order.
 */
export function pdqHex(bits: Uint8Array): string {
  if (bits.length !== 32) throw new RangeError(`PDQ hash is 32 bytes, got ${bits.length}`);
  let s = "";
  for (const b of bits) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Parses a 64-digit hex PDQ hash (either case) into its 32 bytes. */
export function pdqBitsFromHex(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError("PDQ hash must be 64 hex digits");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Bit k (0..255) of a PDQ hash as the reference numbers them (coefficient row k >> 4, column k & 15). */
export function pdqBit(bits: Uint8Array, k: number): number {
  const word = k >> 4;
  const j = k & 15;
  const byte = (15 - word) * 2 + (j >= 8 ? 0 : 1);
  return (bits[byte]! >> (j & 7)) & 1;
}
