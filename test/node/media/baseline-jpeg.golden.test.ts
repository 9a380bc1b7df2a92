import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import { beforeAll, describe, expect, it } from "vitest";
import { BaselineJpegEncoder, type ChromaSubsampling } from "../../../src/media/codecs/baseline-jpeg.ts";
import type { RgbaImage } from "../../../src/media/types.ts";
import { prng } from "../../support/prng.ts";
import { EXTREME_CASES } from "./baseline-jpeg.extreme-cases.ts";

// The encoder's exact bytes, pinned: its SIMD colour conversion, DCT and quantisation (#19) compute every sample
// with the same f32 operations in the same order as the scalar kernel before them, and the batched bit writer
// writes the same stream, so the output is byte-identical to what the scalar encoder wrote for these inputs
// (digests recorded from it). Any change to the kernel's arithmetic or tables shows here, not as a quiet drift
// in size or quality.

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const encoder = new BaselineJpegEncoder(new Module(readFileSync(new URL("../../../wasm/build/jpegenc.wasm", import.meta.url))));

let photo: RgbaImage;
beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
  const bytes = readFileSync(new URL("../../fixtures/media/photo-bridge.jpg", import.meta.url));
  const d = await decodeJpeg(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
  photo = { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) };
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

function noise(width: number, height: number, seed: number): RgbaImage {
  const rand = prng(seed);
  return { width, height, data: new Uint8Array(width * height * 4).map(() => Math.floor(rand() * 256)) };
}

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

const CASES: [string, () => RgbaImage, number, ChromaSubsampling][] = [];
for (const [w, h] of [
  [1, 1],
  [7, 9],
  [17, 33],
  [97, 61],
  [300, 200],
] as const)
  for (const quality of [50, 85, 90, 98])
    for (const sub of ["4:2:0", "4:4:4"] as const) CASES.push([`photo-like ${w}x${h}`, () => photoLike(w, h, w * 31 + h), quality, sub]);
CASES.push(["noise 203x77", () => noise(203, 77, 5), 98, "4:4:4"]);
CASES.push(["noise 203x77", () => noise(203, 77, 5), 98, "4:2:0"]);
CASES.push(["noise 64x40", () => noise(64, 40, 6), 100, "4:4:4"]);

