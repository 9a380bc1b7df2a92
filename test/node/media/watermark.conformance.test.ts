/**
 * Conformance of our own invisible watermark (wasm/watermark, src/media/watermark) with the Watermarker
 * invariants in src/media/types.ts:
 *
 * - detect(embed(x, p)) = p on every image at least `minimumEdge` on its shorter side (varied content: photo-like,
 *   textures, shapes, gradients, flat white/black/grey, documents, stripes; sizes down to 128 px, elongated, odd),
 *   at every strength; alpha untouched, input untouched, reported PSNR exact, balanced >= 42 dB;
 * - unmarked images: not_detected; falsePositiveBound <= 1e-6 and equal to the code's bound;
 * - robustness at `balanced`: JPEG q75 (MozJPEG), resize 50 %, crop 10 % (corner and sides), crop + JPEG,
 *   brightness +-20 %;
 * - BCH(127,78): corrects every pattern of up to 7 errors, never returns the sent data with 8 or more;
 * - too_small below the minimum edge, `failed` on malformed input, never throws, deterministic.
 *
 * Images are generated in code (seeded). The measured rates over many images are in bench/watermark-robustness.mjs.
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { IMAGE_DECODE_LIMITS, SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import type { RgbaImage, WatermarkDetectResult, WatermarkEmbedResult, WatermarkStrength } from "../../../src/media/types";
import {
  WATERMARK_ALGORITHM,
  WATERMARK_STRENGTH_PSNR_DB,
  WasmWatermarker,
  watermarkFalsePositiveBound,
} from "../../../src/media/watermark";
import { prng as rng } from "../../support/prng";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const WASM = join(ROOT, "wasm", "build", "watermark.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);

/** Compiles wasm bytes (the Workers types declare WebAssembly.Module abstract; Node has the constructor). */
const compileWasm = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);
const watermarkModule = compileWasm(readFileSync(WASM));
const wm = new WasmWatermarker(watermarkModule);

// ---------------------------------------------------------------------------------------------------------
// Generated images (seeded with the shared mulberry32 PRNG)

