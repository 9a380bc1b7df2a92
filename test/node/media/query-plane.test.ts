/**
 * #19: the image a verification hashes its PDQ query windows on (media/fingerprint/query-plane.ts): PDQ's input
 * box-reduced by a whole factor to at most QUERY_WINDOW_MAX_SIDE px a side; images within the cap, and transparent
 * ones, pass through untouched (the same object); the reduction is exact (each channel the rounded mean of its block,
 * edge blocks averaging the pixels they have) and deterministic.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  boxReduce,
  IsccImageFingerprinter,
  PDQ_QUERY_WINDOWS,
  PdqFingerprinter,
  pdqQueryWindowHashes,
  QUERY_WINDOW_MAX_SIDE,
  QUERY_WINDOW_MIN_SIDE,
  queryWindowFactor,
  queryWindowHashes,
  queryWindowImage,
} from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { goldenImage } from "./fingerprint.simd-golden.cases";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const module = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(module);
const iscc = new IsccImageFingerprinter(module);

/** The reduction by definition: each output channel the rounded mean of the (up to) k x k pixels its block covers. */
function reference(image: RgbaImage, k: number): RgbaImage {
  const w = Math.ceil(image.width / k);
  const h = Math.ceil(image.height / k);
  const out = new Uint8Array(w * h * 4);
  for (let by = 0; by < h; by++)
    for (let bx = 0; bx < w; bx++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        let n = 0;
        for (let y = by * k; y < Math.min(image.height, (by + 1) * k); y++)
          for (let x = bx * k; x < Math.min(image.width, (bx + 1) * k); x++) {
            sum += image.data[(y * image.width + x) * 4 + c]!;
            n++;
          }
        out[(by * w + bx) * 4 + c] = Math.floor((sum + (n >> 1)) / n);
      }
  return { width: w, height: h, data: out };
}

