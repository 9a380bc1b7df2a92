import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import type { DecodeScale, RgbaImage } from "../../../src/media/types.ts";
import { nodeImageCodec } from "../../support/node-codec.ts";
import { prng } from "../../support/prng.ts";

// Our streaming JPEG decoder (wasm/jpegdec) against MozJPEG's decode of the same files: generated images and real
// photographs in every coding variant we claim (test/fixtures/jpegdec/README.md), reduced decodes against an area
// downscale of the full one, streamed rows against the one-shot decode, and hostile input.

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const MODULE = new Module(readFileSync(new URL("../../../wasm/build/jpegdec.wasm", import.meta.url)));
const decoder = new JpegStreamDecoder(MODULE);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "jpegdec");
const PHOTO = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "photo-bridge.jpg")));
const MAX = 50_000_000;

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
});

async function mozjpeg(bytes: Uint8Array): Promise<RgbaImage> {
  const d = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
  return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer, d.data.byteOffset, d.data.length) };
}

function ours(bytes: Uint8Array, scale: DecodeScale = 1): RgbaImage {
  const r = decoder.decode(bytes, scale, MAX);
  if (r.status !== "decoded") throw new Error(`${r.status}: ${r.message}`);
  return r.image;
}

/** PSNR over R, G, B and the largest absolute difference. */
function compare(a: RgbaImage, b: RgbaImage): { psnr: number; maxDiff: number } {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let se = 0;
  let maxDiff = 0;
  for (let i = 0; i < a.data.length; i += 4)
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a.data[i + c]! - b.data[i + c]!);
      se += d * d;
      if (d > maxDiff) maxDiff = d;
    }
  const mse = se / (a.width * a.height * 3);
  return { psnr: mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse), maxDiff };
}

/** Area downscale by `s` per side to ceil(w/s) x ceil(h/s) (edge cells average the pixels they have). */
function areaDownscale(img: RgbaImage, s: number): RgbaImage {
  const w = Math.ceil(img.width / s);
  const h = Math.ceil(img.height / s);
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sum = [0, 0, 0];
      let n = 0;
      for (let yy = y * s; yy < Math.min(img.height, y * s + s); yy++)
        for (let xx = x * s; xx < Math.min(img.width, x * s + s); xx++) {
          const i = (yy * img.width + xx) * 4;
          for (let c = 0; c < 3; c++) sum[c]! += img.data[i + c]!;
          n++;
        }
      for (let c = 0; c < 3; c++) data[(y * w + x) * 4 + c] = Math.round(sum[c]! / n);
      data[(y * w + x) * 4 + 3] = 255;
    }
  return { width: w, height: h, data };
}

function photoLike(width: number, height: number, seed: number): RgbaImage {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const n = (rand() - 0.5) * 24;
      data[i] = Math.max(0, Math.min(255, 128 + 90 * Math.sin(x / 13 + y / 29) + n));
      data[i + 1] = Math.max(0, Math.min(255, 120 + 80 * Math.cos(y / 11) + n));
      data[i + 2] = Math.max(0, Math.min(255, (x * 255) / width + n));
      data[i + 3] = 255;
    }
  return { width, height, data };
}

async function encode(image: RgbaImage, options: Record<string, unknown>): Promise<Uint8Array> {
  const frame = { data: new Uint8ClampedArray(image.data.buffer), width: image.width, height: image.height, colorSpace: "srgb" };
  return new Uint8Array(await encodeJpeg(frame as unknown as Parameters<typeof encodeJpeg>[0], options));
}

const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith(".jpg") && !f.startsWith("arithmetic"));
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));

