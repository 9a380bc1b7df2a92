/**
 * PDQ of fixed windows (src/media/fingerprint/regions.ts): computeWindow equals PDQ of a copy of the window, bit for
 * bit; a copy cropped to a window's frame hashes close to that window (not to the whole image); flat windows report
 * a low quality (publication indexes only windows of quality >= 50: a flat corner cannot match everything); bad
 * input gets a status, never a throw.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  hammingDistance,
  PDQ_QUERY_WINDOWS,
  PDQ_REGION_MAX_PIXELS,
  PDQ_REGIONS,
  PdqFingerprinter,
  pdqQueryWindowBits,
  pdqQueryWindowHashes,
  pdqRegionHashes,
  regionWindow,
} from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE } from "../../../src/soft-bindings/repo";

// the Workers types declare WebAssembly.Module abstract; Node has the constructor
const module = new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(
  readFileSync(join(import.meta.dirname, "../../../wasm/build/fingerprint.wasm")),
);
const pdq = new PdqFingerprinter(module);

/** Smooth blobs plus grain: photo-like texture PDQ rates well (deterministic). */
function scene(width: number, height: number, seed: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) >>> 8) / 16777216;
  const blobs = Array.from({ length: 24 }, () => ({ x: rnd() * width, y: rnd() * height, r: 20 + rnd() * 120, v: rnd() * 255 }));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let v = 60;
      for (const b of blobs) if ((x - b.x) ** 2 + (y - b.y) ** 2 < b.r * b.r) v = (v + b.v) / 2;
      const i = (y * width + x) * 4;
      data[i] = Math.min(255, v + rnd() * 12);
      data[i + 1] = Math.min(255, v * 0.8 + rnd() * 12);
      data[i + 2] = Math.min(255, 255 - v + rnd() * 12);
      data[i + 3] = 255;
    }
  return { width, height, data };
}

function crop(image: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  for (let r = 0; r < h; r++)
    data.set(image.data.subarray(((y + r) * image.width + x) * 4, ((y + r) * image.width + x + w) * 4), r * w * 4);
  return { width: w, height: h, data };
}

/** Half size, each pixel the mean of a 2 x 2 block (a downscaled copy). */
function halve(image: RgbaImage): RgbaImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        const at = (yy: number, xx: number) => image.data[(yy * image.width + xx) * 4 + c]!;
        data[(y * width + x) * 4 + c] =
          (at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1) + 2) >> 2;
      }
  return { width, height, data };
}

