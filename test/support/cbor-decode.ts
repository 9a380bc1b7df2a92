/**
 * A small, strict CBOR (RFC 8949) decoder for tests: an implementation independent of the encoder in
 * src/media/c2pa/cose.ts, so tests check our bytes against the standard rather than against themselves.
 * Definite lengths only (what COSE uses); maps decode to Map, tags to { tag, value }.
 */
export interface CborTag {
  tag: number;
  value: unknown;
}

export function decodeCbor(bytes: Uint8Array): unknown {
  let offset = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (n: number) => {
    if (offset + n > bytes.length) throw new Error(`CBOR truncated at ${offset}`);
  };
  const argument = (info: number): number => {
    if (info < 24) return info;
    const size = { 24: 1, 25: 2, 26: 4, 27: 8 }[info];
    if (!size) throw new Error(`CBOR indefinite or reserved length (${info}) at ${offset}`);
    need(size);
    const at = offset;
    offset += size;
    if (size === 1) return view.getUint8(at);
    if (size === 2) return view.getUint16(at);
    if (size === 4) return view.getUint32(at);
    const big = view.getBigUint64(at);
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("CBOR integer beyond 2^53");
    return Number(big);
  };
  const item = (): unknown => {
    need(1);
    const initial = bytes[offset++]!;
    const major = initial >> 5;
    const info = initial & 31;
    if (major === 7) {
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22) return null;
      if (info === 23) return undefined;
      if (info === 25 || info === 26 || info === 27) {
        const size = { 25: 2, 26: 4, 27: 8 }[info]!;
        need(size);
        const at = offset;
        offset += size;
        if (size === 2) throw new Error("CBOR half floats are not used by COSE");
        return size === 4 ? view.getFloat32(at) : view.getFloat64(at);
      }
      throw new Error(`CBOR simple value ${info}`);
    }
    const n = argument(info);
    switch (major) {
      case 0:
        return n;
      case 1:
        return -1 - n;
      case 2: {
        need(n);
        offset += n;
        return bytes.slice(offset - n, offset);
      }
      case 3: {
        need(n);
        offset += n;
        return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes.subarray(offset - n, offset));
      }
      case 4:
        return Array.from({ length: n }, item);
      case 5: {
        const map = new Map<unknown, unknown>();
        for (let i = 0; i < n; i++) {
          const key = item();
          map.set(key, item());
        }
        return map;
      }
      default:
        return { tag: n, value: item() } satisfies CborTag;
    }
  };
  const value = item();
  if (offset !== bytes.length) throw new Error(`CBOR: ${bytes.length - offset} trailing bytes`);
  return value;
}
