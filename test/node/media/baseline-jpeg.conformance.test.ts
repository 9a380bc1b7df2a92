import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg.ts";
import type { RgbaImage } from "../../../src/media/types.ts";
import { prng } from "../../support/prng.ts";

// Our baseline JPEG encoder (wasm/jpegenc) against MozJPEG: the same Annex K tables as MozJPEG writes without
// optimisation, every size and both subsamplings decode to the right dimensions, and the pixels come back about
// as close as MozJPEG's at the same quality.

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const encoder = new BaselineJpegEncoder(new Module(readFileSync(new URL("../../../wasm/build/jpegenc.wasm", import.meta.url))));

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
});

function photoLike(width: number, height: number, seed: number): RgbaImage {
  const rand = prng(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const n = (rand() - 0.5) * 12;
      data[i] = Math.max(0, Math.min(255, 128 + 90 * Math.sin(x / 23) + n));
      data[i + 1] = Math.max(0, Math.min(255, 120 + 80 * Math.cos(y / 17) + n));
      data[i + 2] = Math.max(0, Math.min(255, (x * 255) / width + n));
      data[i + 3] = 255;
    }
  return { width, height, data };
}

const frame = (image: RgbaImage) =>
  ({
    data: new Uint8ClampedArray(image.data.buffer),
    width: image.width,
    height: image.height,
    colorSpace: "srgb",
  }) as unknown as Parameters<typeof encodeJpeg>[0];

async function decode(bytes: Uint8Array): Promise<RgbaImage> {
  const d = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
  return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) };
}

function psnr(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  let n = 0;
  for (let i = 0; i < a.length; i += 4)
    for (let c = 0; c < 3; c++) {
      const d = a[i + c]! - b[i + c]!;
      se += d * d;
      n++;
    }
  return 10 * Math.log10((255 * 255) / (se / n));
}

/** The payloads of every segment with `marker` before the scan. */
function segments(jpeg: Uint8Array, marker: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff && jpeg[i + 1] !== 0xda) {
    const length = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
    if (jpeg[i + 1] === marker) out.push(jpeg.subarray(i + 4, i + 2 + length));
    i += 2 + length;
  }
  return out;
}

/** DQT/DHT payloads split into their tables, keyed by class/id byte, so the comparison ignores how they are grouped. */
function tables(payloads: Uint8Array[], kind: "dqt" | "dht"): Map<number, string> {
  const out = new Map<number, string>();
  for (const p of payloads) {
    let i = 0;
    while (i < p.length) {
      const id = p[i]!;
      const size = kind === "dqt" ? 65 : 17 + p.subarray(i + 1, i + 17).reduce((a, b) => a + b, 0);
      out.set(id, Buffer.from(p.subarray(i, i + size)).toString("hex"));
      i += size;
    }
  }
  return out;
}