describe("JpegStreamDecoder against MozJPEG (full size)", () => {
  it.each(fixtures)("real photograph, %s: PSNR >= 45 dB, max difference <= 4", async (name) => {
    const bytes = fixture(name);
    const { psnr, maxDiff } = compare(ours(bytes), await mozjpeg(bytes));
    expect(psnr).toBeGreaterThanOrEqual(45);
    // 4:4:0 reaches 4: libjpeg's vertical-only upsampler rounds differently from ours; the rest stay within 3
    expect(maxDiff).toBeLessThanOrEqual(4);
  });

  it("the whole real photograph (1600x1004 baseline 4:2:0)", async () => {
    const { psnr } = compare(ours(PHOTO), await mozjpeg(PHOTO));
    expect(psnr).toBeGreaterThanOrEqual(45);
  });

  const variants: [string, Record<string, unknown>][] = [
    ["baseline 4:2:0", { quality: 90, progressive: false, auto_subsample: false, chroma_subsample: 2 }],
    ["baseline 4:4:4", { quality: 92, progressive: false, auto_subsample: false, chroma_subsample: 1 }],
    ["progressive 4:2:0", { quality: 85, progressive: true, auto_subsample: false, chroma_subsample: 2 }],
    ["progressive 4:4:4", { quality: 95, progressive: true, auto_subsample: false, chroma_subsample: 1 }],
    ["grayscale", { quality: 90, color_space: 1 }],
    ["grayscale progressive", { quality: 80, color_space: 1, progressive: true }],
  ];
  const sizes: [number, number][] = [
    [1, 1],
    [7, 9],
    [17, 15],
    [33, 31],
    [250, 3],
    [3, 250],
    [201, 133],
  ];
  it.each(variants)("generated images, %s, odd sizes: PSNR >= 45 dB", async (_name, options) => {
    for (const [w, h] of sizes) {
      const bytes = await encode(photoLike(w, h, w * 1000 + h), options);
      const { psnr } = compare(ours(bytes), await mozjpeg(bytes));
      expect(psnr, `${w}x${h}`).toBeGreaterThanOrEqual(45);
    }
  });
});

describe("SIMD colour conversion, upsampling and dequantisation (#19)", () => {
  // SHA-256 (first 16 bytes) of the full-size RGBA, recorded with the scalar build before them: the same integer
  // arithmetic eight samples at a time must give every byte as before (4:2:0, 4:4:4, 4:2:2, 4:1:1, 4:4:0,
  // progressive, grayscale, Adobe RGB).
  it.each([
    ["../media/photo-bridge.jpg", "2d8b1228ec69c80f863e1b0e6e30a9aa"],
    ["../media/sample-1mp.jpg", "92d03a7519831a791c6ed19a3e3e9cf8"],
    ["baseline-444.jpg", "7e349969f2413d70332e1531e6de5e76"],
    ["baseline-422.jpg", "edb7a6a42506968ce141e68e521e2f39"],
    ["baseline-411.jpg", "f7419a7898bb1f31f9b7db23beeb2509"],
    ["progressive-420.jpg", "f4e53347f59592b7edfbd31d1f129ea2"],
    ["progressive-440.jpg", "8816f74aa5d8fc889d6b6139146ab3f5"],
    ["gray.jpg", "ba28c6131b81da5771233d7c44da282a"],
    ["rgb-adobe.jpg", "0252d0024cff052ea43aacdd69a6f22f"],
  ])("%s decodes byte for byte as the scalar build did", (name, digest) => {
    const image = ours(fixture(name));
    expect(createHash("sha256").update(image.data).digest("hex").slice(0, 32)).toBe(digest);
  });
});

describe("reduced decodes (DCT domain)", () => {
  it.each([2, 4, 8] as const)("1/%i is close to an area downscale of the full decode", async (s) => {
    for (const bytes of [PHOTO, fixture("progressive-422-restart.jpg"), fixture("gray.jpg"), fixture("baseline-411.jpg")]) {
      const full = ours(bytes);
      const reduced = ours(bytes, s);
      expect([reduced.width, reduced.height]).toEqual([Math.ceil(full.width / s), Math.ceil(full.height / s)]);
      // luma is reduced exactly (area average); chroma goes through the upsampler at the reduced size
      expect(compare(reduced, areaDownscale(full, s)).psnr).toBeGreaterThanOrEqual(s === 8 ? 32 : 34);
    }
  });
});

