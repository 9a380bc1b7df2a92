/**
 * Watermarker.embedFrom (src/media/watermark/kernel.ts) fed by our streaming JPEG decoder, as the watermark step
 * uses it: the luma grid from a reduced read, the marked rows from full-size reads, never a whole image. Checked
 * against embedInto on the fully decoded image: the mark reads back from the output (and from its re-encode), the
 * PSNR is measured on the full-size output, meets the strength's target and stays within a few tenths of a dB of
 * the whole-image embed; sources that cannot be read fail cleanly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg.ts";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import type { RgbaImage, RowSink, RowSource } from "../../../src/media/types.ts";
import { WATERMARK_STRENGTH_PSNR_DB, WasmWatermarker } from "../../../src/media/watermark/kernel.ts";
import { prng } from "../../support/prng.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const wm = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));
const decoderModule = new Module(readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm")));
const encoder = new BaselineJpegEncoder(new Module(readFileSync(join(ROOT, "wasm", "build", "jpegenc.wasm"))));
const PHOTO = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "media", "photo-bridge.jpg")));

beforeAll(async () => {
  const pkg = join(ROOT, "node_modules", "@jsquash", "jpeg");
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
});

function collector(width: number, height: number): RowSink & { image: RgbaImage; restarts: number } {
  const image = { width, height, data: new Uint8Array(width * height * 4) };
  let at = 0;
  return {
    image,
    restarts: 0,
    restart() {
      this.restarts++;
      at = 0;
    },
    rows(data, count) {
      image.data.set(data.subarray(0, count * width * 4), at);
      at += count * width * 4;
    },
  };
}

/** A large photo-like JPEG (so the luma read is reduced), progressive as MozJPEG writes by default. */
async function largeJpeg(width: number, height: number): Promise<Uint8Array> {
  const rand = prng(7);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const n = (rand() - 0.5) * 30;
      data[i] = 128 + 80 * Math.sin(x / 37 + Math.cos(y / 53)) + n;
      data[i + 1] = 120 + 70 * Math.cos(y / 41 - x / 97) + n;
      data[i + 2] = 110 + 60 * Math.sin((x + y) / 71) + n;
      data[i + 3] = 255;
    }
  const frame = { data, width, height, colorSpace: "srgb" } as unknown as Parameters<typeof encodeJpeg>[0];
  return new Uint8Array(await encodeJpeg(frame, { quality: 90 }));
}

