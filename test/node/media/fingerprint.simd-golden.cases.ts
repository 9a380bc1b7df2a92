/**
 * Generated images for test/node/media/fingerprint.simd-golden.test.ts: seeded (test/support/prng), of sizes that
 * exercise every vector tail (widths not a multiple of 4, 8 or 16; 5 px, PDQ's smallest hashable side; heights not a
 * multiple of PDQ's queue of 8 rows; a row too long to be queued), with and
 * without transparency and a uniform border (ISCC's trim).
 */
import type { RgbaImage } from "../../../src/media/types";
import { prng } from "../../support/prng";

export const GOLDEN_SIZES: [number, number, "photo" | "noise" | "alpha" | "bordered"][] = [
  [5, 5, "noise"],
  [7, 9, "alpha"],
  [31, 17, "photo"],
  [63, 64, "noise"],
  [65, 33, "bordered"],
  [129, 97, "alpha"],
  [333, 211, "photo"],
  [640, 400, "photo"],
  [1056, 663, "photo"],
  [517, 1203, "bordered"],
  [1283, 130, "noise"],
  [8200, 7, "photo"], // longer than PDQ's queued rows (QUEUED_ROW_MAX): one row at a time
];

export function goldenImage(width: number, height: number, kind: string, seed: number): RgbaImage {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  // a smooth field (a few random cosines) plus noise: enough structure for PDQ's quality gate
  const waves = Array.from({ length: 6 }, () => [rand() * 0.08, rand() * 0.08, rand() * 6.28, 20 + rand() * 60]);
  const border = kind === "bordered" ? Math.max(1, Math.floor(Math.min(width, height) / 7)) : 0;
  for (let y = 0, i = 0; y < height; y++)
    for (let x = 0; x < width; x++, i += 4) {
      if (x < border || y < border || x >= width - border || y >= height - border) {
        data.set([17, 200, 33, 255], i);
        continue;
      }
      let v = 128;
      for (const [fx, fy, ph, a] of waves) v += a! * Math.cos(fx! * x + fy! * y + ph!);
      const n = kind === "noise" ? 120 : 12;
      for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, Math.round(v + (c - 1) * 19 + (rand() - 0.5) * n)));
      data[i + 3] = kind === "alpha" ? Math.floor(rand() * 256) : 255;
    }
  return { width, height, data };
}
