/**
 * The CBOR module: the deterministic encoder (cbor-encode.ts, re-exported here) and a small, strict CBOR
 * decoder (RFC 8949) for untrusted input: COSE structures (RFC 9052) in C2PA manifests.
 *
 * What it returns (`CborItem`):
 *  - unsigned and negative integers (major types 0, 1) as `number` when they are safe integers (|n| < 2^53),
 *    otherwise as `bigint`;
 *  - byte strings as `Uint8Array` (a copy: it never shares the input's buffer), text strings as `string`;
 *  - arrays as arrays, maps as `Map` (keys keep their type, e.g. the integer labels of COSE headers);
 *  - tags as `{ tag, value }` (the tag number a `number`, or a `bigint` beyond 2^53; the content is not
 *    interpreted, so a bignum stays tag 2/3 over a byte string);
 *  - false/true/null/undefined as themselves, floats (half, single, double) as `number`, and the other simple
 *    values as `{ simple: n }`.
 * Definite and indefinite lengths are both accepted.
 *
 * Strictness: anything not well-formed (RFC 8949 §3, Appendix F) is `malformed`: truncation, reserved additional
 * information 28–30, an indefinite length on an integer or tag, a stray break, a chunk of an indefinite string of
 * another type or itself indefinite, a one-byte simple value below 32; and so is what is well-formed but invalid
 * (§5.3): a text string that is not UTF-8, a map with a duplicate key (compared by value for integers, strings,
 * byte strings and the simple values). Trailing bytes after the item are malformed unless `allowTrailing`.
 * Non-preferred (longer than needed) argument encodings are accepted.
 *
 * Safety: never throws; every length is checked against the bytes that remain before anything is allocated (an
 * array of n items needs at least n more bytes, a map 2n), nesting deeper than `maxDepth` (arrays, maps and tags)
 * is malformed, and the work is linear in the input size.
 */
import { hex } from "./bytes";

/** A decoded CBOR data item. */
export type CborItem =
  | number
  | bigint
  | string
  | boolean
  | null
  | undefined
  | Uint8Array
  | CborItem[]
  | Map<CborItem, CborItem>
  | CborTag
  | CborSimple;

/** A tagged item (major type 6). */
export interface CborTag {
  tag: number | bigint;
  value: CborItem;
}

/** A simple value (major type 7) other than false, true, null and undefined. */
export interface CborSimple {
  simple: number;
}

export interface CborDecodeOptions {
  /** Deepest nesting of arrays, maps and tags accepted; default DEFAULT_CBOR_MAX_DEPTH. */
  maxDepth?: number;
  /** Accept bytes after the first item (then `length` tells where it ended); default false. */
  allowTrailing?: boolean;
}

export type CborDecodeResult =
  | { status: "ok"; value: CborItem /** bytes the item took */; length: number }
  | { status: "malformed"; message: string /** where the problem was found */; offset: number };

export const DEFAULT_CBOR_MAX_DEPTH = 64;

/** Decodes one CBOR data item from `bytes`; never throws. */
export function decodeCbor(bytes: Uint8Array, options: CborDecodeOptions = {}): CborDecodeResult {
  const decoder = new Decoder(bytes, options.maxDepth ?? DEFAULT_CBOR_MAX_DEPTH);
  try {
    const value = decoder.item(0);
    if (!options.allowTrailing && decoder.offset !== bytes.length) {
      return { status: "malformed", message: `${bytes.length - decoder.offset} trailing bytes after the item`, offset: decoder.offset };
    }
    return { status: "ok", value, length: decoder.offset };
  } catch (error) {
    if (error instanceof CborError) return { status: "malformed", message: error.message, offset: error.offset };
    // Not expected (every failure above is a CborError); still never let an exception escape.
    return { status: "malformed", message: `CBOR decoding failed: ${String((error as Error)?.message ?? error)}`, offset: decoder.offset };
  }
}

/** Whether `value` is a CBOR tag item. */
export function isCborTag(value: unknown): value is CborTag {
  return (
    typeof value === "object" && value !== null && !(value instanceof Map) && !Array.isArray(value) && "tag" in value && "value" in value
  );
}