describe("BaselineJpegEncoder", () => {
  it("writes MozJPEG's Annex K quantisers and chroma Huffman tables, and complete Annex K luma tables", async () => {
    const image = photoLike(64, 48, 1);
    for (const quality of [50, 85, 92]) {
      const ours = encoder.encode(image, quality, "4:2:0");
      const theirs = new Uint8Array(
        await encodeJpeg(frame(image), { quality, quant_table: 0, baseline: true, progressive: false, optimize_coding: false }),
      );
      expect(tables(segments(ours, 0xdb), "dqt")).toEqual(tables(segments(theirs, 0xdb), "dqt"));
      // MozJPEG optimises its luma Huffman tables even then; its chroma tables are Annex K's
      const [ourHuffman, theirHuffman] = [tables(segments(ours, 0xc4), "dht"), tables(segments(theirs, 0xc4), "dht")];
      for (const id of [0x01, 0x11]) expect(ourHuffman.get(id)).toBe(theirHuffman.get(id));
      // luma: K.3 (DC) and K.5 (AC): every symbol once, in a prefix code with no all-ones code
      for (const [id, symbols] of [
        [0x00, Array.from({ length: 12 }, (_, i) => i)],
        [0x10, [0x00, 0xf0, ...Array.from({ length: 160 }, (_, i) => (Math.floor(i / 10) << 4) | ((i % 10) + 1))]],
      ] as const) {
        const table = Buffer.from(ourHuffman.get(id)!, "hex");
        const counts = [...table.subarray(1, 17)];
        expect([...table.subarray(17)].sort((a, b) => a - b)).toEqual([...symbols].sort((a, b) => a - b));
        const kraft = counts.reduce((sum, n, i) => sum + n * 2 ** -(i + 1), 0);
        expect(kraft).toBeLessThan(1);
      }
    }
  });

  it("every size and both subsamplings decode to the same dimensions, as close as MozJPEG's output", async () => {
    for (const [w, h] of [
      [1, 1],
      [7, 9],
      [16, 16],
      [17, 33],
      [97, 61],
      [300, 200],
    ] as const) {
      const image = photoLike(w, h, w * 31 + h);
      for (const subsampling of ["4:2:0", "4:4:4"] as const) {
        const back = await decode(encoder.encode(image, 90, subsampling));
        expect([back.width, back.height]).toEqual([w, h]);
        if (w * h < 256) continue; // too few pixels for a meaningful PSNR
        const ours = psnr(image.data, back.data);
        const moz = psnr(
          image.data,
          (
            await decode(
              new Uint8Array(
                await encodeJpeg(frame(image), {
                  quality: 90,
                  quant_table: 0,
                  chroma_subsample: subsampling === "4:2:0" ? 2 : 1,
                  auto_subsample: false,
                }),
              ),
            )
          ).data,
        );
        expect(ours, `${w}x${h} ${subsampling}`).toBeGreaterThan(moz - 1);
      }
    }
  });

  it("random pixels (0xFF bytes in the scan) and repeated use decode exactly sized", async () => {
    const rand = prng(3);
    for (let n = 0; n < 5; n++) {
      const w = 8 + Math.floor(rand() * 200);
      const h = 8 + Math.floor(rand() * 120);
      const data = new Uint8Array(w * h * 4).map(() => Math.floor(rand() * 256));
      const back = await decode(encoder.encode({ width: w, height: h, data }, 98, n % 2 ? "4:4:4" : "4:2:0"));
      expect([back.width, back.height]).toEqual([w, h]);
      // noise has no chroma to spare: subsampled it loses most of it
      expect(psnr(data, back.data)).toBeGreaterThan(n % 2 ? 25 : 10);
    }
  });

  it("refuses invalid parameters", () => {
    const image = photoLike(8, 8, 2);
    expect(() => encoder.encode(image, 0, "4:2:0")).toThrow();
    expect(() => encoder.encode(image, 101, "4:4:4")).toThrow();
    expect(() => encoder.encode({ width: 8, height: 9, data: image.data }, 90, "4:2:0")).toThrow();
  });
});

describe("streaming", () => {
  it("rows fed in runs of any length give the same bytes as the one-shot encode; restart begins again", () => {
    const image = photoLike(123, 77, 9);
    const rowBytes = image.width * 4;
    for (const subsampling of ["4:2:0", "4:4:4"] as const) {
      const whole = encoder.encode(image, 88, subsampling);
      const stream = encoder.stream(image.width, image.height, 88, subsampling);
      stream.rows(image.data.subarray(0, 5 * rowBytes), 5); // a pass that is then discarded
      stream.restart();
      for (let y = 0, run = 1; y < image.height; y += run, run = (run * 3) % 37 || 1) {
        const n = Math.min(run, image.height - y);
        stream.rows(image.data.subarray(y * rowBytes, (y + n) * rowBytes), n);
      }
      expect(Buffer.from(stream.finish()).equals(Buffer.from(whole))).toBe(true);
    }
  });

  it("refuses a finish before the last row and rows past the last", () => {
    const image = photoLike(16, 16, 4);
    const stream = encoder.stream(16, 16, 90, "4:2:0");
    stream.rows(image.data, 8);
    expect(() => stream.finish()).toThrow();
    expect(() => stream.rows(image.data, 9)).toThrow();
  });
});