describe("PDQ query windows' image (#19)", () => {
  it("picks the whole factor that brings the longer side within the cap, keeping the shorter side's minimum", () => {
    expect(QUERY_WINDOW_MAX_SIDE).toBe(768);
    expect(queryWindowFactor(768, 500)).toBe(1); // within the cap
    expect(queryWindowFactor(769, 500)).toBe(2);
    expect(queryWindowFactor(1056, 663)).toBe(2); // the 2.8 MP bench photograph's verify plane: 528 x 332
    expect(queryWindowFactor(640, 400)).toBe(1); // a 1 MP JPEG read at 1/2
    expect(queryWindowFactor(1056, 663, 512)).toBe(3); // a cap of 512: 352 x 221
    expect(queryWindowFactor(3000, 300)).toBe(2); // a wide image: the shorter side stays >= 128 (1500 x 150)
    expect(queryWindowFactor(6000, 200)).toBe(1);
    for (const [w, h] of [
      [1056, 663],
      [1452, 1000],
      [700, 430],
      [663, 1056],
    ] as const) {
      const k = queryWindowFactor(w, h);
      expect(Math.max(Math.ceil(w / k), Math.ceil(h / k)), `${w}x${h}`).toBeLessThanOrEqual(QUERY_WINDOW_MAX_SIDE);
      expect(Math.min(Math.ceil(w / k), Math.ceil(h / k)), `${w}x${h}`).toBeGreaterThanOrEqual(QUERY_WINDOW_MIN_SIDE);
    }
  });

  it("reduces a small plane to exactly the rounded block means (an edge block of 2 x 3 pixels)", () => {
    // 5 x 3, red channel below, green 255 - red, blue 7, opaque; cap 2 (minimum side 1): factor 3, a 2 x 1 image
    const red = [0, 10, 20, 30, 41, 1, 11, 21, 31, 40, 2, 12, 22, 33, 45];
    const data = new Uint8Array(15 * 4);
    red.forEach((r, i) => data.set([r, 255 - r, 7, 255], i * 4));
    const image = { width: 5, height: 3, data };
    expect(queryWindowFactor(5, 3, 2, 1)).toBe(3);
    const got = queryWindowImage(module, image, 2, 1);
    // red 99/9 = 11, 220/6 = 36.67 -> 37; green 2196/9 = 244, 1310/6 = 218.33 -> 218
    expect({ width: got.width, height: got.height, data: [...got.data] }).toEqual({
      width: 2,
      height: 1,
      data: [11, 244, 7, 255, 37, 218, 7, 255],
    });
    expect([...image.data]).toEqual([...data]); // the input is not written
  });

  it("passes an image within the cap, or a transparent one, through untouched (the same object)", () => {
    const small = goldenImage(768, 500, "photo", 1);
    const before = small.data.slice();
    expect(queryWindowImage(module, small)).toBe(small);
    expect(small.data).toEqual(before);
    expect(queryWindowImage(pdq.kernel, small)).toBe(small);
    const transparent = goldenImage(1056, 663, "photo", 2);
    transparent.data[4 * 1000 + 3] = 254;
    expect(queryWindowImage(module, transparent)).toBe(transparent);
  });

  it("is the reference reduction of a verify plane, the same on every call, and its windows are computed", () => {
    const image = goldenImage(1056, 663, "photo", 3);
    const first = queryWindowImage(pdq.kernel, image);
    expect(first.width).toBe(528);
    expect(first.height).toBe(332);
    expect(first.data).toEqual(reference(image, 2).data);
    expect(queryWindowImage(module, image, 512).data).toEqual(reference(image, 3).data);
    expect(queryWindowImage(pdq.kernel, image).data).toEqual(first.data);
    const windows = pdqQueryWindowHashes(pdq, first);
    expect(windows.status).toBe("computed");
    if (windows.status === "computed") expect(windows.regions.map((r) => r.region)).toEqual(PDQ_QUERY_WINDOWS.map((r) => r.id));
  });

  it("reduces by every factor exactly as the definition, whatever the size, edges and alpha (the SIMD paths)", () => {
    // a deterministic generator: widths around the 4-pixel SIMD runs and odd edges, factors 2-5, opaque and not
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    let cases = 0;
    for (const [w, h] of [
      [1, 1],
      [2, 2],
      [7, 3],
      [8, 2],
      [9, 5],
      [16, 4],
      [17, 9],
      [33, 7],
      [64, 31],
      [101, 67],
    ] as const)
      for (const k of [2, 3, 4, 5])
        for (const alpha of ["opaque", "mixed", "one"] as const) {
          const data = new Uint8Array(w * h * 4);
          for (let i = 0; i < data.length; i++) data[i] = next() & 255;
          for (let i = 3; i < data.length; i += 4) data[i] = alpha === "mixed" ? next() & 255 : 255;
          if (alpha === "one") data[4 * ((w * h) >> 1) + 3] = 254; // a single translucent pixel anywhere
          const image = { width: w, height: h, data };
          const got = boxReduce(module, image, k);
          const want = reference(image, k);
          expect({ w: got.image.width, h: got.image.height }, `${w}x${h} k${k}`).toEqual({ w: want.width, h: want.height });
          expect(Buffer.from(got.image.data).equals(Buffer.from(want.data)), `${w}x${h} k${k} ${alpha}`).toBe(true);
          expect(got.opaque, `${w}x${h} k${k} ${alpha}`).toBe(alpha === "opaque");
          cases++;
        }
    expect(cases).toBe(120);
    // images over one staging chunk (about 1 MiB of whole bands): the bands of several chunks, the last one short
    for (const [w, h, k] of [
      [1001, 700, 2],
      [1000, 703, 3],
      [3001, 101, 2],
    ] as const) {
      const data = new Uint8Array(w * h * 4);
      for (let i = 0; i < data.length; i++) data[i] = i % 4 === 3 ? 255 : next() & 255;
      const image = { width: w, height: h, data };
      const got = boxReduce(module, image, k);
      expect(Buffer.from(got.image.data).equals(Buffer.from(reference(image, k).data)), `${w}x${h} k${k}`).toBe(true);
      expect(got.opaque).toBe(true);
    }
  });
  it("hashes the windows inside the kernel exactly as on the copied-out image (queryWindowHashes)", () => {
    // the verify path (pixel-facts.ts) against what it replaced: queryWindowImage's image, then pdqQueryWindowHashes;
    // reduced by 2 and 3, within the cap (untouched), transparent (windows on the image itself), a wide image, too
    // small for windows, and after another computation left the kernel's memory larger and dirty
    const transparent = goldenImage(1056, 663, "photo", 5);
    transparent.data[4 * 777 + 3] = 200;
    const cases: [string, RgbaImage, number?][] = [
      ["verify plane, 2.8 MP photograph's size", goldenImage(1056, 663, "photo", 4)],
      ["bordered, odd edges", goldenImage(1165, 775, "bordered", 6)],
      ["cap 512: factor 3", goldenImage(1056, 663, "photo", 7), 512],
      ["within the cap", goldenImage(768, 500, "photo", 8)],
      ["transparent", transparent],
      ["wide", goldenImage(3000, 300, "photo", 9)],
      ["too small after the reduction", goldenImage(1600, 70, "photo", 10)],
    ];
    const other = goldenImage(1200, 900, "photo", 11);
    for (const [name, image, cap] of cases) {
      const before = image.data.slice();
      const want = pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, image, cap));
      pdq.compute(other); // another computation in between: a larger, dirty work area
      const got = queryWindowHashes(pdq, image, cap);
      expect(got.fallback, name).toBeUndefined();
      expect(got.result, name).toEqual(want);
      expect(Buffer.from(image.data).equals(Buffer.from(before)), name).toBe(true);
    }
    expect(queryWindowHashes(pdq, goldenImage(1056, 663, "photo", 4)).result.status).toBe("computed");
  });

  it("reduces the windows' image beside PDQ's own pass: the same hash, the same plane, the same windows", () => {
    const transparent = goldenImage(1001, 703, "photo", 13);
    transparent.data[4 * 5000 + 3] = 9;
    for (const [name, image, k] of [
      ["verify plane", goldenImage(1056, 663, "photo", 12), 2],
      ["odd edges, factor 3", goldenImage(1165, 775, "bordered", 14), 3],
      ["transparent", transparent, 2],
      ["chunks of many bands", goldenImage(700, 2400, "photo", 15), 4],
    ] as const) {
      const plain = pdq.compute(image);
      const withPlane = pdq.compute(image, { plane: k });
      const { plane, ...hash } = withPlane;
      expect(hash, name).toEqual(plain);
      expect(plane, name).toBeDefined();
      if (!plane) continue;
      const want = boxReduce(module, image, k);
      // boxReduce ran after: the plane is read again by a fresh compute with it
      const again = pdq.compute(image, { plane: k });
      const at = again.plane!.at;
      const got = new Uint8Array(pdq.kernel.exports.memory.buffer, at, plane.width * plane.height * 4);
      expect({ w: plane.width, h: plane.height, opaque: plane.opaque }, name).toEqual({
        w: want.image.width,
        h: want.image.height,
        opaque: want.opaque,
      });
      expect(Buffer.from(got).equals(Buffer.from(want.image.data)), name).toBe(true);
      const windows = queryWindowHashes(pdq, image, QUERY_WINDOW_MAX_SIDE, again.plane);
      expect(windows.result, name).toEqual(pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, image)));
    }
  });
  it("computes ISCC's code beside PDQ's pass exactly as on its own, with or without the windows' plane", () => {
    const transparent = goldenImage(1056, 663, "photo", 21);
    transparent.data[4 * 1234 + 3] = 77;
    const cornerTransparent = goldenImage(900, 600, "photo", 22);
    cornerTransparent.data[3] = 0; // a transparent corner: ISCC's first pass decides the box, so nothing beside
    let fed = 0;
    for (const [name, image, k] of [
      ["verify plane", goldenImage(1056, 663, "photo", 20), 2],
      ["no plane", goldenImage(640, 400, "photo", 23), undefined],
      ["tall, factor 4", goldenImage(700, 2400, "photo", 24), 4],
      ["transparent pixel", transparent, 2],
      ["uniform border: not beside", goldenImage(1165, 775, "bordered", 25), 2],
      ["transparent corner: not beside", cornerTransparent, 2],
    ] as const) {
      const alone = iscc.compute(image);
      const plain = pdq.compute(image);
      const both = pdq.compute(image, { ...(k ? { plane: k } : {}), iscc });
      const { plane: _plane, iscc: beside, ...hash } = both;
      expect(hash, name).toEqual(plain);
      if (name.endsWith("not beside")) expect(beside, name).toBeUndefined();
      else {
        expect(beside, name).toEqual(alone);
        fed++;
      }
    }
    expect(fed).toBe(4);
  });
});
