import type { ChromaSubsampling } from "../../../src/media/codecs/baseline-jpeg.ts";
import type { RgbaImage } from "../../../src/media/types.ts";
import { prng } from "../../support/prng.ts";

/** Images at the encoder's extremes: maximal AC energy, 0xFF-heavy streams, long zero runs, one-pixel edges. */
function image(
  width: number,
  height: number,
  seed: number,
  pixel: (x: number, y: number, ch: number, rand: () => number) => number,
): RgbaImage {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      for (let ch = 0; ch < 3; ch++) data[i + ch] = Math.max(0, Math.min(255, Math.round(pixel(x, y, ch, rand))));
      data[i + 3] = 255;
    }
  return { width, height, data };
}

const checker = (x: number, y: number) => ((x + y) & 1 ? 255 : 0);
const binary = (_x: number, _y: number, _ch: number, rand: () => number) => (rand() < 0.5 ? 0 : 255);
// a flat field with rare single-pixel spikes: blocks of mostly-zero AC with runs of 16 and more (ZRL)
const spikes = (_x: number, _y: number, ch: number, rand: () => number) => (rand() < 0.01 ? (ch ? 255 : 0) : 90 + ch * 40);
const ramp = (x: number, y: number, ch: number) => 128 + 100 * Math.sin(x / 5 + ch) * Math.cos(y / 7);

export const EXTREME_CASES: [string, () => RgbaImage, number, ChromaSubsampling][] = [];
for (const quality of [1, 100])
  for (const sub of ["4:2:0", "4:4:4"] as const) {
    EXTREME_CASES.push([`checker 40x24`, () => image(40, 24, 1, checker), quality, sub]);
    EXTREME_CASES.push([`binary 37x29`, () => image(37, 29, 2, binary), quality, sub]);
    EXTREME_CASES.push([`spikes 67x45`, () => image(67, 45, 3, spikes), quality, sub]);
    EXTREME_CASES.push([`ramp 1x301`, () => image(1, 301, 4, ramp), quality, sub]);
    EXTREME_CASES.push([`ramp 301x1`, () => image(301, 1, 5, ramp), quality, sub]);
    EXTREME_CASES.push([`binary 17x1`, () => image(17, 1, 6, binary), quality, sub]);
    EXTREME_CASES.push([`binary 1x17`, () => image(1, 17, 7, binary), quality, sub]);
  }