/** Smooth value noise summed over octaves, roughly in [-0.5, 0.5]. */
function fractal(w: number, h: number, rnd: () => number, base: number, octaves: number, persistence: number): Float32Array {
  const out = new Float32Array(w * h);
  let amp = 1;
  let cell = base;
  let total = 0;
  for (let o = 0; o < octaves && cell >= 1; o++) {
    const gw = Math.ceil(w / cell) + 2;
    const grid = Float32Array.from({ length: gw * (Math.ceil(h / cell) + 2) }, () => rnd());
    for (let y = 0; y < h; y++) {
      const v = y / cell,
        j = Math.floor(v),
        fy = v - j,
        sy = fy * fy * (3 - 2 * fy);
      for (let x = 0; x < w; x++) {
        const u = x / cell,
          i = Math.floor(u),
          fx = u - i,
          sx = fx * fx * (3 - 2 * fx);
        const g = (k: number) => grid[k] ?? 0;
        const top = g(j * gw + i) * (1 - sx) + g(j * gw + i + 1) * sx;
        const bottom = g((j + 1) * gw + i) * (1 - sx) + g((j + 1) * gw + i + 1) * sx;
        out[y * w + x] = (out[y * w + x] ?? 0) + amp * (top * (1 - sy) + bottom * sy - 0.5);
      }
    }
    total += amp;
    amp *= persistence;
    cell /= 2;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / total;
  return out;
}

type Kind = "photo" | "textured" | "noise" | "gradient" | "shapes" | "document" | "stripes" | "white" | "black" | "grey" | "random";

function makeImage(kind: Kind, width: number, height: number, seed: number, alpha = 255): RgbaImage {
  const rnd = rng(seed * 7919 + 17);
  const data = new Uint8Array(width * height * 4);
  const put = (i: number, r: number, g: number, b: number) => {
    data[4 * i] = Math.max(0, Math.min(255, Math.round(r)));
    data[4 * i + 1] = Math.max(0, Math.min(255, Math.round(g)));
    data[4 * i + 2] = Math.max(0, Math.min(255, Math.round(b)));
    data[4 * i + 3] = alpha < 0 ? Math.floor(rnd() * 256) : alpha;
  };
  const c = [rnd() * 255, rnd() * 255, rnd() * 255] as const;
  const n = width * height;
  switch (kind) {
    case "white":
    case "black":
    case "grey": {
      const v = kind === "white" ? 255 : kind === "black" ? 0 : 128;
      for (let i = 0; i < n; i++) put(i, v, v, v);
      break;
    }
    case "random":
      for (let i = 0; i < n; i++) put(i, rnd() * 256, rnd() * 256, rnd() * 256);
      break;
    case "gradient":
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) put(y * width + x, (255 * x) / width, (255 * y) / height, c[2]);
      break;
    case "noise": {
      const f = fractal(width, height, rnd, 4, 3, 0.7);
      for (let i = 0; i < n; i++) put(i, 128 + 220 * (f[i] ?? 0), 120 + 220 * (f[i] ?? 0), 110 + 220 * (f[i] ?? 0));
      break;
    }
    case "shapes": {
      for (let i = 0; i < n; i++) put(i, c[0], c[1], c[2]);
      for (let s = 0; s < 12; s++) {
        const col = [rnd() * 255, rnd() * 255, rnd() * 255] as const;
        const cx = rnd() * width,
          cy = rnd() * height,
          r = (0.05 + rnd() * 0.25) * Math.min(width, height),
          circle = rnd() < 0.5;
        for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, cy + r); y++)
          for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, cx + r); x++)
            if (!circle || (x - cx) ** 2 + (y - cy) ** 2 <= r * r) put(y * width + x, col[0], col[1], col[2]);
      }
      break;
    }
    case "document": {
      for (let i = 0; i < n; i++) put(i, 250, 250, 248);
      for (let y0 = 20; y0 + 12 < height - 20; y0 += 24) {
        for (let x = 20; x < width - 40; ) {
          const w = 10 + Math.floor(rnd() * 40);
          for (let y = y0; y < y0 + 12; y++)
            for (let xx = x; xx < Math.min(width - 20, x + w); xx++) if ((xx * 7 + y * 3) % 5 < 3) put(y * width + xx, 20, 20, 30);
          x += w + 8;
        }
      }
      break;
    }
    case "stripes": {
      const period = 3 + rnd() * 20;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) put(y * width + x, 128 + 100 * Math.sin((2 * Math.PI * (x + 0.5 * y)) / period), 120, 110);
      break;
    }
    case "photo":
    case "textured": {
      // sky gradient over a fractal landscape; "textured" adds strong fine texture on the ground
      const land = fractal(width, height, rnd, Math.max(width, height) / 3, 8, 0.55);
      const tex = fractal(width, height, rnd, 8, 3, 0.8);
      const horizon = height * (0.3 + rnd() * 0.4);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const i = y * width + x;
          const l = land[i] ?? 0;
          if (y < horizon + l * height * 0.4) put(i, 90 + (120 * y) / height + 10 * l, 140 + (80 * y) / height, 230);
          else {
            const t = (tex[i] ?? 0) * (kind === "textured" ? 120 : 40);
            put(i, c[0] * (0.5 + l) + t, c[1] * (0.5 + l) + t, c[2] * (0.3 + l) + t);
          }
        }
      break;
    }
  }
  return { width, height, data };
}

function payloadFor(seed: number): Uint8Array {
  const r = rng(seed + 99);
  return Uint8Array.from({ length: 8 }, () => Math.floor(r() * 256));
}

type Embedded = Extract<WatermarkEmbedResult, { status: "embedded" }>;
function embedded(r: WatermarkEmbedResult): Embedded {
  if (r.status !== "embedded") throw new Error(`embed: ${r.status}: ${r.message}`);
  return r;
}

function payloadOf(r: WatermarkDetectResult): string {
  return r.status === "detected" ? Buffer.from(r.payload).toString("hex") : r.status;
}

const hex = (p: Uint8Array) => Buffer.from(p).toString("hex");
const sha = (img: RgbaImage) => createHash("sha256").update(img.data).digest("hex");

function lumaPsnr(a: RgbaImage, b: RgbaImage): number {
  let se = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d =
      0.299 * ((a.data[i] ?? 0) - (b.data[i] ?? 0)) +
      0.587 * ((a.data[i + 1] ?? 0) - (b.data[i + 1] ?? 0)) +
      0.114 * ((a.data[i + 2] ?? 0) - (b.data[i + 2] ?? 0));
    se += d * d;
  }
  const mse = se / (a.width * a.height);
  return mse > 0 ? 10 * Math.log10((255 * 255) / mse) : 99;
}

// ---------------------------------------------------------------------------------------------------------
// Attacks

