/**
 * Review of the pixel levers (#19, h43-photo): PdqFingerprinter.compute's `iscc` feeds ISCC from PDQ's staging
 * chunks, addresses in PDQ's kernel. An ISCC fingerprinter of another kernel (another module instance) must not read
 * its own memory at those addresses and report that as a computed code: it is computed on its own (or not fed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  IsccImageFingerprinter,
  PdqFingerprinter,
  pdqQueryWindowHashes,
  queryWindowFactor,
  queryWindowHashes,
  queryWindowImage,
} from "../../../src/media/fingerprint";
import { goldenImage } from "./fingerprint.simd-golden.cases";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const bytes = readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm"));
const moduleA = new Module(bytes);
const moduleB = new Module(bytes);

describe("PDQ's pass feeding ISCC (review)", () => {
  it("never reports a code fed from another kernel's memory: the result is the ISCC fingerprinter's own code", () => {
    const pdq = new PdqFingerprinter(moduleA);
    const iscc = new IsccImageFingerprinter(moduleB);
    const same = new IsccImageFingerprinter(moduleA);
    for (const [w, h, seed] of [
      [300, 200, 1],
      [1056, 663, 2],
    ] as const) {
      const image = goldenImage(w, h, "photo", seed);
      const want = iscc.compute(image);
      expect(want.status).toBe("computed");
      // dirty the other kernel's memory with another image's pass, as a previous request would
      iscc.compute(goldenImage(w, h, "photo", seed + 10));
      const k = queryWindowFactor(w, h);
      const got = pdq.compute(image, { ...(k > 1 ? { plane: k } : {}), iscc });
      expect(got.status).toBe("computed");
      if (got.iscc) expect(got.iscc, `${w}x${h}`).toEqual(want);
      // the same kernel still feeds it, bit for bit
      const fed = pdq.compute(image, { ...(k > 1 ? { plane: k } : {}), iscc: same });
      expect(fed.iscc, `${w}x${h}`).toEqual(same.compute(image));
    }
  });
});

describe("the verify path's levers against the plain computations (review)", () => {
  const pdq = new PdqFingerprinter(moduleA);
  const iscc = new IsccImageFingerprinter(moduleA);
  let seed = 0x1234567;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  /** Texture with the kinds of alpha and borders that decide ISCC's first pass and the windows' plane. */
  function image(w: number, h: number, kind: "noise" | "inner-alpha" | "edge-alpha" | "uniform-top" | "flat") {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        let v = [next() & 255, (x * 7 + y * 3) & 255, (x ^ y) & 255];
        let a = 255;
        if (kind === "flat") v = [90, 90, x > w >> 1 ? 91 : 90];
        if (kind === "uniform-top" && y === 0) v = [0, 0, 0];
        if (kind === "inner-alpha" && x > 0 && y > 0 && x < w - 1 && y < h - 1 && (x * 31 + y * 17) % 5 === 0) a = (x * y) & 255;
        if (kind === "edge-alpha" && x === w - 1 && y === h >> 1) a = 3;
        data.set([...v, a], o);
      }
    if (kind === "uniform-top") data.set([0, 0, 0, 255], 0);
    return { width: w, height: h, data };
  }

  it("gives the plain PDQ hash, ISCC code and windows at odd sizes, chunk and band edges, with alpha and borders", () => {
    let fed = 0;
    let planed = 0;
    for (const [w, h] of [
      [1, 1],
      [7, 1],
      [5, 5],
      [64, 64],
      [256, 256], // exactly one 256 KiB chunk
      [256, 257], // a chunk and one row
      [769, 129], // just over the cap: factor 1 by the shorter side
      [1024, 1537], // 64-row chunks of whole bands, the last one a single row
      [1025, 1537],
      [1537, 769], // factor 3
      [2305, 300],
    ] as const)
      for (const kind of ["noise", "inner-alpha", "edge-alpha", "uniform-top", "flat"] as const) {
        const img = image(w, h, kind);
        const name = `${w}x${h} ${kind}`;
        const wantPdq = pdq.compute(img);
        const wantIscc = iscc.compute(img);
        const wantWindows = pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, img));
        const k = queryWindowFactor(w, h);
        const got = pdq.compute(img, { ...(k > 1 ? { plane: k } : {}), iscc });
        const { plane, iscc: beside, ...hash } = got;
        expect(hash, name).toEqual(wantPdq);
        const windows = queryWindowHashes(pdq, img, undefined, plane);
        expect(windows.fallback, name).toBeUndefined();
        expect(windows.result, name).toEqual(wantWindows);
        if (beside) {
          expect(beside, name).toEqual(wantIscc);
          fed++;
        }
        if (plane) planed++;
      }
    expect(fed).toBeGreaterThan(10);
    expect(planed).toBeGreaterThan(10);
  });
});

describe("the windows' plane left in the kernel (review)", () => {
  it("is not read once another computation has begun in the kernel: the windows reduce the image again", () => {
    const pdq = new PdqFingerprinter(moduleA);
    const image = goldenImage(1056, 663, "photo", 4);
    const want = pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, image));
    const computed = pdq.compute(image, { plane: queryWindowFactor(1056, 663) });
    expect(computed.plane).toBeDefined();
    // a larger image's PDQ lays its work area over the plane
    pdq.compute(goldenImage(3000, 2000, "photo", 9));
    const got = queryWindowHashes(pdq, image, undefined, computed.plane);
    expect(got.fallback).toBeUndefined();
    expect(got.result).toEqual(want);
    // a plane of the kernel's last computation is still read (and gives the same windows), ISCC fed beside it too
    const again = pdq.compute(image, { plane: queryWindowFactor(1056, 663), iscc: new IsccImageFingerprinter(moduleA) });
    expect(again.iscc?.status).toBe("computed");
    expect(again.plane?.computation).toBe(pdq.kernel.computations);
    expect(queryWindowHashes(pdq, image, undefined, again.plane).result).toEqual(want);
  });
});
