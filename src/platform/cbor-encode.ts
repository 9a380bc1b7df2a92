/**
 * The CBOR encoder (RFC 8949) next to the decoder of cbor.ts, which re-exports it: a tiny deterministic encoder
 * for the subset COSE needs. Our own rather than cbor-x: the exact byte length matters (a C2PA signature must
 * fill its reserved box to the byte) and the protected header bytes are signed, so every length and key must
 * encode in its shortest form, predictably.
 */

/** A CBOR value of the subset COSE needs. Maps are entry lists so their order is ours. */
export type CborValue =
  | number
  | string
  | Uint8Array
  | null
  | CborValue[]
  | { map: [CborValue, CborValue][] }
  | { tag: number; value: CborValue };

/** Encodes `value` as CBOR with shortest-form lengths (RFC 8949 §4.2.1 preferred serialization). */
export function encodeCbor(value: CborValue): Uint8Array {
  const out = new ByteSink();
  writeCbor(out, value);
  return out.bytes();
}

function writeCbor(out: ByteSink, value: CborValue): void {
  if (value === null) {
    out.push(0xf6);
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error("CBOR: only safe integers are supported");
    if (value >= 0) writeHead(out, 0, value);
    else writeHead(out, 1, -1 - value);
  } else if (typeof value === "string") {
    const utf8 = new TextEncoder().encode(value);
    writeHead(out, 3, utf8.length);
    out.append(utf8);
  } else if (value instanceof Uint8Array) {
    writeHead(out, 2, value.length);
    out.append(value);
  } else if (Array.isArray(value)) {
    writeHead(out, 4, value.length);
    for (const item of value) writeCbor(out, item);
  } else if ("map" in value) {
    writeHead(out, 5, value.map.length);
    for (const [k, v] of value.map) {
      writeCbor(out, k);
      writeCbor(out, v);
    }
  } else {
    writeHead(out, 6, value.tag);
    writeCbor(out, value.value);
  }
}

function writeHead(out: ByteSink, major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.push(m | n);
  else if (n < 0x100) out.push(m | 24, n);
  else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.push(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  else {
    const hi = Math.floor(n / 0x100000000);
    out.push(m | 27, (hi >>> 24) & 0xff, (hi >> 16) & 0xff, (hi >> 8) & 0xff, hi & 0xff);
    out.push((n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
}

/** Size in bytes of the CBOR head for a length `n` (how much a length adds to an item, for padding). */
export function cborHeadSize(n: number): number {
  if (n < 24) return 1;
  if (n < 0x100) return 2;
  if (n < 0x10000) return 3;
  if (n < 0x100000000) return 5;
  return 9;
}

class ByteSink {
  private chunks: Uint8Array[] = [];
  private small: number[] = [];
  private length = 0;
  push(...bytes: number[]): void {
    for (const b of bytes) this.small.push(b);
  }
  append(bytes: Uint8Array): void {
    this.flushSmall();
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  bytes(): Uint8Array {
    this.flushSmall();
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    return out;
  }
  private flushSmall(): void {
    if (this.small.length === 0) return;
    this.chunks.push(Uint8Array.from(this.small));
    this.length += this.small.length;
    this.small = [];
  }
}
