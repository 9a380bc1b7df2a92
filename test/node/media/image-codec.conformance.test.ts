import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg.ts";
import { estimateJpegQuality, metadataSegments, withSegments } from "../../../src/media/codecs/jpeg-segments.ts";
import type { RgbaImage } from "../../../src/media/types.ts";
import { nodeImageCodec } from "../../support/node-codec.ts";
import { prng } from "../../support/prng.ts";

// Conformance of the ImageCodec (types.ts): decode → encode → decode keeps dimensions for every format,
// lossless formats stay exact, JPEG keeps its metadata segments, and no input makes either method throw.

const codec = nodeImageCodec();
const TYPES = ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/avif"] as const;

function pattern(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = ((x ^ y) & 0x3f) * 4;
      data[i + 3] = 255;
    }
  return { width, height, data };
}

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/media/${name}`, import.meta.url)));

describe("JsquashImageCodec", () => {
  for (const type of TYPES) {
    it(`${type}: encode → decode keeps the dimensions`, async () => {
      const image = pattern(97, 61);
      const encoded = await codec.encode(image, type, new Uint8Array());
      expect(encoded.status).toBe("encoded");
      if (encoded.status !== "encoded") return;
      const decoded = await codec.decode(encoded.bytes, type);
      expect(decoded.status).toBe("decoded");
      if (decoded.status !== "decoded") return;
      expect([decoded.image.width, decoded.image.height]).toEqual([97, 61]);
      if (type === "image/png" || type === "image/tiff") expect(decoded.image.data).toEqual(image.data);
    });
  }

  it("decodes the shipped fixtures", async () => {
    for (const [name, type] of [
      ["sample.jpg", "image/jpeg"],
      ["sample.png", "image/png"],
      ["sample.tif", "image/tiff"],
      ["sample.avif", "image/avif"],
    ] as const) {
      const decoded = await codec.decode(fixture(name), type);
      expect(decoded.status, name).toBe("decoded");
    }
  });

  it("a lossless WebP source is re-encoded losslessly", async () => {
    const image = pattern(40, 30);
    const lossless = await codec.encode(image, "image/webp", new Uint8Array());
    expect(lossless.status).toBe("encoded");
    if (lossless.status !== "encoded") return;
    // The first encode had no source, so it was lossy; make a lossless source by hand with the flag in the bytes.
    const fakeLosslessSource = new Uint8Array([...new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8L\0\0\0\0")]);
    const again = await codec.encode(image, "image/webp", fakeLosslessSource);
    expect(again.status).toBe("encoded");
    if (again.status !== "encoded") return;
    const decoded = await codec.decode(again.bytes, "image/webp");
    expect(decoded.status === "decoded" && decoded.image.data).toEqual(image.data);
  });

  it("JPEG re-encodes keep EXIF, ICC and XMP segments and about the source quality", async () => {
    const src = await codec.encode(pattern(64, 64), "image/jpeg", new Uint8Array());
    if (src.status !== "encoded") throw new Error("encode failed");
    const seg = (marker: number, ascii: string) => {
      const payload = new Uint8Array([...new TextEncoder().encode(ascii), 1, 2, 3]);
      const len = payload.length + 2;
      return new Uint8Array([0xff, marker, len >> 8, len & 0xff, ...payload]);
    };
    const exif = seg(0xe1, "Exif\0\0");
    const icc = seg(0xe2, "ICC_PROFILE\0");
    const xmp = seg(0xe1, "http://ns.adobe.com/xap/1.0/\0");
    const other = seg(0xeb, "JP"); // APP11 (JUMBF) is not carried: an old manifest does not bind new pixels.
    const source = withSegments(src.bytes, [exif, icc, xmp, other]);
    expect(metadataSegments(source)).toEqual([exif, icc, xmp]);
    const decoded = await codec.decode(source, "image/jpeg");
    if (decoded.status !== "decoded") throw new Error("decode failed");
    const out = await codec.encode(decoded.image, "image/jpeg", source);
    if (out.status !== "encoded") throw new Error("re-encode failed");
    expect(metadataSegments(out.bytes)).toEqual([exif, icc, xmp]);
    expect(estimateJpegQuality(out.bytes)).toBeGreaterThanOrEqual(85);
  });

  it("estimates the IJG quality of encoder output", async () => {
    const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
    const encoder = new BaselineJpegEncoder(new Module(readFileSync(new URL("../../../wasm/build/jpegenc.wasm", import.meta.url))));
    for (const q of [50, 75, 90]) {
      const bytes = encoder.encode(pattern(16, 16), q, "4:2:0");
      const estimate = estimateJpegQuality(bytes);
      expect(Math.abs((estimate ?? 0) - q), `q${q} → ${estimate}`).toBeLessThanOrEqual(2);
    }
  });

  it("fuzz: random and truncated bytes never throw", async () => {
    const rand = prng(7);
    const seeds = [fixture("sample.jpg"), fixture("sample.png"), fixture("sample.tif"), fixture("sample.avif")];
    for (let n = 0; n < 200; n++) {
      const base = seeds[n % seeds.length]!;
      const bytes = base.slice(0, Math.max(1, Math.floor(rand() * base.length)));
      for (let k = 0; k < 4; k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      const type = TYPES[n % TYPES.length]!;
      const result = await codec.decode(bytes, type);
      expect(["decoded", "failed", "too_large", "unsupported"]).toContain(result.status);
    }
    expect((await codec.decode(new Uint8Array(0), "image/gif")).status).toBe("unsupported");
    expect(estimateJpegQuality(new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0, 1]))).toBeNull();
  });
});
