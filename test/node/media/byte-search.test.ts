/** indexOfBytes (byte-search.ts) is an exact search: the same first index as a naive scan, whatever its pivot. */
import { describe, expect, it } from "vitest";
import { indexOfBytes } from "../../../src/media/c2pa/byte-search";

function naive(h: Uint8Array, n: Uint8Array): number {
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let j = 0; j < n.length; j++) if (h[i + j] !== n[j]) continue outer;
    return i;
  }
  return -1;
}

/** A deterministic generator (xorshift32) over a small alphabet, so that partial matches are frequent. */
function bytes(seed: number, length: number, alphabet: number[]): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return alphabet[(x >>> 0) % alphabet.length]!;
  });
}

describe("indexOfBytes", () => {
  it("finds what a naive scan finds, first occurrence, at the edges, or nothing", () => {
    const alphabet = [0x30, 0x31, 0x06, 0x0c, 0x41, 0x42, 0x00];
    for (let seed = 1; seed <= 300; seed++) {
      const h = bytes(seed, 400, alphabet);
      const at = seed % 390;
      const len = 1 + (seed % 9);
      for (const n of [h.slice(at, at + len), bytes(seed * 7 + 1, len, alphabet), h.slice(0, len), h.slice(h.length - len)]) {
        expect(indexOfBytes(h, n)).toBe(naive(h, n));
      }
    }
    expect(indexOfBytes(new Uint8Array([1, 2]), new Uint8Array(0))).toBe(0);
    expect(indexOfBytes(new Uint8Array([0x41]), new Uint8Array([0x30, 0x41]))).toBe(-1);
    expect(indexOfBytes(new Uint8Array([0x30, 0x41, 0x30]), new Uint8Array([0x30, 0x41, 0x30, 0x41]))).toBe(-1);
  });
});