class CborError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Marker returned by `item` for a break (0xff) when the caller allows one. */
const BREAK: unique symbol = Symbol("break");

const TWO_POW_32 = 0x1_0000_0000;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

class Decoder {
  offset = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxDepth: number,
  ) {}

  private fail(message: string, at = this.offset): never {
    throw new CborError(message, at);
  }

  private remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(n: number): void {
    if (n > this.remaining()) this.fail(`truncated: ${n} bytes needed, ${this.remaining()} left`);
  }

  private uint(size: 1 | 2 | 4): number {
    this.need(size);
    const b = this.bytes;
    const o = this.offset;
    this.offset += size;
    if (size === 1) return b[o]!;
    if (size === 2) return (b[o]! << 8) | b[o + 1]!;
    return b[o]! * 0x100_0000 + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
  }

  /** The argument of a head with additional information `info` < 28, as a safe number or a bigint. */
  private argument(info: number, at: number): number | bigint {
    if (info < 24) return info;
    if (info === 24) return this.uint(1);
    if (info === 25) return this.uint(2);
    if (info === 26) return this.uint(4);
    if (info === 27) {
      const hi = this.uint(4);
      const lo = this.uint(4);
      // hi < 2^21 keeps hi * 2^32 + lo below 2^53.
      return hi < 0x20_0000 ? hi * TWO_POW_32 + lo : (BigInt(hi) << 32n) | BigInt(lo);
    }
    return this.fail(`reserved additional information ${info}`, at);
  }

  /** An argument used as a length or count: at most what the remaining bytes can hold (`perItem` bytes each). */
  private count(info: number, at: number, perItem: number): number {
    const n = this.argument(info, at);
    if (typeof n === "bigint" || n * perItem > this.remaining()) {
      this.fail(`length ${n} exceeds the ${this.remaining()} remaining bytes`, at);
    }
    return n;
  }

  item(depth: number): CborItem;
  item(depth: number, allowBreak: true): CborItem | typeof BREAK;
  item(depth: number, allowBreak = false): CborItem | typeof BREAK {
    const at = this.offset;
    this.need(1);
    const initial = this.bytes[this.offset++]!;
    const major = initial >> 5;
    const info = initial & 0x1f;
    if (info >= 28 && info <= 30) this.fail(`reserved additional information ${info}`, at);
    if (info === 31) {
      switch (major) {
        case 2:
        case 3:
          return this.indefiniteString(major, depth);
        case 4:
          return this.indefiniteArray(depth, at);
        case 5:
          return this.indefiniteMap(depth, at);
        case 7:
          if (allowBreak) return BREAK;
          return this.fail("break outside an indefinite-length item", at);
        default:
          return this.fail(`indefinite length on major type ${major}`, at);
      }
    }
    switch (major) {
      case 0: {
        const n = this.argument(info, at);
        return typeof n === "number" && n <= Number.MAX_SAFE_INTEGER ? n : BigInt(n);
      }
      case 1: {
        const n = this.argument(info, at);
        return typeof n === "number" && n < Number.MAX_SAFE_INTEGER ? -1 - n : -1n - BigInt(n);
      }
      case 2: {
        const n = this.count(info, at, 1);
        this.offset += n;
        return this.bytes.slice(this.offset - n, this.offset);
      }
      case 3: {
        const n = this.count(info, at, 1);
        this.offset += n;
        return this.text(this.bytes.subarray(this.offset - n, this.offset), at);
      }
      case 4: {
        const n = this.count(info, at, 1);
        this.enter(depth, at);
        const out: CborItem[] = new Array<CborItem>(n);
        for (let i = 0; i < n; i++) out[i] = this.item(depth + 1);
        return out;
      }
      case 5: {
        const n = this.count(info, at, 2);
        this.enter(depth, at);
        const map = new Map<CborItem, CborItem>();
        const seen = new Set<string>();
        for (let i = 0; i < n; i++) {
          const keyAt = this.offset;
          const key = this.item(depth + 1);
          this.checkKey(map, seen, key, keyAt);
          map.set(key, this.item(depth + 1));
        }
        return map;
      }
      case 6: {
        const tag = this.argument(info, at);
        this.enter(depth, at);
        return { tag: typeof tag === "number" && tag > Number.MAX_SAFE_INTEGER ? BigInt(tag) : tag, value: this.item(depth + 1) };
      }
      default:
        return this.simple(info, at);
    }
  }

  private enter(depth: number, at: number): void {
    if (depth >= this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, at);
  }

  private text(bytes: Uint8Array, at: number): string {
    try {
      return utf8.decode(bytes);
    } catch {
      return this.fail("text string is not valid UTF-8", at);
    }
  }

  private simple(info: number, at: number): CborItem {
    switch (info) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 24: {
        const value = this.uint(1);
        if (value < 32) this.fail(`simple value ${value} in two bytes`, at);
        return { simple: value };
      }
      case 25:
        return halfToNumber(this.uint(2));
      case 26: {
        this.need(4);
        const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.offset, 4).getFloat32(0);
        this.offset += 4;
        return value;
      }
      case 27: {
        this.need(8);
        const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.offset, 8).getFloat64(0);
        this.offset += 8;
        return value;
      }
      default:
        return { simple: info };
    }
  }

  /**
   * Indefinite byte/text string: definite chunks of the same major type up to a break, concatenated. A text
   * chunk must be valid UTF-8 on its own (§3.2.3: a code point cannot span chunks).
   */
  private indefiniteString(major: 2 | 3, depth: number): Uint8Array | string {
    const chunks: (Uint8Array | string)[] = [];
    let total = 0;
    for (;;) {
      const chunkAt = this.offset;
      this.need(1);
      const initial = this.bytes[this.offset]!;
      if (initial === 0xff) {
        this.offset++;
        break;
      }
      if (initial >> 5 !== major || (initial & 0x1f) === 31) {
        this.fail("chunk of an indefinite-length string is not a definite string of the same type", chunkAt);
      }
      const chunk = this.item(depth) as Uint8Array | string;
      chunks.push(chunk);
      if (chunk instanceof Uint8Array) total += chunk.length;
    }
    if (major === 3) return (chunks as string[]).join("");
    const out = new Uint8Array(total);
    let o = 0;
    for (const c of chunks as Uint8Array[]) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }

  private indefiniteArray(depth: number, at: number): CborItem[] {
    this.enter(depth, at);
    const out: CborItem[] = [];
    for (;;) {
      const value = this.item(depth + 1, true);
      if (value === BREAK) return out;
      out.push(value);
    }
  }

  private indefiniteMap(depth: number, at: number): Map<CborItem, CborItem> {
    this.enter(depth, at);
    const map = new Map<CborItem, CborItem>();
    const seen = new Set<string>();
    for (;;) {
      const keyAt = this.offset;
      const key = this.item(depth + 1, true);
      if (key === BREAK) return map;
      this.checkKey(map, seen, key, keyAt);
      map.set(key, this.item(depth + 1));
    }
  }

  /** Rejects a key equal to an earlier one (by value where the key kind allows comparing it cheaply). */
  private checkKey(map: Map<CborItem, CborItem>, seen: Set<string>, key: CborItem, at: number): void {
    let duplicate: boolean;
    if (key instanceof Uint8Array) {
      const id = `b:${hex(key)}`;
      duplicate = seen.has(id);
      seen.add(id);
    } else if (key !== null && typeof key === "object") {
      duplicate = false; // arrays, maps, tags, simple values: not compared
    } else if (typeof key === "bigint") {
      const id = `n:${key}`;
      duplicate = seen.has(id);
      seen.add(id);
    } else {
      duplicate = map.has(key);
    }
    if (duplicate) this.fail("duplicate map key", at);
  }
}

/** IEEE 754 half precision (RFC 8949 Appendix D). */
function halfToNumber(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  let value: number;
  if (exponent === 0) value = mantissa * 2 ** -24;
  else if (exponent !== 31) value = (mantissa + 1024) * 2 ** (exponent - 25);
  else value = mantissa === 0 ? Infinity : NaN;
  return half & 0x8000 ? -value : value;
}