describe("PDQ regions", () => {
  it("computeWindow is PDQ of the window's copy, bit for bit, for every region", () => {
    const image = scene(523, 389, 7);
    for (const region of PDQ_REGIONS) {
      const { x, y, w, h } = regionWindow(region, image.width, image.height);
      const windowed = pdq.computeWindow(image, x, y, w, h);
      const copied = pdq.compute(crop(image, x, y, w, h));
      expect(windowed.status === "computed" && copied.status === "computed").toBe(true);
      if (windowed.status !== "computed" || copied.status !== "computed") continue;
      expect(windowed.value, `region ${region.id}`).toBe(copied.value);
      expect(windowed.quality).toBe(copied.quality);
    }
  });

  it("region ids are stable: corners and centre at 90 % and 80 %, one border cut, then (#20) the quarter offsets", () => {
    expect(PDQ_REGIONS.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // ids 0-17 name the windows they named before #20, to the last bit (the index stores ids)
    const before: [number, number, number, number][] = [];
    for (const keep of [0.9, 0.8]) {
      const m = 1 - keep;
      for (const [x0, y0] of [
        [0, 0],
        [m, 0],
        [0, m],
        [m, m],
        [m / 2, m / 2],
      ] as const)
        before.push([x0, y0, x0 + keep, y0 + keep]);
    }
    for (const keep of [0.9, 0.8]) {
      const m = 1 - keep;
      before.push([m, 0, 1, 1], [0, 0, keep, 1], [0, m, 1, 1], [0, 0, 1, keep]);
    }
    expect(PDQ_REGIONS.slice(0, 18).map((r) => [r.x0, r.y0, r.x1, r.y1])).toEqual(before);
    // 18-29: 90, 85 and 80 % of each side, a quarter or three quarters of the margin from the left and the top
    for (const [i, keep] of [0.9, 0.85, 0.8].entries()) {
      const group = PDQ_REGIONS.slice(18 + 4 * i, 22 + 4 * i);
      const m = 1 - keep;
      expect(group.map((r) => [r.x0 / m, r.y0 / m])).toEqual(
        [
          [0.25, 0.25],
          [0.75, 0.25],
          [0.25, 0.75],
          [0.75, 0.75],
        ].map(([x, y]) => [expect.closeTo(x!, 9), expect.closeTo(y!, 9)]),
      );
      for (const r of group) expect([r.x1 - r.x0, r.y1 - r.y0]).toEqual([expect.closeTo(keep, 9), expect.closeTo(keep, 9)]);
    }
    for (const r of PDQ_REGIONS) expect(r.x0 >= 0 && r.y0 >= 0 && r.x1 <= 1 + 1e-9 && r.y1 <= 1 + 1e-9).toBe(true);
  });

  it("#20: a copy cropped to 85 % a quarter of the margin from two sides, then halved, is near its quarter window only", () => {
    const image = scene(800, 600, 23);
    const whole = pdq.compute(image);
    const regions = pdqRegionHashes(pdq, image);
    if (whole.status !== "computed" || regions.status !== "computed") throw new Error("not computed");
    const [w, h] = [680, 510]; // 85 %
    const [x, y] = [Math.round((800 - w) * 0.25), Math.round((600 - h) * 0.75)];
    const copy = pdq.compute(halve(crop(image, x, y, w, h)));
    if (copy.status !== "computed") throw new Error("copy");
    const distance = (id: number) => hammingDistance(copy.bits, regions.regions.find((r) => r.region === id)!.bits);
    const quarter = PDQ_REGIONS.find((r) => r.x1 - r.x0 > 0.84 && r.x1 - r.x0 < 0.86 && r.x0 < 0.05 && r.y0 > 0.1)!;
    expect(quarter.id).toBe(24);
    expect(distance(quarter.id)).toBeLessThanOrEqual(16);
    expect(hammingDistance(copy.bits, whole.bits)).toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
    for (const r of PDQ_REGIONS.slice(0, 18)) expect(distance(r.id), `region ${r.id}`).toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
  });

  it("a copy cropped 10 % and 20 % from a corner is within the match distance of its window, not of the whole image", () => {
    const image = scene(640, 480, 11);
    const whole = pdq.compute(image);
    const regions = pdqRegionHashes(pdq, image);
    if (whole.status !== "computed" || regions.status !== "computed") throw new Error("not computed");
    for (const [keep, id] of [
      [0.9, 3],
      [0.8, 8],
    ] as const) {
      const x = Math.round((1 - keep) * 640);
      const y = Math.round((1 - keep) * 480);
      const copy = pdq.compute(crop(image, x, y, 640 - x, 480 - y));
      if (copy.status !== "computed") throw new Error("copy");
      expect(hammingDistance(copy.bits, whole.bits)).toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
      const window = regions.regions.find((r) => r.region === id)!;
      expect(hammingDistance(copy.bits, window.bits)).toBeLessThanOrEqual(8);
    }
  });

  it("flat windows have low quality, so publication does not index them (a flat query cannot match everything)", () => {
    const flat: RgbaImage = { width: 600, height: 400, data: new Uint8Array(600 * 400 * 4).fill(128) };
    const regions = pdqRegionHashes(pdq, flat);
    expect(regions.status).toBe("computed");
    if (regions.status === "computed") for (const r of regions.regions) expect(r.quality).toBeLessThan(PDQ_MIN_QUALITY);
  });

  it("bad input gets a status, never a throw; large images are skipped, windows outside the image refused", () => {
    const tiny: RgbaImage = { width: 30, height: 30, data: new Uint8Array(30 * 30 * 4) };
    expect(pdqRegionHashes(pdq, tiny).status).toBe("skipped");
    const side = Math.ceil(Math.sqrt(PDQ_REGION_MAX_PIXELS)) + 1;
    expect(pdqRegionHashes(pdq, { width: side, height: side, data: new Uint8Array(0) }).status).toBe("skipped");
    expect(pdqRegionHashes(pdq, { width: -1, height: 5, data: new Uint8Array(0) }).status).toBe("failed");
    expect(pdqRegionHashes(pdq, null as unknown as RgbaImage).status).toBe("failed");
    expect(pdqRegionHashes(pdq, { width: 100, height: 100, data: new Uint8Array(10) }).status).toBe("failed");
    const image = scene(100, 80, 1);
    expect(pdq.computeWindow(image, 50, 0, 51, 80).status).toBe("failed");
    expect(pdq.computeWindow(image, 0, 0, 0, 80).status).toBe("failed");
    expect(pdq.computeWindow(image, 0.5, 0, 10, 10).status).toBe("failed");
    expect(pdq.computeWindow(image, 0, 0, 100, 80)).toEqual(pdq.compute(image));
  });
});

/*
 * #20: the windows a verification hashes of its own image (PDQ_QUERY_WINDOWS). A copy cropped to 85 % of each side is
 * none of the published windows (0.9 / 0.8 of a side), so its whole-image hash is far from all of them; the copy's
 * window at 0.94 of its side anchored where the crop was is the published 0.8 window within about 1 % of scale.
 */
describe("PDQ query windows", () => {
  it("15 windows at 0.97, 0.94 and 0.91 of each side, at the four corners and the centre, inside the image", () => {
    expect(PDQ_QUERY_WINDOWS).toHaveLength(15);
    expect(PDQ_QUERY_WINDOWS.map((r) => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    for (const [i, keep] of [0.97, 0.94, 0.91].entries()) {
      const group = PDQ_QUERY_WINDOWS.slice(5 * i, 5 * i + 5);
      for (const r of group) {
        expect(r.x1 - r.x0).toBeCloseTo(keep);
        expect(r.y1 - r.y0).toBeCloseTo(keep);
        expect(r.x0 >= 0 && r.y0 >= 0 && r.x1 <= 1 + 1e-9 && r.y1 <= 1 + 1e-9).toBe(true);
      }
      expect(group[4]!.x0).toBeCloseTo((1 - keep) / 2);
    }
  });

  it("each query window's hash is PDQ of the window's copy, bit for bit", () => {
    const image = scene(411, 297, 5);
    const computed = pdqQueryWindowHashes(pdq, image);
    if (computed.status !== "computed") throw new Error(computed.status);
    expect(computed.regions.map((r) => r.region)).toEqual(PDQ_QUERY_WINDOWS.map((r) => r.id));
    for (const [i, region] of PDQ_QUERY_WINDOWS.entries()) {
      const { x, y, w, h } = regionWindow(region, image.width, image.height);
      const copied = pdq.compute(crop(image, x, y, w, h));
      if (copied.status !== "computed") throw new Error("copy");
      expect(hammingDistance(computed.regions[i]!.bits, copied.bits), `window ${i}`).toBe(0);
      expect(computed.regions[i]!.quality).toBe(copied.quality);
    }
  });

  it("a copy cropped to 85 % from a corner or centred: far from every published window, one of its windows near the 0.8 one", () => {
    const image = scene(640, 480, 23);
    const published = pdqRegionHashes(pdq, image);
    if (published.status !== "computed") throw new Error("regions");
    for (const [x, y, region] of [
      [0, 0, 5],
      [96, 72, 8],
      [48, 36, 9],
    ] as const) {
      const copy = crop(image, x, y, 544, 408);
      const whole = pdq.compute(copy);
      if (whole.status !== "computed") throw new Error("copy");
      const nearestWhole = Math.min(...published.regions.map((r) => hammingDistance(whole.bits, r.bits)));
      expect(nearestWhole, `crop at ${x},${y}`).toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
      const windows = pdqQueryWindowBits(pdq, copy, PDQ_MIN_QUALITY);
      expect(windows.length).toBeGreaterThan(0);
      const target = published.regions.find((r) => r.region === region)!.bits;
      const nearest = Math.min(...windows.map((w) => hammingDistance(w, target)));
      expect(nearest, `crop at ${x},${y} against window ${region}`).toBeLessThanOrEqual(PDQ_REGION_MATCH_DISTANCE);
    }
  });

  it("windows under the quality gate are not looked up; an image too small or too large for windows gives none", () => {
    const flat: RgbaImage = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 4).fill(90) };
    expect(pdqQueryWindowBits(pdq, flat, PDQ_MIN_QUALITY)).toEqual([]);
    const textured = pdqQueryWindowBits(pdq, scene(300, 200, 3), PDQ_MIN_QUALITY).length;
    expect(textured > 0 && textured <= 15).toBe(true);
    expect(pdqQueryWindowHashes(pdq, { width: 30, height: 30, data: new Uint8Array(30 * 30 * 4) }).status).toBe("skipped");
    expect(pdqQueryWindowBits(pdq, { width: 30, height: 30, data: new Uint8Array(30 * 30 * 4) }, PDQ_MIN_QUALITY)).toEqual([]);
    const side = Math.ceil(Math.sqrt(PDQ_REGION_MAX_PIXELS)) + 1;
    expect(pdqQueryWindowBits(pdq, { width: side, height: side, data: new Uint8Array(0) }, PDQ_MIN_QUALITY)).toEqual([]);
  });
});
