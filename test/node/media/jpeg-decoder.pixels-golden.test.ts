/**
 * #19 (pixel work of a verification): the decoder's output stays byte for byte what it was before the entropy and
 * transform changes of this round (branch-free correction bits, dequantisation straight into floats, flat blocks by
 * plain stores), at every scale, on the JPEGs the verify benchmarks decode: the 2.8 MP photograph of
 * bench/verify.mjs (progressive 4:2:0, no successive approximation), the 1 MP MozJPEG q90 of
 * bench/verify-keyed.mjs (progressive 4:4:4, successive approximation), and baseline (sequential) encodes, whose
 * blocks go straight from the entropy decoder to the IDCT. Digests recorded with the build before these changes.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const WASM = readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"));
// @ts-expect-error -- a JavaScript module without declarations (the benchmarks' seeded images and MozJPEG)
const images = await import("../../../bench/lib/images.mjs");

async function mozjpeg(kind: string, width: number, height: number, seed: number, options: object): Promise<Uint8Array> {
  const img = images.makeImage(kind, width, height, seed);
  const frame = { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width, height };
  return new Uint8Array(await images.jpegEnc.default(frame, options));
}

const digests = (bytes: Uint8Array) => {
  const decoder = new JpegStreamDecoder(new Module(WASM));
  return ([1, 2, 4, 8] as const)
    .map((scale) => {
      const r = decoder.decode(bytes, scale, 50_000_000);
      if (r.status !== "decoded") throw new Error(`${r.status}: ${r.message}`);
      return createHash("sha256").update(r.image.data).digest("hex").slice(0, 16);
    })
    .join(" ");
};

describe("JPEG decoder: the verify benchmarks' JPEGs decode as before at every scale (#19)", () => {
  it.each([
    [
      "the 2.8 MP photograph (bench/verify.mjs)",
      async () => (await images.benchPhotograph()).bytes as Uint8Array,
      "1e7d716b5e415f61 741a004187a1e81d 871003a3fd582fd8 0e929957f092dbf3",
    ],
    [
      "1 MP photo-textured MozJPEG q90 (bench/verify-keyed.mjs)",
      () => mozjpeg("photo-textured", 1280, 800, 1, { quality: 90 }),
      "e7a8ac2f67133e28 c7b4ee8aa9a895c6 716be25a68fb57bb fc095b18b90f6f77",
    ],
    [
      "baseline 4:2:0 q75, odd size",
      () => mozjpeg("photo", 1001, 667, 7, { quality: 75, progressive: false }),
      "b495b3f25d1de657 c863ae85b1d83f43 72d18d963eaa70bb 9ff64081f9dc2784",
    ],
    [
      "baseline 4:4:4 q95",
      () => mozjpeg("shapes", 640, 480, 3, { quality: 95, progressive: false, auto_subsample: false, chroma_subsample: 1 }),
      "465231328a567707 bd37e00b0d7d1b61 1c7ee73a760eeb9b 2ecf1c6573f4652b",
    ],
    [
      "progressive q20, flat-heavy",
      () => mozjpeg("gradient", 800, 600, 5, { quality: 20 }),
      "570b9019c787a7b7 02f26a44afcffadd b1c6d23b68b6b64d 293c1e8ce0e0aad0",
    ],
  ])(
    "%s",
    async (_name, make, expected) => {
      expect(digests(await make())).toBe(expected);
    },
    60_000,
  );
});