describe("row streaming", () => {
  it.each([
    ["photo-bridge.jpg", 1],
    ["progressive-420.jpg", 1],
    ["progressive-420.jpg", 4],
    ["baseline-420-restart-every-mcu.jpg", 2],
    ["gray-progressive-restart.jpg", 8],
  ] as const)("%s at 1/%i: the streamed rows are the one-shot decode, in MCU-row runs, once each", (name, s) => {
    const bytes = name === "photo-bridge.jpg" ? PHOTO : fixture(name);
    const whole = ours(bytes, s);
    const runs: number[] = [];
    let restarts = 0;
    let got: Uint8Array | null = null;
    let at = 0;
    const r = decoder.stream(bytes, s, MAX, (w, h) => {
      got = new Uint8Array(w * h * 4);
      return {
        restart: () => {
          restarts++;
          at = 0;
        },
        rows: (data, count) => {
          runs.push(count);
          got!.set(data.subarray(0, count * w * 4), at);
          at += count * w * 4;
        },
      };
    });
    expect(r.status).toBe("decoded");
    expect(restarts).toBe(1);
    expect(at).toBe(whole.data.length);
    expect(Buffer.from(got!).equals(Buffer.from(whole.data))).toBe(true);
    // every run but the last is one whole MCU row (8 or 16 rows at full size, reduced with the image)
    const mcuRows = runs[0]!;
    expect([8, 16].map((m) => m / s)).toContain(mcuRows);
    expect(runs.slice(0, -1).every((n) => n === mcuRows)).toBe(true);
  });

  it("a RowSource reads the same pixels every time, also with another decode in between", () => {
    const bytes = fixture("progressive-444.jpg");
    const src = decoder.source(bytes, MAX);
    if (src.status !== "ready") throw new Error(src.message);
    const collect = (scale: DecodeScale) => {
      const parts: Uint8Array[] = [];
      const r = src.source.read({ restart: () => parts.splice(0), rows: (d) => parts.push(d.slice()) }, scale);
      expect(r.status).toBe("read");
      return Buffer.concat(parts);
    };
    const a = collect(1);
    const reduced = collect(4); // a rewind of the same coefficients
    const b = collect(1);
    ours(PHOTO); // someone else's decode replaces the kernel's state
    const c = collect(1);
    expect(a.equals(Buffer.from(ours(bytes).data))).toBe(true);
    expect(b.equals(a)).toBe(true);
    expect(c.equals(a)).toBe(true);
    expect(reduced.equals(Buffer.from(ours(bytes, 4).data))).toBe(true);
  });

  it("the codec's decode, decodeScaled and rowSource use it for JPEG and keep the other types as they were", async () => {
    const codec = nodeImageCodec();
    const full = await codec.decode(PHOTO, "image/jpeg");
    if (full.status !== "decoded") throw new Error(full.message);
    expect(Buffer.from(full.image.data).equals(Buffer.from(ours(PHOTO).data))).toBe(true);
    const quarter = await codec.decodeScaled(PHOTO, "image/jpeg", 4);
    expect(quarter.status === "decoded" && [quarter.scale, quarter.image.width, quarter.image.height]).toEqual([4, 400, 251]);
    const png = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "sample.png")));
    const pngScaled = await codec.decodeScaled(png, "image/png", 4);
    expect(pngScaled.status === "decoded" && pngScaled.scale).toBe(1);
    expect((await codec.rowSource(png, "image/png")).status).toBe("unsupported");
    const arithmetic = await codec.rowSource(fixture("arithmetic.jpg"), "image/jpeg");
    expect(arithmetic.status).toBe("unsupported");
    // MozJPEG without optimised coding writes small files whose data libjpeg itself calls a bad Huffman code: we
    // refuse them, and decode() hands them to MozJPEG, which decodes them with a warning, as before
    const pattern = { width: 7, height: 9, data: Uint8Array.from({ length: 7 * 9 * 4 }, (_, i) => (i * 37 + (i >> 7) * 11) & 255) };
    const quirky = await encode(pattern, {
      quality: 90,
      progressive: false,
      optimize_coding: false,
      auto_subsample: false,
      chroma_subsample: 2,
    });
    expect(decoder.decode(quirky, 1, MAX).status).toBe("failed");
    const fallback = await codec.decode(quirky, "image/jpeg");
    expect(fallback.status === "decoded" && [fallback.image.width, fallback.image.height]).toEqual([7, 9]);
  });
});