/** Recorded from the scalar encoder (before #19's SIMD kernel), per case: the first 16 hex digits of the SHA-256. */
const GOLDEN_SYNTHETIC: Record<string, string> = {
  "photo-like 1x1 q50 4:2:0": "d142d66da4498d9c",
  "photo-like 1x1 q50 4:4:4": "2275eeab2c875dd1",
  "photo-like 1x1 q85 4:2:0": "fbfc63e59ff88e83",
  "photo-like 1x1 q85 4:4:4": "dfec0374e3c60d6d",
  "photo-like 1x1 q90 4:2:0": "ab4f6be306e7a51b",
  "photo-like 1x1 q90 4:4:4": "067ab16adf951a81",
  "photo-like 1x1 q98 4:2:0": "12e9e3245c26fb25",
  "photo-like 1x1 q98 4:4:4": "526caab103a1b4a2",
  "photo-like 7x9 q50 4:2:0": "ab6871b3304f6370",
  "photo-like 7x9 q50 4:4:4": "e5cdd6d68f9f03f1",
  "photo-like 7x9 q85 4:2:0": "a7fe2fb9de270f3b",
  "photo-like 7x9 q85 4:4:4": "572f5ca36c964ef0",
  "photo-like 7x9 q90 4:2:0": "028d992e33f34c4b",
  "photo-like 7x9 q90 4:4:4": "2605674e555bc1fd",
  "photo-like 7x9 q98 4:2:0": "30ee25312a69f47d",
  "photo-like 7x9 q98 4:4:4": "62be093536849f32",
  "photo-like 17x33 q50 4:2:0": "1f723760edd04de9",
  "photo-like 17x33 q50 4:4:4": "e854adfe547bb68a",
  "photo-like 17x33 q85 4:2:0": "92764c0a1fdb747d",
  "photo-like 17x33 q85 4:4:4": "9029d30df8d8e1f2",
  "photo-like 17x33 q90 4:2:0": "659189e3fb1d0c02",
  "photo-like 17x33 q90 4:4:4": "72d4e0ffb59e131b",
  "photo-like 17x33 q98 4:2:0": "66315b790dcc24aa",
  "photo-like 17x33 q98 4:4:4": "08a6a365f38c9e09",
  "photo-like 97x61 q50 4:2:0": "f7fa41ca50a33f7a",
  "photo-like 97x61 q50 4:4:4": "cb7244ebae7bbd90",
  "photo-like 97x61 q85 4:2:0": "4fd2b6c6d49114da",
  "photo-like 97x61 q85 4:4:4": "58f592bd6f109731",
  "photo-like 97x61 q90 4:2:0": "c4833672a43101f1",
  "photo-like 97x61 q90 4:4:4": "116ef4d2d7bd4b81",
  "photo-like 97x61 q98 4:2:0": "448a0210951f1466",
  "photo-like 97x61 q98 4:4:4": "d988168ae11cab07",
  "photo-like 300x200 q50 4:2:0": "7a24f7e9fb87e3f9",
  "photo-like 300x200 q50 4:4:4": "b406da984060755d",
  "photo-like 300x200 q85 4:2:0": "2e86cbf2cd2152c1",
  "photo-like 300x200 q85 4:4:4": "f656cbd0a86f0137",
  "photo-like 300x200 q90 4:2:0": "4fc8cb00cc656d06",
  "photo-like 300x200 q90 4:4:4": "6b1da4d9d22efac7",
  "photo-like 300x200 q98 4:2:0": "f548db8f83fbaa05",
  "photo-like 300x200 q98 4:4:4": "7b22c340303c07bd",
  "noise 203x77 q98 4:4:4": "b3ad2bbd15957e0c",
  "noise 203x77 q98 4:2:0": "3f325d0955b75a5d",
  "noise 64x40 q100 4:4:4": "3277a1a01a35cd78",
};
/** Recorded from the scalar encoder (c8fc6c0's kernel) too: the extremes the first set did not reach. */
const GOLDEN_EXTREME: Record<string, string> = {
  "checker 40x24 q1 4:2:0": "2dfaea768d81dd3f",
  "binary 37x29 q1 4:2:0": "1c865392b3699bf8",
  "spikes 67x45 q1 4:2:0": "a28013f97edef33b",
  "ramp 1x301 q1 4:2:0": "c64a966650106a70",
  "ramp 301x1 q1 4:2:0": "e2697667969db0f6",
  "binary 17x1 q1 4:2:0": "e3b0720640a15a24",
  "binary 1x17 q1 4:2:0": "b40336a112d4ba47",
  "checker 40x24 q1 4:4:4": "004673036e6b6d16",
  "binary 37x29 q1 4:4:4": "17527c3718c1bb2a",
  "spikes 67x45 q1 4:4:4": "1e22504902068c1e",
  "ramp 1x301 q1 4:4:4": "1b63e4e9f72ff20f",
  "ramp 301x1 q1 4:4:4": "4282d03b08e09273",
  "binary 17x1 q1 4:4:4": "27ff052b434a945f",
  "binary 1x17 q1 4:4:4": "9d410ae25e737561",
  "checker 40x24 q100 4:2:0": "8fbafb9ea2300145",
  "binary 37x29 q100 4:2:0": "0881716057a86935",
  "spikes 67x45 q100 4:2:0": "20b2dd59b49088ad",
  "ramp 1x301 q100 4:2:0": "6fff4d5378c1ff9d",
  "ramp 301x1 q100 4:2:0": "db38ebdae87c41af",
  "binary 17x1 q100 4:2:0": "f0331a66d5416023",
  "binary 1x17 q100 4:2:0": "ebbab2a6f8163c48",
  "checker 40x24 q100 4:4:4": "60e30da38d5b7bf1",
  "binary 37x29 q100 4:4:4": "323085a6ee0dab9b",
  "spikes 67x45 q100 4:4:4": "0a1772651c95f1a5",
  "ramp 1x301 q100 4:4:4": "b3f7acbab6a4c97c",
  "ramp 301x1 q100 4:4:4": "f07143140221540c",
  "binary 17x1 q100 4:4:4": "ac3a552d3b012007",
  "binary 1x17 q100 4:4:4": "67001b0c5b95fe73",
};
const GOLDEN_PHOTO: Record<string, string> = {
  "q92 4:4:4": "86908117b1b340fe",
  "q85 4:2:0": "1b64d3ac2228c4c3",
};

describe("BaselineJpegEncoder output bytes (pinned)", () => {
  it("synthetic images: every size, quality and subsampling as the scalar kernel wrote them", () => {
    const got: Record<string, string> = {};
    for (const [name, image, quality, sub] of CASES) got[`${name} q${quality} ${sub}`] = digest(encoder.encode(image(), quality, sub));
    expect(got).toEqual(GOLDEN_SYNTHETIC);
  });

  it("extremes: maximal AC energy and 0xFF stuffing, runs of 16+ zeros, 1xN and Nx1, qualities 1 and 100; each decodes", async () => {
    const got: Record<string, string> = {};
    for (const [name, image, quality, sub] of EXTREME_CASES) {
      const input = image();
      const bytes = encoder.encode(input, quality, sub);
      got[`${name} q${quality} ${sub}`] = digest(bytes);
      const d = await decodeJpeg(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
      expect([d.width, d.height]).toEqual([input.width, input.height]);
    }
    expect(got).toEqual(GOLDEN_EXTREME);
  });

  it("a photograph (1600x1004) at the watermark step's settings", () => {
    const got = {
      "q92 4:4:4": digest(encoder.encode(photo, 92, "4:4:4")),
      "q85 4:2:0": digest(encoder.encode(photo, 85, "4:2:0")),
    };
    expect(got).toEqual(GOLDEN_PHOTO);
  });
});