async function jpeg(image: RgbaImage, quality: number): Promise<RgbaImage> {
  const frame = {
    data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
    colorSpace: "srgb",
  };
  const bytes = await encodeJpeg(frame as unknown as Parameters<typeof encodeJpeg>[0], { quality });
  const img = await decodeJpeg(bytes);
  return { width: img.width, height: img.height, data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length) };
}

/** Area-average resize. */
function resize(image: RgbaImage, w2: number, h2: number): RgbaImage {
  const { width: w, height: h, data } = image;
  const out = new Uint8Array(w2 * h2 * 4);
  const sx = w / w2,
    sy = h / h2;
  for (let y = 0; y < h2; y++)
    for (let x = 0; x < w2; x++) {
      const acc = [0, 0, 0, 0];
      let wt = 0;
      for (let yy = Math.floor(y * sy); yy < Math.min(h, Math.ceil((y + 1) * sy)); yy++) {
        const wy = Math.min((y + 1) * sy, yy + 1) - Math.max(y * sy, yy);
        for (let xx = Math.floor(x * sx); xx < Math.min(w, Math.ceil((x + 1) * sx)); xx++) {
          const f = wy * (Math.min((x + 1) * sx, xx + 1) - Math.max(x * sx, xx));
          for (let ch = 0; ch < 4; ch++) acc[ch] = (acc[ch] ?? 0) + f * (data[4 * (yy * w + xx) + ch] ?? 0);
          wt += f;
        }
      }
      for (let ch = 0; ch < 4; ch++) out[4 * (y * w2 + x) + ch] = Math.round((acc[ch] ?? 0) / wt);
    }
  return { width: w2, height: h2, data: out };
}

function crop(image: RgbaImage, x0: number, y0: number, w2: number, h2: number): RgbaImage {
  const out = new Uint8Array(w2 * h2 * 4);
  for (let y = 0; y < h2; y++)
    out.set(image.data.subarray(4 * ((y + y0) * image.width + x0), 4 * ((y + y0) * image.width + x0 + w2)), 4 * y * w2);
  return { width: w2, height: h2, data: out };
}

function brightness(image: RgbaImage, factor: number): RgbaImage {
  const out = image.data.map((v, i) => ((i & 3) === 3 ? v : Math.max(0, Math.min(255, Math.round(v * factor)))));
  return { width: image.width, height: image.height, data: out };
}

beforeAll(async () => {
  await initJpegEncode(compileWasm(readFileSync(join(ROOT, "node_modules", "@jsquash", "jpeg", "codec", "enc", "mozjpeg_enc.wasm"))));
  await initJpegDecode(compileWasm(readFileSync(join(ROOT, "node_modules", "@jsquash", "jpeg", "codec", "dec", "mozjpeg_dec.wasm"))));
});

// ---------------------------------------------------------------------------------------------------------

describe("watermark: the interface's constants", () => {
  it("names our own versioned algorithm, 64 payload bits, a 128 px minimum edge", () => {
    expect(wm.algorithm).toBe(WATERMARK_ALGORITHM);
    expect(wm.algorithm).toBe(SVC_IMAGE_WATERMARK);
    expect(wm.algorithm).toMatch(/^svc-wm-[a-z]+-\d+$/);
    expect(wm.algorithm).not.toMatch(/pixelseal|trustmark|videoseal/i);
    expect(wm.payloadBits).toBe(64);
    expect(wm.minimumEdge).toBe(128);
    expect(wm.minimumEdge).toBe(IMAGE_DECODE_LIMITS.watermark_minimum_edge);
  });

  it("reports the BCH(127,78) t=7 + CRC-14 bound over every decode attempt, <= 1e-6", () => {
    // 40 attempts (stage 1 + 4 stage-2 candidates, 8 Chase patterns each) x V(127,7) / 2^63
    let volume = 0;
    for (let i = 0, c = 1; i <= 7; c = (c * (127 - i)) / (i + 1), i++) volume += c;
    expect(volume).toBe(94_790_703_104);
    expect(wm.falsePositiveBound).toBeCloseTo((40 * volume) / 2 ** 63, 20);
    expect(wm.falsePositiveBound).toBe(watermarkFalsePositiveBound(127, 7, 64, 40));
    expect(wm.falsePositiveBound).toBeLessThanOrEqual(1e-6);
    expect(wm.falsePositiveBound).toBeGreaterThan(1e-7);
  });

  it("maps the strengths to decreasing PSNR targets", () => {
    expect(WATERMARK_STRENGTH_PSNR_DB.subtle).toBeGreaterThan(WATERMARK_STRENGTH_PSNR_DB.balanced);
    expect(WATERMARK_STRENGTH_PSNR_DB.balanced).toBeGreaterThanOrEqual(42);
    expect(WATERMARK_STRENGTH_PSNR_DB.robust).toBeLessThan(WATERMARK_STRENGTH_PSNR_DB.balanced);
  });
});

