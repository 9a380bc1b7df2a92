import type { RgbaImage } from "../../src/media/types";
import { prng } from "./prng";

/**
 * A seeded texture: sinusoids of random period and phase plus fine noise, in colour. The kind of image on which
 * a reduced (DCT-domain) read and a full decode give different ISCC codes, which real photographs rarely do.
 */
export function texture(width: number, height: number, seed: number): RgbaImage {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  const fx = 2 + rand() * 60;
  const fy = 2 + rand() * 60;
  const noise = rand() * 40;
  const phase = rand() * 6;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const v = 128 + 60 * Math.sin(x / fx + phase) * Math.cos(y / fy) + (rand() - 0.5) * noise;
      data[i] = v + 20 * Math.sin(y / 97);
      data[i + 1] = v;
      data[i + 2] = 255 - v;
      data[i + 3] = 255;
    }
  return { width, height, data };
}
