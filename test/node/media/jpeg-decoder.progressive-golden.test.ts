/**
 * #19 (the public verify's decode): the progressive path's output stays byte for byte what it was before the
 * AC first scans were decoded in one loop (end-of-band runs inline) and the reduced IDCT began reading the i16
 * coefficients directly, over many progressive encodes: the repo's real photographs re-encoded by MozJPEG at
 * several qualities, subsamplings and scan settings (grayscale and 4:4:4 too, odd sizes, trellis, other quantiser
 * tables), at every scale. Digests recorded with the build before those changes (one per file, over its 4 scales).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const WASM = readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"));
// @ts-expect-error -- a JavaScript module without declarations (MozJPEG, the benchmarks' seeded images)
const images = await import("../../../bench/lib/images.mjs");

const PHOTOS = ["photo-bridge.jpg", "photo-aitzgorri-900x675.jpg", "sample-1mp.jpg"];

/** Case i: a real photograph, cropped to an odd size, re-encoded progressive with settings that vary with i. */
async function encode(i: number): Promise<Uint8Array> {
  const src = await images.jpegDec.default(readFileSync(join(ROOT, "test/fixtures/media", PHOTOS[i % PHOTOS.length]!)).buffer);
  const width = Math.min(src.width, 181 + ((i * 211) % 820));
  const height = Math.min(src.height, 97 + ((i * 157) % 600));
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) data.set(src.data.subarray(y * src.width * 4, (y * src.width + width) * 4), y * width * 4);
  const options = {
    quality: [8, 20, 30, 45, 60, 75, 85, 92, 98][i % 9],
    progressive: true,
    color_space: i % 8 === 3 ? 1 : 3,
    auto_subsample: false,
    chroma_subsample: i % 3 === 0 ? 1 : 2,
    trellis_multipass: i % 4 === 1,
    quant_table: i % 9,
    separate_chroma_quality: i % 5 === 2,
    chroma_quality: 40,
  };
  return new Uint8Array(await images.jpegEnc.default({ data, width, height }, options));
}

const digest = (bytes: Uint8Array) => {
  const decoder = new JpegStreamDecoder(new Module(WASM));
  const h = createHash("sha256");
  for (const scale of [1, 2, 4, 8] as const) {
    const r = decoder.decode(bytes, scale, 50_000_000);
    if (r.status !== "decoded") throw new Error(`${r.status}: ${r.message}`);
    h.update(r.image.data);
  }
  return h.digest("hex").slice(0, 16);
};

// recorded with the decoder before this change (commit 47078a8)
const EXPECTED: string[] = [
  "10c13ef829371363",
  "42f6cfedfb0c44d4",
  "c7e133a5c2be3332",
  "f60168ade08b7643",
  "9cf784a8a398f1e5",
  "9e94a9b793e10bd0",
  "cf3424edda0924bc",
  "079e0ed6f5c7367f",
  "c6f5c67e81908ed6",
  "4bd1506e6d82a2d5",
  "a239cc544b857b9c",
  "ec740862eb634b5f",
  "185c2150915dd6dd",
  "6ab1d7926cf469f5",
  "d8671fec530bb845",
  "129732c174dcdf79",
  "fda0b76330db8e37",
  "ecf916fb2e50fa31",
  "2c4299a6bb75fd04",
  "119404cddef267af",
  "acfaa35075509d42",
  "01e87ecef9fd829d",
  "391210cd071dbbfc",
  "51e93240f3f6d493",
  "84988f3089321258",
  "c2bf6d35a61bf454",
  "eb7575ae72228fe5",
  "610d4eb0bcf371c6",
  "7c829c27b945aa72",
  "e0a8fe784a1c000d",
  "fa51d0e3fa52a535",
  "fc8ee3c96e7c4c9e",
  "a12a99008ad039ac",
  "4afd4e50e3d0ec98",
  "bae7ed2957f2fff1",
  "2cace1e88adfb5fe",
];

describe("JPEG decoder: progressive re-encodes of real photographs decode as before at every scale (#19)", () => {
  it("every case's 4 scales hash as before", async () => {
    const got: string[] = [];
    for (let i = 0; i < EXPECTED.length; i++) got.push(digest(await encode(i)));
    expect(got).toEqual(EXPECTED);
  }, 120_000);
});
