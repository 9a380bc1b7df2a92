import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as UTIFModule from "utif2";
import { describe, expect, it } from "vitest";
import { decodeTiffLzw } from "../../../src/media/codecs/tiff-lzw";
import { nodeImageCodec } from "../../support/node-codec";
import { prng } from "../../support/prng";

/**
 * TIFF LZW (#22): utif2's decoder loops for ever on a corrupt strip (a code past its table reads undefined prefix
 * links), holding the isolate; the campaign's hostile media found it with 15 bits flipped in the 1.8 KB sample.tif.
 * The codec decodes LZW with our bounded decoder instead: identical on valid strips (cross-checked against utif2's
 * decoder and a round trip through the encoder below), bounded on corrupt ones.
 */
const TIFF = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "sample.tif")));
const UTIF = ((UTIFModule as unknown as { default?: typeof UTIFModule }).default ?? UTIFModule) as typeof UTIFModule;

/** Codes packed most significant bit first, each `width` bits wide (or the width the encoder tracks). */
function packer() {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  return {
    put(code: number, width: number) {
      acc = (acc << width) | code;
      bits += width;
      while (bits >= 8) {
        out.push((acc >>> (bits - 8)) & 255);
        bits -= 8;
      }
      acc &= (1 << bits) - 1;
    },
    bytes() {
      return new Uint8Array(bits > 0 ? [...out, (acc << (8 - bits)) & 255] : out);
    },
  };
}

/** A TIFF LZW encoder for the round trip (as libtiff's: early change, a clear when the table reaches 4094). */
function encodeLzw(input: Uint8Array): Uint8Array {
  const p = packer();
  let table = new Map<number, number>();
  let next = 258;
  let width = 9;
  p.put(256, width);
  let w = -1;
  for (const byte of input) {
    if (w < 0) {
      w = byte;
      continue;
    }
    const known = table.get(w * 256 + byte);
    if (known !== undefined) {
      w = known;
      continue;
    }
    p.put(w, width);
    table.set(w * 256 + byte, next++);
    if (next === 1 << width && width < 12) width++;
    if (next >= 4094) {
      p.put(256, width);
      table = new Map();
      next = 258;
      width = 9;
    }
    w = byte;
  }
  if (w >= 0) p.put(w, width);
  p.put(257, width);
  return p.bytes();
}

/** A pristine copy of utif2 (the codec's is patched): its own LZW decoder, for the cross-check on valid strips only. */
const pristineUtif = (() => {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "..", "node_modules", "utif2", "UTIF.js"), "utf8");
  const module = { exports: {} as typeof UTIFModule };
  new Function("module", "require", source)(module, createRequire(import.meta.url));
  return module.exports;
})();

/** utif2's internal LZW decoder (not in its typings). */
const lzwOf = (utif: typeof UTIFModule) => (utif.decode as unknown as { _decodeLZW: (...a: unknown[]) => number })._decodeLZW;

function flipped(seed: number): Uint8Array {
  const rand = prng(seed);
  const bytes = TIFF.slice();
  const flips = 1 + Math.floor(rand() * 16);
  for (let i = 0; i < flips; i++) bytes[Math.floor(rand() * 1024)]! ^= 1 << Math.floor(rand() * 8);
  return bytes;
}

describe("TIFF LZW decoding is bounded", () => {
  it("round-trips text-like and noisy data across table resets, 9- to 12-bit codes", () => {
    const rand = prng(5);
    for (const n of [1, 2, 300, 5000, 70_000]) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = i % 3 === 0 ? Math.floor(rand() * 256) : Math.floor(rand() * 4);
      const encoded = encodeLzw(data);
      const out = new Uint8Array(n);
      expect(decodeTiffLzw(encoded, 0, encoded.length, out, 0)).toBe(n);
      expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true);
    }
  });

  it("decodes the sample TIFF and round-tripped strips exactly as utif2's own decoder does", () => {
    expect(lzwOf(UTIF)).toBe(decodeTiffLzw); // the codec module (imported above) installed ours
    expect(lzwOf(pristineUtif)).not.toBe(decodeTiffLzw);
    const ifd = UTIF.decode(TIFF.buffer as ArrayBuffer)[0]!;
    expect(Number((ifd["t259"] as number[])[0])).toBe(5);
    const offset = Number((ifd["t273"] as number[])[0]);
    const length = Number((ifd["t279"] as number[])[0]);
    const rand = prng(9);
    const noisy = new Uint8Array(40_000).map((_, i) => (i % 5 === 0 ? Math.floor(rand() * 256) : i & 3));
    const encoded = encodeLzw(noisy);
    for (const [strip, at, len, size] of [
      [TIFF, offset, length, 64 * 48 * 3],
      [encoded, 0, encoded.length, noisy.length],
    ] as const) {
      const ours = new Uint8Array(size);
      const theirs = new Uint8Array(size);
      const end = decodeTiffLzw(strip, at, len, ours, 0);
      lzwOf(pristineUtif)(strip, at, len, theirs, 0, 8);
      expect(end).toBe(size);
      expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
    }
  });

  it("answers the campaign's stalling input (15 bits flipped in sample.tif) within 2 s, and every other flip too", async () => {
    const stalled = flipped(22 * 1_000_003 + (36 * 14 + 13) * 97);
    const t = performance.now();
    const decoded = await nodeImageCodec().decode(stalled, "image/tiff");
    expect(performance.now() - t).toBeLessThan(2000);
    expect(["decoded", "failed"]).toContain(decoded.status);
    const started = performance.now();
    for (let seed = 0; seed < 60; seed++) {
      const status = (await nodeImageCodec().decode(flipped(seed), "image/tiff")).status;
      expect(["decoded", "failed", "too_large"]).toContain(status);
    }
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("stops at a code the table does not hold, a truncated strip, or a full output", () => {
    const out = new Uint8Array(16);
    // 9-bit codes: clear (256), 'A' (65), then 300 (not yet in the table).
    const p = packer();
    for (const code of [256, 65, 300, 66]) p.put(code, 9);
    const bad = p.bytes();
    expect(decodeTiffLzw(bad, 0, bad.length, out, 0)).toBe(1);
    expect(out[0]).toBe(65);
    expect(decodeTiffLzw(bad, 0, 0, out, 0)).toBe(0);
    const long = encodeLzw(new Uint8Array(1000).fill(7));
    expect(decodeTiffLzw(long, 0, long.length, out, 0)).toBe(16);
    expect(decodeTiffLzw(long, 0, long.length + 1000, out, 4)).toBe(16);
  });
});
