import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WatermarkStrength } from "../../../src/media/types";
import { WasmWatermarker } from "../../../src/media/watermark";
import { prng } from "../../support/prng";

/*
 * #19: the embed's preparation (wasm/watermark embedPrepare: the activity mask, the residual, the per-bit gains and the
 * gain bisection) and the apply pass's upsampling (upsampleRows4) run in f32/f64 vectors, computing every value as the
 * scalar loops did. Pinned to the outputs the
 * scalar kernel gave (recorded before the change): marked bytes and PSNR, on sizes whose canonical grid width is not
 * a multiple of four (the vector loops' scalar tails) and at every strength.
 */

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const wm = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));

/** A seeded photo-like image: smooth structure, texture and noise, so the mask and the gains vary across the frame. */
function image(width: number, height: number, seed: number) {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  const fx = 11 + 7 * rand();
  const fy = 17 + 9 * rand();
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const v = 120 + 70 * Math.sin(x / fx) * Math.cos(y / fy) + 25 * rand() + (x > width / 2 ? 20 : 0);
      data[i] = v;
      data[i + 1] = v * 0.85 + 12 * rand();
      data[i + 2] = v * 0.7 + 30;
      data[i + 3] = 255;
    }
  return { width, height, data };
}

const CASES: [number, number, number, WatermarkStrength, string, number][] = [
  // width, height, seed, strength, sha-256 of the marked RGBA (first 16 hex digits), PSNR
  [1001, 777, 1, "balanced", "dcff9f9495ce0c77", 42.64],
  [1001, 777, 2, "subtle", "7532440a8d16525f", 46.12],
  [130, 129, 3, "robust", "a2b5fc8317af134e", 38],
  [513, 2050, 4, "balanced", "26151020eee0a5bf", 42.49],
  [1280, 800, 5, "balanced", "6840a971706a2902", 42.68],
];

describe("watermark embed preparation (#19)", () => {
  for (const [width, height, seed, strength, sha, psnr] of CASES)
    it(`${width}x${height} ${strength}: the bytes and PSNR of the scalar kernel`, () => {
      const payload = Uint8Array.of(seed, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef);
      const marked = wm.embed({ image: image(width, height, seed), payload, strength });
      if (marked.status !== "embedded") throw new Error(marked.status);
      const got = createHash("sha256").update(marked.image.data).digest("hex").slice(0, 16);
      expect(got).toBe(sha);
      expect(marked.psnr_db).toBe(psnr);
    });
});