describe("embedFrom a streaming JPEG source", () => {
  it.each([
    ["photo-bridge.jpg (1600x1004, luma read at full size)", async () => PHOTO],
    ["generated 3000x2000 progressive (luma read at 1/2)", () => largeJpeg(3000, 2000)],
  ])("%s: the mark reads back, PSNR on target and within 0.5 dB of the whole-image embed", async (_name, make) => {
    const bytes = await make();
    const decoder = new JpegStreamDecoder(decoderModule);
    const whole = decoder.decode(bytes, 1, 50_000_000);
    if (whole.status !== "decoded") throw new Error(whole.message);
    const src = decoder.source(bytes, 50_000_000);
    if (src.status !== "ready") throw new Error(src.message);
    const { width, height } = src.source;
    const payload = Uint8Array.from([1, 9, 2, 8, 3, 7, 4, 6]);

    const streamed = collector(width, height);
    const a = wm.embedFrom({ source: src.source, payload, strength: "balanced" }, streamed);
    const reference = collector(width, height);
    const b = wm.embedInto({ image: whole.image, payload, strength: "balanced" }, reference);
    if (a.status !== "embedded" || b.status !== "embedded") throw new Error(`${a.status} / ${b.status}`);
    expect(streamed.restarts).toBeGreaterThanOrEqual(1);

    const found = wm.detect(streamed.image);
    expect(found.status === "detected" && [...found.payload]).toEqual([...payload]);
    expect(a.psnr_db).toBeGreaterThanOrEqual(WATERMARK_STRENGTH_PSNR_DB.balanced - 0.5);
    expect(Math.abs(a.psnr_db - b.psnr_db)).toBeLessThan(0.5);
    // the reported PSNR is the luma PSNR of the output against the source's full-size pixels
    let se = 0;
    for (let i = 0; i < whole.image.data.length; i += 4) {
      const y0 = 0.299 * whole.image.data[i]! + 0.587 * whole.image.data[i + 1]! + 0.114 * whole.image.data[i + 2]!;
      const y1 = 0.299 * streamed.image.data[i]! + 0.587 * streamed.image.data[i + 1]! + 0.114 * streamed.image.data[i + 2]!;
      se += (y1 - y0) ** 2;
    }
    expect(10 * Math.log10((255 * 255) / (se / (width * height)))).toBeCloseTo(a.psnr_db, 1);

    // and from its re-encode (what the step publishes), read back by the same decoder
    const encoded = encoder.encode(streamed.image, 92, "4:4:4");
    const back = new JpegStreamDecoder(decoderModule).decode(encoded, 1, 50_000_000);
    if (back.status !== "decoded") throw new Error(back.message);
    const again = wm.detect(back.image);
    expect(again.status === "detected" && [...again.payload]).toEqual([...payload]);
  });

  it("under ~1.8 MP (a full-size luma read) reads the source once, and its output is exactly embedInto's (#19)", () => {
    const decoder = new JpegStreamDecoder(decoderModule);
    const whole = decoder.decode(PHOTO, 1, 50_000_000);
    if (whole.status !== "decoded") throw new Error(whole.message);
    const src = decoder.source(PHOTO, 50_000_000);
    if (src.status !== "ready") throw new Error(src.message);
    const reads: number[] = [];
    const counted: RowSource = {
      width: src.source.width,
      height: src.source.height,
      read: (sink, scale) => {
        reads.push(scale);
        return src.source.read(sink, scale);
      },
    };
    const payload = Uint8Array.from([7, 7, 1, 9, 2, 0, 2, 6]);
    const streamed = collector(counted.width, counted.height);
    const a = wm.embedFrom({ source: counted, payload, strength: "balanced" }, streamed);
    const reference = collector(counted.width, counted.height);
    const b = wm.embedInto({ image: whole.image, payload, strength: "balanced" }, reference);
    expect(reads).toEqual([1]);
    expect(a).toEqual(b);
    expect(Buffer.from(streamed.image.data).equals(Buffer.from(reference.image.data))).toBe(true);
    // above it the luma pass is still a reduced read and the apply pass a full-size one (never a whole image)
    const large: RowSource = {
      width: 2000,
      height: 1000,
      read: (_sink, scale) => (reads.push(scale), { status: "failed", message: "stop" }),
    };
    reads.length = 0;
    expect(wm.embedFrom({ source: large, payload, strength: "balanced" }, collector(2000, 1000)).status).toBe("failed");
    expect(reads).toEqual([2]);
  });

  it("a source that fails to read, or is too small, gives a typed result and no throw", () => {
    const failing: RowSource = { width: 800, height: 600, read: () => ({ status: "failed", message: "broken" }) };
    const sink = collector(800, 600);
    expect(wm.embedFrom({ source: failing, payload: new Uint8Array(8), strength: "balanced" }, sink)).toEqual({
      status: "failed",
      message: "broken",
    });
    const tiny: RowSource = { width: 100, height: 600, read: () => ({ status: "read" }) };
    expect(wm.embedFrom({ source: tiny, payload: new Uint8Array(8), strength: "balanced" }, sink).status).toBe("too_small");
    expect(wm.embedFrom({ source: failing, payload: new Uint8Array(3), strength: "balanced" }, sink).status).toBe("failed");
    const throwing: RowSource = {
      width: 800,
      height: 600,
      read: () => {
        throw new Error("boom");
      },
    };
    expect(wm.embedFrom({ source: throwing, payload: new Uint8Array(8), strength: "balanced" }, sink).status).toBe("failed");
  });
});