describe("watermark: BCH(127,78) in the kernel", () => {
  const kernel = new WebAssembly.Instance(watermarkModule, {}).exports as unknown as { bchSelfTest(errors: number, seed: number): number };
  it("corrects every error count up to t = 7", () => {
    for (let errors = 0; errors <= 7; errors++)
      for (let seed = 1; seed <= 40; seed++) expect(kernel.bchSelfTest(errors, seed * 977 + errors)).toBe(errors);
  });
  it("never returns the sent data with 8 to 20 errors (fails or miscorrects)", () => {
    for (let errors = 8; errors <= 20; errors++)
      for (let seed = 1; seed <= 20; seed++) expect(kernel.bchSelfTest(errors, seed * 131 + errors)).toBeLessThan(0);
  });
});

describe("watermark: detect(embed(x, p)) = p", () => {
  const cases: [Kind, number, number, number?][] = [
    ["photo", 1024, 768],
    ["textured", 900, 700],
    ["noise", 800, 600],
    ["gradient", 640, 480],
    ["shapes", 900, 900],
    ["document", 700, 500],
    ["stripes", 512, 512],
    ["white", 300, 200],
    ["black", 256, 256],
    ["grey", 400, 300],
    ["random", 200, 160],
    ["photo", 128, 128],
    ["textured", 128, 600],
    ["photo", 2000, 128],
    ["noise", 333, 129],
    ["photo", 1201, 799, -1], // random alpha
    ["shapes", 2400, 1600],
  ];
  it.each(cases)("%s %ix%i (balanced)", (kind, width, height, alpha) => {
    const image = makeImage(kind, width, height, width * 31 + height, alpha ?? 255);
    const before = sha(image);
    const payload = payloadFor(width + height);
    const e = embedded(wm.embed({ image, payload, strength: "balanced" }));
    expect(sha(image)).toBe(before); // input untouched
    expect(e.image.width).toBe(width);
    expect(e.image.height).toBe(height);
    for (let i = 3; i < image.data.length; i += 4) if (e.image.data[i] !== image.data[i]) throw new Error(`alpha changed at ${i}`);
    expect(e.psnr_db).toBeCloseTo(lumaPsnr(image, e.image), 1);
    // Balanced targets 42.5 dB. Only an image that cannot carry the mark at the target (here: small i.i.d. random
    // pixels, all high-frequency energy) gets a stronger gain from embed's self-check, and a lower PSNR.
    expect(e.psnr_db).toBeGreaterThanOrEqual(kind === "random" ? 30 : 42);
    const d = wm.detect(e.image);
    expect(payloadOf(d)).toBe(hex(payload));
    if (d.status === "detected") {
      expect(d.confidence).toBeGreaterThan(0);
      expect(d.confidence).toBeLessThanOrEqual(1);
      expect(d.bit_errors).toBeGreaterThanOrEqual(0);
      expect(d.bit_errors).toBeLessThanOrEqual(10);
    }
  });

  it.each(["subtle", "balanced", "robust"] as WatermarkStrength[])("at %s: round trip, PSNR near its target", (strength) => {
    for (const [kind, w, h] of [
      ["photo", 1000, 750],
      ["noise", 700, 500],
      ["gradient", 600, 600],
    ] as [Kind, number, number][]) {
      const image = makeImage(kind, w, h, 5);
      const payload = payloadFor(w * 3 + h);
      const e = embedded(wm.embed({ image, payload, strength }));
      expect(e.psnr_db).toBeGreaterThanOrEqual(WATERMARK_STRENGTH_PSNR_DB[strength] - 0.5);
      expect(e.psnr_db).toBeLessThanOrEqual(WATERMARK_STRENGTH_PSNR_DB[strength] + 1.5);
      expect(payloadOf(wm.detect(e.image))).toBe(hex(payload));
    }
  });

  it("handles the admission maximum (12 MP) with a few MB of kernel memory", () => {
    const [width, height] = [4000, 3000];
    expect(width * height).toBe(IMAGE_DECODE_LIMITS.maximum_pixels);
    const image = makeImage("gradient", width, height, 1);
    const payload = payloadFor(12);
    const e = embedded(wm.embed({ image, payload, strength: "balanced" }));
    expect(e.psnr_db).toBeGreaterThanOrEqual(42);
    expect(payloadOf(wm.detect(e.image))).toBe(hex(payload));
    // the kernel never holds the image: canonical grid (~0.2 MP of f32 planes) + one ~1 MB row strip
    expect(wm.kernelMemoryBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it("carries any payload (all zeros, all ones, single bits)", () => {
    const image = makeImage("photo", 640, 480, 77);
    for (const payload of [
      new Uint8Array(8),
      new Uint8Array(8).fill(255),
      Uint8Array.of(128, 0, 0, 0, 0, 0, 0, 0),
      Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1),
    ]) {
      expect(payloadOf(wm.detect(embedded(wm.embed({ image, payload, strength: "balanced" })).image))).toBe(hex(payload));
    }
  });

  it("is pinned: the reference image marks to these exact bytes (any change is a new algorithm version)", () => {
    const image = makeImage("photo", 640, 480, 1);
    expect(sha(image)).toBe("f206d5035ca32adc662d5398563321aa405483bfd39b0fa56155b95574922eff"); // the generator itself
    const e = embedded(wm.embed({ image, payload: Uint8Array.of(0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef), strength: "balanced" }));
    expect(sha(e.image)).toBe("09fb8e18938104835ccd342302d3a45266207fd655ce5b3886ec694227871843");
    expect(e.psnr_db).toBe(42.67);
  });

  it("is deterministic: the same input gives the same bytes and the same detection", () => {
    const image = makeImage("textured", 800, 600, 3);
    const payload = payloadFor(1);
    const a = embedded(wm.embed({ image, payload, strength: "balanced" }));
    const other = new WasmWatermarker(watermarkModule);
    other.embed({ image: makeImage("noise", 300, 300, 9), payload: payloadFor(2), strength: "robust" }); // different state first
    const b = embedded(other.embed({ image, payload, strength: "balanced" }));
    expect(sha(a.image)).toBe(sha(b.image));
    expect(a.psnr_db).toBe(b.psnr_db);
    expect(wm.detect(a.image)).toEqual(other.detect(b.image));
  });
});

describe("watermark: unmarked images", () => {
  it("are not detected (30 images of every kind and size)", () => {
    const kinds: Kind[] = ["photo", "textured", "noise", "gradient", "shapes", "document", "stripes", "white", "black", "grey", "random"];
    const sizes = [
      [1024, 768],
      [640, 480],
      [300, 200],
      [128, 128],
      [900, 1200],
      [2000, 200],
    ] as const;
    for (let i = 0; i < 30; i++) {
      const [w, h] = sizes[i % sizes.length] ?? [256, 256];
      const d = wm.detect(makeImage(kinds[i % kinds.length] ?? "photo", w, h, 4000 + i));
      expect(d.status, `image ${i}`).toBe("not_detected");
    }
  });

  it("a marked image's JPEG, resized and cropped copies never yield a different payload", async () => {
    const image = makeImage("photo", 1024, 768, 12);
    const payload = payloadFor(12);
    const marked = embedded(wm.embed({ image, payload, strength: "subtle" })).image;
    for (const attacked of [await jpeg(marked, 30), resize(marked, 300, 225), crop(marked, 300, 200, 500, 400)]) {
      const d = wm.detect(attacked);
      if (d.status === "detected") expect(hex(d.payload)).toBe(hex(payload));
      else expect(d.status).toBe("not_detected");
    }
  });
});

describe("watermark: robustness at balanced", () => {
  const sources: [Kind, number, number][] = [
    ["photo", 1155, 866],
    ["textured", 1024, 768],
    ["shapes", 1280, 720],
  ];
  const attacks: [string, (img: RgbaImage) => Promise<RgbaImage> | RgbaImage][] = [
    ["JPEG q75", (img) => jpeg(img, 75)],
    ["resize 50%", (img) => resize(img, Math.round(img.width / 2), Math.round(img.height / 2))],
    [
      "crop 10% (corner)",
      (img) =>
        crop(
          img,
          Math.round(img.width * 0.1),
          Math.round(img.height * 0.1),
          img.width - Math.round(img.width * 0.1),
          img.height - Math.round(img.height * 0.1),
        ),
    ],
    [
      "crop 10% (both sides of the width)",
      (img) => crop(img, Math.round(img.width * 0.05), 0, img.width - 2 * Math.round(img.width * 0.05), img.height),
    ],
    [
      "crop 10% + JPEG q75",
      (img) => jpeg(crop(img, 0, 0, img.width - Math.round(img.width * 0.1), img.height - Math.round(img.height * 0.1)), 75),
    ],
    ["brightness +20%", (img) => brightness(img, 1.2)],
    ["brightness -20%", (img) => brightness(img, 0.8)],
  ];
  it.each(sources)("%s %ix%i survives JPEG, resize, crop, brightness", async (kind, width, height) => {
    const image = makeImage(kind, width, height, width + 7);
    const payload = payloadFor(width);
    const marked = embedded(wm.embed({ image, payload, strength: "balanced" })).image;
    for (const [name, attack] of attacks) expect(payloadOf(wm.detect(await attack(marked))), name).toBe(hex(payload));
  });
});

describe("watermark: sizes and malformed input", () => {
  it("is too_small below 128 px on the shorter side (and detect says not_detected)", () => {
    for (const [w, h] of [
      [127, 500],
      [500, 127],
      [64, 64],
      [1, 1],
    ] as const) {
      const image = makeImage("photo", w, h, 1);
      expect(wm.embed({ image, payload: payloadFor(1), strength: "balanced" }).status).toBe("too_small");
      expect(wm.detect(image).status).toBe("not_detected");
    }
  });

  it("fails, never throws, on malformed input", () => {
    const ok = makeImage("photo", 200, 200, 1);
    const bad: unknown[] = [
      { width: 200, height: 200, data: new Uint8Array(10) },
      { width: 0, height: 0, data: new Uint8Array(0) },
      { width: Number.NaN, height: 200, data: ok.data },
      { width: 200.5, height: 200, data: ok.data },
      { width: 200, height: 200, data: Array.from(ok.data) },
      null,
    ];
    for (const image of bad) {
      expect(wm.embed({ image: image as RgbaImage, payload: payloadFor(1), strength: "balanced" }).status).toBe("failed");
      expect(wm.detect(image as RgbaImage).status).toBe("failed");
    }
    expect(wm.embed({ image: ok, payload: new Uint8Array(7), strength: "balanced" }).status).toBe("failed");
    expect(wm.embed({ image: ok, payload: payloadFor(1), strength: "extreme" as WatermarkStrength }).status).toBe("failed");
    // and the instance still works afterwards
    const e = embedded(wm.embed({ image: ok, payload: payloadFor(3), strength: "balanced" }));
    expect(payloadOf(wm.detect(e.image))).toBe(hex(payloadFor(3)));
  });

  it("never throws on random pixels of random sizes", () => {
    const r = rng(42);
    for (let i = 0; i < 40; i++) {
      const w = 1 + Math.floor(r() * 400);
      const h = 1 + Math.floor(r() * 400);
      const image = makeImage("random", w, h, i);
      expect(["embedded", "too_small"]).toContain(wm.embed({ image, payload: payloadFor(i), strength: "robust" }).status);
      expect(["detected", "not_detected"]).toContain(wm.detect(image).status);
    }
  });
});

describe("watermark: embedInto", () => {
  it("hands the sink exactly embed's pixels, row by row, and the same PSNR", () => {
    const wm = new WasmWatermarker(watermarkModule);
    const rand = rng(11);
    const width = 301;
    const height = 257;
    const data = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : 60 + Math.floor(rand() * 120)));
    const payload = new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2]);
    const whole = wm.embed({ image: { width, height, data }, payload, strength: "balanced" });
    if (whole.status !== "embedded") throw new Error(whole.status);
    const out = new Uint8Array(data.length);
    let at = 0;
    let restarts = 0;
    const streamed = wm.embedInto(
      { image: { width, height, data }, payload, strength: "balanced" },
      {
        restart: () => {
          restarts++;
          at = 0;
        },
        rows: (rows, count) => {
          out.set(rows.subarray(0, count * width * 4), at);
          at += count * width * 4;
        },
      },
    );
    expect(streamed).toEqual({ status: "embedded", psnr_db: whole.psnr_db });
    expect(restarts).toBeGreaterThanOrEqual(1);
    expect(at).toBe(data.length);
    expect(Buffer.from(out).equals(Buffer.from(whole.image.data))).toBe(true);
  });
});
