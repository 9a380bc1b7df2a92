/**
 * #19: stage 2 of the watermark detector scans every whole tile period (sigma = p / 128, p = 124..149, a fold at a
 * whole period being a sum modulo p and a p x p splat) and ends after that scan when no hypothesis reaches the decode
 * threshold (5). Checked here: an unmarked image ends there (scan z below 5, no decode attempted); a marked image
 * cropped on two sides (a scale of 1.11, between two whole periods) is still found after the refinement, with its
 * scan above the floor; canonical grids narrower or shorter than a period (an elongated image, the smallest accepted
 * edge) and a flat image are searched without error and without a false detection.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbaImage } from "../../../src/media/types";
import { WasmWatermarker } from "../../../src/media/watermark";

// @ts-expect-error -- a JavaScript module without declarations (the benchmarks' seeded images)
const images = await import("../../../bench/lib/images.mjs");
const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module;
const wm = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));
const make = (kind: string, w: number, h: number, seed: number) => images.makeImage(kind, w, h, seed) as RgbaImage;
const crop = (im: RgbaImage, x: number, y: number, w: number, h: number) => images.crop(im, x, y, w, h) as RgbaImage;
const PAYLOAD = new Uint8Array([0x19, 0x5c, 0xa1, 0x00, 0xfe, 0x42, 0x07, 0x3d]);

function mark(image: RgbaImage): RgbaImage {
  const e = wm.embed({ image, payload: PAYLOAD, strength: "balanced" });
  if (e.status !== "embedded") throw new Error(e.status);
  return e.image;
}

describe("watermark stage 2: whole-period scan and its floor", () => {
  it("an unmarked photograph ends after the scan: no hypothesis reaches 5, no decode attempted", () => {
    const d = wm.detect(make("photo", 1280, 800, 31));
    expect(d.status).toBe("not_detected");
    expect(wm.lastDetect.scanSyncZ).toBeGreaterThan(0);
    expect(wm.lastDetect.scanSyncZ).toBeLessThan(5);
    expect(wm.lastDetect.decodeAttempts).toBe(0);
    // stage 1's fold and the 26 whole periods; no refinement
    expect(wm.lastDetect.folds).toBe(1 + 26);
  });

  it("a marked image cropped by 10 % on two sides (scale 1.11) is found in stage 2, its scan above the floor", () => {
    const marked = mark(make("photo-textured", 1200, 900, 32));
    const d = wm.detect(crop(marked, 60, 45, 1080, 810));
    expect(d.status).toBe("detected");
    if (d.status === "detected") expect([...d.payload]).toEqual([...PAYLOAD]);
    expect(wm.lastDetect.scanSyncZ).toBeGreaterThanOrEqual(5);
    expect(wm.lastDetect.scaleRatio).toBeGreaterThan(1.08);
    expect(wm.lastDetect.scaleRatio).toBeLessThan(1.14);
    expect(wm.lastDetect.folds).toBeGreaterThan(1 + 26); // refined around the best periods, then refolded to decode
  });

  it("grids narrower or shorter than a period, and a flat image, are searched cleanly", () => {
    const shapes: [number, number][] = [
      [3000, 180], // canonical about 1811 x 109: every row is shorter than a period
      [180, 3000],
      [128, 128], // the smallest accepted edge: 128 x 128 canonical, under every period
    ];
    for (const [w, h] of shapes) {
      const unmarked = wm.detect(make("noise", w, h, w + h));
      expect(unmarked.status, `${w}x${h}`).toBe("not_detected");
      const marked = wm.detect(crop(mark(make("photo", w, h, w)), 0, 0, w - 8, h - 8));
      expect(["detected", "not_detected"], `${w}x${h}`).toContain(marked.status);
      if (marked.status === "detected") expect([...marked.payload]).toEqual([...PAYLOAD]);
    }
    expect(wm.detect(make("flat", 800, 600, 1)).status).toBe("not_detected");
  });
});