describe("hostile and unsupported input: a typed result, never a throw or a hang", () => {
  /** The offset of the first marker `m` (0xFF m). */
  const markerAt = (b: Uint8Array, m: number) => b.findIndex((v, i) => v === 0xff && b[i + 1] === m);

  it("unsupported coding processes: arithmetic, 12-bit, lossless, 4 components, DNL", () => {
    expect(decoder.decode(fixture("arithmetic.jpg"), 1, MAX).status).toBe("unsupported");
    const base = fixture("baseline-444.jpg");
    const sof = markerAt(base, 0xc0);
    const patched = (f: (b: Uint8Array) => void) => {
      const b = base.slice();
      f(b);
      return decoder.decode(b, 1, MAX).status;
    };
    expect(patched((b) => (b[sof + 4] = 12))).toBe("unsupported");
    expect(patched((b) => (b[sof + 1] = 0xc3))).toBe("unsupported");
    expect(patched((b) => (b[sof + 9] = 4))).toBe("unsupported");
    expect(
      patched((b) => {
        b[sof + 5] = 0;
        b[sof + 6] = 0;
      }),
    ).toBe("unsupported");
  });

  it("absurd dimensions are refused before any allocation", () => {
    const b = fixture("progressive-420.jpg").slice();
    const sof = markerAt(b, 0xc2);
    b.set([0xff, 0xff, 0xff, 0xff], sof + 5);
    const t = performance.now();
    expect(decoder.decode(b, 1, MAX).status).toBe("too_large");
    expect(decoder.decode(b, 8, 1e12).status).toBe("too_large"); // 64K x 64K progressive: no memory for it
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it("truncated files fail (every cut inside the scan data)", () => {
    for (const name of ["baseline-420-restart-3-mcus.jpg", "progressive-420.jpg", "gray.jpg"]) {
      const b = fixture(name);
      const sos = markerAt(b, 0xda);
      for (let cut = sos + 20; cut < b.length - 64; cut += 97) {
        const r = decoder.decode(b.subarray(0, cut), 1, MAX);
        expect(r.status, `${name} cut at ${cut}`).toBe("failed");
      }
      for (let cut = 0; cut < sos; cut += 7) expect(decoder.decode(b.subarray(0, cut), 1, MAX).status).not.toBe("decoded");
    }
  });

  it("corrupt entropy data and tables end in a status quickly", () => {
    const rand = prng(19);
    const t = performance.now();
    for (const name of ["baseline-422-restart-rows.jpg", "progressive-422-restart.jpg", "sequential-non-interleaved.jpg"]) {
      const base = fixture(name);
      for (let i = 0; i < 60; i++) {
        const b = base.slice();
        for (let j = 0; j < 1 + (i % 5); j++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
        const r = decoder.decode(b, ([1, 2, 4, 8] as const)[i % 4]!, MAX);
        expect(["decoded", "failed", "unsupported", "too_large"]).toContain(r.status);
      }
    }
    // a Huffman table with no code for what the data says
    const b = fixture("gray.jpg").slice();
    const dht = markerAt(b, 0xc4);
    for (let l = 0; l < 16; l++) b[dht + 5 + l] = l === 0 ? 1 : 0;
    expect(decoder.decode(b, 1, MAX).status).toBe("failed");
    expect(performance.now() - t).toBeLessThan(20_000);
  });

  it("a Huffman table with more codes than a length holds is refused before its lookup table is written", () => {
    // 255 codes of length 1: the fast table used to be filled before the count check, writing up to 128 KB past
    // the table (over the colour tables and the input) and leaving the instance's pixels wrong for the next file
    const fresh = new JpegStreamDecoder(MODULE);
    const good = fixture("baseline-420-restart-3-mcus.jpg");
    const expected = ours(good);
    const dht = new Uint8Array(4 + 17 + 255);
    dht.set([0xff, 0xc4, 0x01, 0x12, 0x00, 255]);
    for (const tc of [0x00, 0x10, 0x13]) {
      dht[4] = tc;
      for (const count of [[255], [3], [0, 5], [0, 0, 9], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]]) {
        dht.fill(0, 5, 21);
        dht.set(count, 5);
        const r = fresh.decode(new Uint8Array([0xff, 0xd8, ...dht, ...good.subarray(2)]), 1, MAX);
        expect(r.status).toBe("failed");
        expect((r as { message: string }).message).not.toMatch(/decoder error/);
        const again = fresh.decode(good, 1, MAX);
        expect(again.status === "decoded" && Buffer.compare(again.image.data, expected.data)).toBe(0);
      }
    }
  });

  it("a Huffman table that uses the all-ones code of a length is refused, as libjpeg refuses it (T.81 Annex C)", () => {
    const good = fixture("baseline-444.jpg");
    const dht = new Uint8Array(4 + 17 + 4);
    dht.set([0xff, 0xc4, 0x00, 0x17, 0x10, 0, 4]); // four codes of length 2: 00 01 10 11
    expect(decoder.header(new Uint8Array([0xff, 0xd8, ...dht, ...good.subarray(2)])).status).toBe("failed");
    dht.set([0xff, 0xc4, 0x00, 0x17, 0x10, 0, 3, 1]); // 00 01 10 110: a complete prefix code but for 111
    expect(decoder.header(new Uint8Array([0xff, 0xd8, ...dht, ...good.subarray(2)])).status).toBe("ready");
  });

  it("a restart interval of 1 with no markers in the data fails at once (no resynchronising search)", () => {
    const base = fixture("progressive-420.jpg");
    const sos = markerAt(base, 0xda);
    const dri = new Uint8Array([0xff, 0xdd, 0x00, 0x04, 0x00, 0x01]);
    const b = new Uint8Array([...base.subarray(0, sos), ...dri, ...base.subarray(sos)]);
    const t = performance.now();
    expect(decoder.decode(b, 1, MAX).status).toBe("failed");
    expect(performance.now() - t).toBeLessThan(1000);
  });
});
