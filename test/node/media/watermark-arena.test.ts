/**
 * The watermark kernel reuses one arena per instance (reset, never cleared, between calls) and its SIMD passes
 * read and write whole vectors at row and column ends: a buffer read before it is written this call, or a vector
 * that runs past a row, shows as a result that depends on what the instance did before. So one instance, driven
 * through a sequence of very different images (large, minimum edge, elongated both ways, odd widths, clamping,
 * random alpha), must give every embed and detect exactly what a fresh instance gives, diagnostics included; and
 * the extreme shapes mark to bytes recorded with the kernel before the #19 SIMD passes (c8fc6c0 + diagnostics).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbaImage, WatermarkStrength } from "../../../src/media/types";
import { WasmWatermarker } from "../../../src/media/watermark";
import { prng } from "../../support/prng";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const WASM = join(ROOT, "wasm", "build", "watermark.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);
const module = new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(readFileSync(WASM));

type Kind = "noise" | "smooth" | "white" | "black" | "stripes" | "alpha";

/** Seeded test images: noise, smooth waves, flat white / black (clamping), hard stripes, random alpha. */
function image(kind: Kind, width: number, height: number, seed: number): RgbaImage {
  const rnd = prng(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      let v = [0, 0, 0, 255];
      if (kind === "noise") v = [rnd() * 256, rnd() * 256, rnd() * 256, 255];
      else if (kind === "smooth") v = [128 + 120 * Math.sin(x / 37), 128 + 120 * Math.cos(y / 23), 128 + 127 * Math.sin((x + y) / 51), 255];
      else if (kind === "white") v = [255, 255, 255, 255];
      else if (kind === "stripes") v = x % 128 < 64 ? [3, 3, 3, 255] : [252, 252, 252, 255];
      else if (kind === "alpha") v = [rnd() * 256, (x ^ y) & 255, 250 + rnd() * 6, rnd() * 256];
      for (let c = 0; c < 4; c++) data[p + c] = Math.floor(v[c]!);
    }
  return { width, height, data };
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const crop = (im: RgbaImage, f: number): RgbaImage => {
  const x0 = Math.round(im.width * f);
  const y0 = Math.round(im.height * f);
  const w = im.width - x0;
  const h = im.height - y0;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) data.set(im.data.subarray(((y + y0) * im.width + x0) * 4, ((y + y0) * im.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
};

interface Case {
  kind: Kind;
  width: number;
  height: number;
  strength: WatermarkStrength;
}
// large, then the minimum edge, elongated both ways (canonical grids 19-35 px on the short side), odd sizes
const SEQUENCE: Case[] = [
  { kind: "noise", width: 1601, height: 1203, strength: "balanced" },
  { kind: "white", width: 128, height: 128, strength: "subtle" },
  { kind: "alpha", width: 4099, height: 131, strength: "robust" },
  { kind: "smooth", width: 133, height: 4099, strength: "balanced" },
  { kind: "stripes", width: 129, height: 130, strength: "robust" },
  { kind: "smooth", width: 1023, height: 1021, strength: "subtle" },
  { kind: "black", width: 131, height: 129, strength: "balanced" },
  { kind: "noise", width: 257, height: 255, strength: "balanced" },
];

/** sha-256 of each case's marked bytes and its PSNR, recorded with the kernel before the #19 SIMD passes. */
const PINS: Record<string, string> = {
  "noise-1601x1203-balanced": "63f057b948413280b1afaf1858e3837f7311593508bcb42bfd81e03c3520e595 42.54",
  "white-128x128-subtle": "e1b27085cb2c56ba13c830e25e9b18ec8e8548b520ce6ff419a80a4ede74ce2f 51.15",
  "alpha-4099x131-robust": "97a9207becf1b85a302ab3f366ad8b266bc1544dcbb3de3b340fee2a2662f8d8 38.28",
  "smooth-133x4099-balanced": "d0dfd1f9fb37aa4c0dc099528427493d9fa12f44b66a46744d1e6f8fa3760bfe 42.51",
  "stripes-129x130-robust": "1be1a4b5c7e25031cb1e3bbabed3d8ffbabc53ea7519b93dd414740632336468 38.47",
  "smooth-1023x1021-subtle": "8c428876147ab0dec5d16538dbc668a346eae2e9a0a08b25359789b0f3aa48cd 46.02",
  "black-131x129-balanced": "00058eada38006baeeb8b76847fcfbadc6696af945ae20cffcf352d8faf5b797 51.09",
  "noise-257x255-balanced": "8929eda55d997eb0a4714ff098f49319e395bdad3d9953c62bb1369a7f61c2f4 35.61",
};

describe("watermark: a reused kernel instance gives a fresh instance's results", () => {
  it("embeds and detects (marked, cropped: stage 2, unmarked) exactly as a fresh instance, on every shape", () => {
    const reused = new WasmWatermarker(module);
    let detected = 0;
    for (const [i, c] of SEQUENCE.entries()) {
      const id = `${c.kind}-${c.width}x${c.height}-${c.strength}`;
      const input = image(c.kind, c.width, c.height, 100 + i);
      const payload = Uint8Array.from({ length: 8 }, (_, j) => (i * 37 + j * 11) & 255);
      const fresh = () => new WasmWatermarker(module);
      const a = reused.embed({ image: input, payload, strength: c.strength });
      const b = fresh().embed({ image: input, payload, strength: c.strength });
      expect(a.status, id).toBe("embedded");
      if (a.status !== "embedded" || b.status !== "embedded") throw new Error(`${id}: ${a.status} / ${b.status}`);
      expect(`${sha(a.image.data)} ${a.psnr_db}`, id).toBe(`${sha(b.image.data)} ${b.psnr_db}`);
      expect(`${sha(a.image.data)} ${a.psnr_db}`, id).toBe(PINS[id]);
      const probes: [string, RgbaImage][] = [
        ["marked", a.image],
        ["unmarked", input],
      ];
      if (Math.min(c.width, c.height) * 0.93 >= 128) probes.push(["cropped", crop(a.image, 0.07)]);
      for (const [name, probe] of probes) {
        const other = fresh();
        const got = reused.detect(probe);
        const want = other.detect(probe);
        expect({ got, diagnostics: reused.lastDetect }, `${id} ${name}`).toEqual({ got: want, diagnostics: other.lastDetect });
        if (name === "unmarked") expect(got.status, `${id} ${name}`).toBe("not_detected");
        if (got.status === "detected") {
          expect(Buffer.from(got.payload).toString("hex"), `${id} ${name}`).toBe(Buffer.from(payload).toString("hex"));
          detected++;
        }
      }
    }
    expect(detected).toBeGreaterThanOrEqual(SEQUENCE.length + 1); // every marked image, and a crop (stage 2)
  }, 300_000);
});
