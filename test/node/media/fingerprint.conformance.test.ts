/**
 * Conformance of our own image fingerprints (wasm/fingerprint, src/media/fingerprint):
 *
 * - ISCC Content-Code Image v0: every `gen_image_code_v0` vector of iscc-core's conformance data must match exactly
 *   (the vectors start from normalized 32x32 pixels). The normalization itself (iscc-sdk's steps with Pillow) is
 *   pinned by reference values computed with Pillow 9.4 on the very same pixels (SHA-256 prefix of the 32x32
 *   result and the code): equal means bit-exact with Pillow.
 * - PDQ: the upstream test JPEGs must hash within the upstream tolerance (Hamming <= 16) of ThreatExchange's
 *   expected values (which come from other JPEG decoders, and for the large image from a 512 px pre-shrink), and
 *   bit-exactly (hash and quality) to the C++ reference (pdqhashing.cpp, g++ -O2 x86-64) run on the same decoded
 *   pixels, recorded below.
 * - Determinism, robustness to re-encoding and resizing, and a fuzz run that must never throw.
 *
 * The vectors live in test/fixtures/fp-vectors (copied from ../shared/fp-vectors; see its README); without them
 * this file fails, it never skips.
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  decodeIsccUnit,
  encodeIsccUnit,
  FingerprintKernel,
  hammingDistance,
  IsccImageFingerprinter,
  isccImageCode,
  PdqFingerprinter,
  pdqBit,
  pdqBitsFromHex,
  pdqHex,
} from "../../../src/media/fingerprint";
import type { FingerprintResult, RgbaImage } from "../../../src/media/types";
import { prng } from "../../support/prng";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const VECTORS = join(ROOT, "test", "fixtures", "fp-vectors");
if (!existsSync(join(VECTORS, "iscc", "data.json")) || !existsSync(join(VECTORS, "pdq", "expected.csv"))) {
  throw new Error(`fingerprint conformance vectors missing at ${VECTORS} (iscc/data.json, pdq/expected.csv): cannot test`);
}
const WASM = join(ROOT, "wasm", "build", "fingerprint.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);

/** Compiles wasm bytes (the Workers types declare WebAssembly.Module abstract; Node has the constructor). */
const compileWasm = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);

const fingerprintModule = compileWasm(readFileSync(WASM));
const iscc = new IsccImageFingerprinter(fingerprintModule);
const iscc256 = new IsccImageFingerprinter(fingerprintModule, { bitLength: 256 });
const pdq = new PdqFingerprinter(fingerprintModule);

type Computed = Extract<FingerprintResult, { status: "computed" }>;
function computed(r: FingerprintResult): Computed {
  if (r.status !== "computed") throw new Error(`fingerprint failed: ${r.message}`);
  return r;
}

/** A file's bytes in an ArrayBuffer of their own (small Buffers share a pool: `.buffer` would hand over the pool). */
function fileBuffer(path: string): ArrayBuffer {
  return new Uint8Array(readFileSync(path)).buffer;
}

async function decodeFile(path: string): Promise<RgbaImage> {
  const img = await decodeJpeg(fileBuffer(path));
  return { width: img.width, height: img.height, data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length) };
}

async function reencode(image: RgbaImage, quality: number): Promise<RgbaImage> {
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

/** Halves an image by averaging 2x2 blocks (rounded). */
function halve(image: RgbaImage): RgbaImage {
  const w = Math.floor(image.width / 2);
  const h = Math.floor(image.height / 2);
  const out = new Uint8Array(w * h * 4);
  const s = image.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 4; c++) {
        const a = (2 * y * image.width + 2 * x) * 4 + c;
        const b = a + image.width * 4;
        out[(y * w + x) * 4 + c] = (s[a]! + s[a + 4]! + s[b]! + s[b + 4]! + 2) >> 2;
      }
    }
  }
  return { width: w, height: h, data: out };
}

const sha16 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

// ---------------------------------------------------------------- synthetic images (formulas mirrored by the reference run)

function h32(x: number, y: number, s: number): number {
  let h = (Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(s, 2246822519 | 0)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
const n8 = (x: number, y: number, s: number) => h32(x, y, s) & 255;
type Px = [number, number, number, number];

const SYNTHETIC: Record<string, [number, number, (x: number, y: number) => Px]> = {
  "alpha-gradient": [97, 61, (x, y) => [(x * 7) & 255, (y * 13) & 255, (x * y) & 255, n8(x, y, 1)]],
  bordered: [
    300,
    200,
    (x, y) => (x < 20 || y < 35 || x > 260 || y > 180 ? [10, 200, 30, 255] : [(3 * x + y) & 255, (5 * y) & 255, n8(x, y, 2), 255]),
  ],
  "transparent-border": [
    120,
    90,
    (x, y) => (x < 15 || y < 9 || x >= 100 || y >= 70 ? [n8(x, y, 3), 0, 0, 0] : [n8(x, y, 4), (x * 2) & 255, (y * 3) & 255, 255]),
  ],
  "single-pixel": [1, 1, () => [12, 34, 56, 200]],
  "3x7": [3, 7, (x, y) => [x * 80, y * 30, 200, 255]],
  "wide-strip": [1500, 9, (x, y) => [(x * 11 + y * 3) & 255, (x >> 2) & 255, (y * 40) & 255, 255]],
  "tall-strip": [6, 2000, (x, y) => [(y * 7) & 255, (x * 50) & 255, (y >> 3) & 255, 255]],
  "exact-32": [32, 32, (x, y) => [n8(x, y, 5), (y * 8) & 255, ((x + y) * 4) & 255, 255]],
  "32-wide": [32, 100, (x, y) => [(x * 8) & 255, n8(x, y, 6), ((x + y) * 4) & 255, 255]],
  "64x64": [64, 64, (x, y) => [n8(x, y, 7), (y * 4) & 255, ((x + y) * 2) & 255, 255]],
  uniform: [50, 40, () => [9, 9, 9, 255]],
  noise: [640, 480, (x, y) => [n8(x, y, 8), n8(x, y, 9), n8(x, y, 10), 255]],
  upscale: [20, 13, (x, y) => [(x * 12) & 255, (y * 19) & 255, n8(x, y, 11), 255]],
  "wide-band": [70000, 12, (x, y) => [n8(x >> 7, y >> 2, 14), n8(x >> 9, y >> 3, 15), (x >> 8) & 255, 255]],
  "very-wide": [300000, 2, (x, y) => [n8(x >> 6, y, 12), (x >> 10) & 255, n8(x >> 8, 0, 13), 255]],
};

function synthetic(name: string): RgbaImage {
  const [width, height, f] = SYNTHETIC[name]!;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0, i = 0; y < height; y++) for (let x = 0; x < width; x++, i += 4) data.set(f(x, y), i);
  return { width, height, data };
}

/**
 * Reference values for the synthetic images: ISCC from Pillow 9.4 running iscc-sdk's normalization steps
 * (paste on white with the alpha mask, getbbox trim, convert("L"), resize((32, 32), BICUBIC)) then iscc-core's
 * hash, as [SHA-256 prefix of the 32x32 pixels, 64-bit code, 256-bit code]; PDQ from the C++ reference on the same
 * pixels composited onto white, as [hash, quality].
 */
const SYNTHETIC_REFERENCE: Record<string, { iscc: [string, string, string]; pdq: [string, number] }> = {
  "alpha-gradient": {
    iscc: ["870b8f1576ddfe4b", "ISCC:EEAYEJDOB4WXK66S", "ISCC:EEDYEJDOB4WXK66SAVEM2H225J32IJCGBYWXKO6SPZEI2HK25JTKJ7A"],
    pdq: ["227166c6f26b50b18fc20e273c401b6e7a7f06adc76e4a7355584af9dfa35700", 100],
  },
  bordered: {
    iscc: ["36e898fe21064b51", "ISCC:EEA5N7AJ7MUYHCJK", "ISCC:EED5N7AJ7MUYHCJKVX4BF52SB4JNJ7AJ7MUYPKLKQH4FF52SB5JNYQQ"],
    pdq: ["2845f5ea35ea656a566a2a15dfba0a15c81597eaf53e386a653ac8619ac23795", 100],
  },
  "transparent-border": {
    iscc: ["c3bfd984191c4230", "ISCC:EEAYE3CNOXZSKDWH", "ISCC:EEDYE3CNOXZSKDWHAXMIT27HJIOI62CEOXZSKDWHG6IIT27GJIGI63Y"],
    pdq: ["817e1a5b907ee17ece01a53e7f81d8c1dacc7e8178317f815f81d92c7e81007e", 100],
  },
  "single-pixel": {
    iscc: ["79df4082002a05ad", "ISCC:EEAYAAAAAAAAAAAA", "ISCC:EEDYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    pdq: ["0000000000000000000000000000000000000000000000000000000000000000", 0],
  },
  "3x7": {
    iscc: ["d05d639de673ee21", "ISCC:EEAZ43ZUHDEUONRY", "ISCC:EEDZ43ZUHDEUONRYHSHGS4MSRZWXC3ZUHDFUONRYZGHWS4MSRZWXDEQ"],
    pdq: ["0000000000000000000000000000000000000000000000000000000000000000", 0],
  },
  "wide-strip": {
    iscc: ["d9586ec7e3f35798", "ISCC:EEAYWAC7R57QNWJJ", "ISCC:EEDYWAC7R57QNWJJCYAL6C77BUZVGAC7R57QNGJJZYAL6C77BUYVHHA"],
    pdq: ["5a5557af5555f7fdaaaac3abaaaaadfd55551e5455550802aaaaa840a56a52a0", 83],
  },
  "tall-strip": {
    iscc: ["37444b4c774e0299", "ISCC:EEA2G3QOF4DVOKYW", "ISCC:EED2G3QOF4DVOKYWI7OBQXINU5LC23QOF4DVOKYWMPOBQTINU5LC3RY"],
    pdq: ["9b3946e4de6cca6c6496ca6c70979bb1259231c3af7aec4e52e5a94a319360c6", 100],
  },
  "exact-32": {
    iscc: ["ef5e419569fa0527", "ISCC:EEAYQVWPHCLWQO3U", "ISCC:EEDYQVWPHCLWQO3UCCWZ6MJO2F3OQUWPDCLWQO3Q7CSZ6MBO2F3OB4A"],
    pdq: ["98d564f840719a6d1c465a497b0519dedd0f3305d066c78bfa745504aff96ba5", 100],
  },
  "32-wide": {
    iscc: ["2bdb0fd40515cf45", "ISCC:EEA2RUBDHN54EFZX", "ISCC:EED2RUBDHN54EFZXKGQUM5XUQQXW7UBDHN54EFZXIWQUM5XWQQXW7AQ"],
    pdq: ["00b120df7d861656a6f0feee27b7546d89457af6b4f4412112ffd147f0609685", 100],
  },
  "64x64": {
    iscc: ["169f88417876efa7", "ISCC:EEAYEVTAJX3GXND2", "ISCC:EEDYEVTAJX3GXND2AWW4DGTNKZUPKVTABS3CVND2X4W4CGDNKRUPK7Q"],
    pdq: ["b5d751ba7ccaff24b2295134d81703235f7e76af8c16d32a39b62a18288389b5", 100],
  },
  uniform: {
    iscc: ["666373a5c4cc310a", "ISCC:EEAYAAAAAAAAAAAA", "ISCC:EEDYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    pdq: ["2c4b11342c4b1134113413a0820013a02c4b1134017ecc535e01113411345c14", 0],
  },
  noise: {
    iscc: ["bb8353b766711479", "ISCC:EEA3YYLXZSONELMB", "ISCC:EED3YYLXZSONELMBPHB6VGJZUVNAGY3XZSONELMBFPB65GJZUVNAGFY"],
    pdq: ["f3db94103b80bc56449057d3a995bbe2e9eabf80843abdb58b90cb3d865372c1", 100],
  },
  upscale: {
    iscc: ["f0433f8fe0ed0901", "ISCC:EEA2GV4NKW2ATIX2", "ISCC:EED2GV4NKW2ATIX2I2XRXK3JCNCHKV4NKW2ATIV2NOXRXK3BCMCHLVQ"],
    pdq: ["ec8c648b51854de82e7a925407718dfcea636eaf5c202fc82096ced5b3d86cf5", 90],
  },
  "wide-band": {
    iscc: ["ee0c102f81ff5d1c", "ISCC:EEAZOMUN2JZM2PBS", "ISCC:EEDZOMUN2JZM2PBSFZSBVJPFTN4WIMUN3JZM2PBSRVSBVNPFTN4WIGQ"],
    pdq: ["54a7f426ab58742654a78bd954a7f426ab58742674a78bd954a7f426ab587426", 100],
  },
  "very-wide": {
    iscc: ["d450c66d563accde", "ISCC:EEAZKJ5C3SOVBDJP", "ISCC:EEDZKJ5C3SOVBDJPFNHULOB3UEMV4J5C3SOFBDBPXZHQLOBZUEMV47I"],
    pdq: ["0000000000000000000000000000000000000000000000000000000000000000", 0],
  },
};

/**
 * Reference values for the upstream PDQ test JPEGs as @jsquash/jpeg 1.6.0 (MozJPEG) decodes them: ISCC from Pillow
 * 9.4 (as above; [pixels SHA-256 prefix, 64-bit code]) and PDQ from the C++ reference ([hash, quality]).
 */
const JPEG_REFERENCE: Record<string, { iscc: [string, string]; pdq: [string, number] }> = {
  "images/misc-images/small.jpg": {
    iscc: ["00ddeef56c61e420", "ISCC:EEA7R6HY6DYPBYGA"],
    pdq: ["0007001f003f003f007f00ff00ff00ff01ff01ff01ff03ff03ff03ff03ff03ff", 0],
  },
  "images/misc-images/wee.jpg": {
    iscc: ["5a9a0c710b7f5397", "ISCC:EEA54WR5FESSKZRH"],
    pdq: ["6227401f601ff4ccafcc9fad4b0d95d371a2eb7265a3285234d228ca94deeb2d", 100],
  },
  "images/reg-test-input/labelme-subset/q0003.jpg": {
    iscc: ["fa2cd16dd5b8ade6", "ISCC:EEAYA72EO5IV2AL7"],
    pdq: ["54a9f7c321d1443c43ba566e21d4a13989a3553f1472611cbbc5fda59e03b677", 3],
  },
  "images/reg-test-input/labelme-subset/q0004.jpg": {
    iscc: ["e5872116da8105fb", "ISCC:EEAYRLFRVSYVVTVZ"],
    pdq: ["992d44af36d69e6ca6b812585928bac11def254ef5398c6d07466c9abcc65b92", 4],
  },
  "images/reg-test-input/labelme-subset/q0122.jpg": {
    iscc: ["cd473e2e18b8e776", "ISCC:EEAYBAD7F5O7VRDF"],
    pdq: ["cfb2009ddd21c6dab0046a7745b5984757a8a4535b3377aea2591d32b33ff940", 100],
  },
  "images/reg-test-input/labelme-subset/q0291.jpg": {
    iscc: ["d5bbe6d1169cb833", "ISCC:EEA7M4XANGQDLB3W"],
    pdq: ["a0fe94f1e5cc1cc8dd855948498dc9243f7ca27336f036d7f212b74bc103c9a7", 100],
  },
  "images/reg-test-input/labelme-subset/q0746.jpg": {
    iscc: ["71277ef7123f06a2", "ISCC:EEA6CKUV4JK4UVY6"],
    pdq: ["1049d96239e24d4dca2c55512b8bdb77425f4dbcf575a0a95555aaab5554aaaa", 100],
  },
  "images/reg-test-input/labelme-subset/q1050.jpg": {
    iscc: ["e7684b6c2b6d80fd", "ISCC:EEA6FBU42QL72WUC"],
    pdq: ["489db672e9190276d452aeab41eba20f02375fe4092d88defdf491a5c55c5f70", 100],
  },
  "images/reg-test-input/labelme-subset/q2821.jpg": {
    iscc: ["5dfae0a181fba0cf", "ISCC:EEA33SFXIAL5QFPJ"],
    pdq: ["b150231ffae4710ffcf4f18bb574b109a576f14bb8543189f8743289f174b109", 100],
  },
  "images/bridge-mods/aaa-orig.jpg": {
    iscc: ["65b2f9bb0af64bb4", "ISCC:EEA2ZIU4DQZ5YI6X"],
    pdq: ["f8f8f0cee0f4a84f06370a22038f63f0b36e2ed596621e1d33e6b39c4e9c9b22", 100],
  },
  "images/bridge-mods/shrink-a-lot.jpg": {
    iscc: ["affde4eb8f093678", "ISCC:EEA2ZIU4DQZ5YI6X"],
    pdq: ["d0f8f1ccc0f4a84d0a370a3a228f67f0b36e2ed5b6623e1d33e6339c4e9c9b22", 100],
  },
  "images/bridge-mods/square-128x128.jpg": {
    iscc: ["9c3c65cd18aaf038", "ISCC:EEA2ZIU4DQZ5YI6X"],
    pdq: ["d8f8f1eec0f4a84f0e37022a078f63f0b36e2ed596621e1d33e6239c4e9c9b22", 100],
  },
  "images/bridge-mods/square-256x256.jpg": {
    iscc: ["d0362bd827f377a1", "ISCC:EEA2ZIU4DQZ5YI6X"],
    pdq: ["d8f8f0cec4f4a84f0637022a078f67f0b36e2ee5b6621e1d33e6239c4e9c9b22", 100],
  },
};

// ---------------------------------------------------------------- vectors

interface IsccVector {
  inputs: [number[], number];
  outputs: { iscc: string };
}
const isccData = JSON.parse(readFileSync(join(VECTORS, "iscc", "data.json"), "utf8")) as Record<
  string,
  Record<string, { inputs: unknown[]; outputs: Record<string, unknown> }>
>;
const imageVectors = Object.entries(isccData.gen_image_code_v0 ?? {}) as [string, IsccVector][];

interface PdqRow {
  file: string;
  hash: string;
  quality: number | null;
}
const pdqRows: PdqRow[] = readFileSync(join(VECTORS, "pdq", "expected.csv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [file, hash, quality] = line.split(",");
    return { file: file!, hash: hash!, quality: quality ? Number(quality) : null };
  });

const decoded = new Map<string, RgbaImage>();

beforeAll(async () => {
  const dec = join(ROOT, "node_modules", "@jsquash", "jpeg", "codec", "dec", "mozjpeg_dec.wasm");
  const enc = join(ROOT, "node_modules", "@jsquash", "jpeg", "codec", "enc", "mozjpeg_enc.wasm");
  await (initJpegDecode as unknown as (m: WebAssembly.Module) => Promise<void>)(compileWasm(readFileSync(dec)));
  await (initJpegEncode as unknown as (m: WebAssembly.Module) => Promise<void>)(compileWasm(readFileSync(enc)));
  for (const row of pdqRows) decoded.set(row.file, await decodeFile(join(VECTORS, "pdq", row.file)));
});

// ---------------------------------------------------------------- ISCC

describe("ISCC Content-Code Image v0", () => {
  it("has the gen_image_code_v0 vectors", () => {
    expect(imageVectors.length).toBeGreaterThanOrEqual(3);
  });

  it.each(imageVectors)("matches iscc-core vector %s exactly", (_name, vector) => {
    const [pixels, bits] = vector.inputs;
    const f = new IsccImageFingerprinter(fingerprintModule, { bitLength: bits });
    const r = computed(f.fromPixels(pixels));
    expect(r.value).toBe(vector.outputs.iscc);
    expect(r.algorithm).toBe("iscc-image");
    expect(r.quality).toBeNull();
    expect(r.bits.length).toBe(bits / 8);
    expect(decodeIsccUnit(vector.outputs.iscc).digest).toEqual(r.bits);
  });

  it("matches every vector (summary)", () => {
    let matched = 0;
    for (const [, v] of imageVectors) {
      const r = new IsccImageFingerprinter(fingerprintModule, { bitLength: v.inputs[1] }).fromPixels(v.inputs[0]);
      if (r.status === "computed" && r.value === v.outputs.iscc) matched++;
    }
    console.log(`ISCC gen_image_code_v0: ${matched}/${imageVectors.length} vectors matched exactly`);
    expect(matched).toBe(imageVectors.length);
  });

  it.each(Object.keys(SYNTHETIC))("normalizes %s exactly as Pillow does", (name) => {
    const ref = SYNTHETIC_REFERENCE[name]!;
    const image = synthetic(name);
    const n = iscc.normalize(image);
    if (n.status !== "normalized") throw new Error(n.message);
    expect(sha16(n.pixels)).toBe(ref.iscc[0]);
    expect(computed(iscc.compute(image)).value).toBe(ref.iscc[1]);
    expect(computed(iscc256.compute(image)).value).toBe(ref.iscc[2]);
  });

  it.each(Object.keys(JPEG_REFERENCE))("normalizes decoded %s exactly as Pillow does", (file) => {
    const ref = JPEG_REFERENCE[file]!;
    const image = decoded.get(file)!;
    const n = iscc.normalize(image);
    if (n.status !== "normalized") throw new Error(n.message);
    expect(sha16(n.pixels)).toBe(ref.iscc[0]);
    expect(computed(iscc.compute(image)).value).toBe(ref.iscc[1]);
  });

  it("trims the uniform border (the box of pixels unlike the top-left one)", () => {
    const n = iscc.normalize(synthetic("bordered"));
    expect(n).toMatchObject({ status: "normalized", trim: { x: 20, y: 35, width: 241, height: 146 } });
    const t = iscc.normalize(synthetic("transparent-border"));
    expect(t).toMatchObject({ status: "normalized", trim: { x: 15, y: 9, width: 85, height: 61 } });
    const u = iscc.normalize(synthetic("uniform"));
    expect(u).toMatchObject({ status: "normalized", trim: { x: 0, y: 0, width: 50, height: 40 } });
  });

  it("rejects bad normalized pixels and bit lengths without throwing", () => {
    expect(iscc.fromPixels([1, 2, 3]).status).toBe("failed");
    expect(iscc.fromPixels(new Array(1024).fill(256)).status).toBe("failed");
    expect(iscc.fromPixels(new Array(1024).fill(1.5)).status).toBe("failed");
    expect(() => new IsccImageFingerprinter(fingerprintModule, { bitLength: 48 })).toThrow(RangeError);
    expect(() => new IsccImageFingerprinter(fingerprintModule, { bitLength: 512 })).toThrow(RangeError);
  });
});

describe("ISCC codec helpers", () => {
  it("encodes base32 as RFC 4648 (test vectors, no padding)", () => {
    const cases: [string, string][] = [
      ["", ""],
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [text, b32] of cases) {
      const bytes = new TextEncoder().encode(text);
      expect(base32Encode(bytes)).toBe(b32);
      expect(base32Decode(b32.toLowerCase())).toEqual(bytes);
    }
    expect(() => base32Decode("MZ1")).toThrow(RangeError);
  });

  it("decodes and re-encodes every single-unit ISCC in iscc-core's conformance data", () => {
    let units = 0;
    for (const [section, cases] of Object.entries(isccData)) {
      if (section.startsWith("_") || section === "gen_iscc_code_v0") continue;
      for (const c of Object.values(cases)) {
        const code = c.outputs?.iscc;
        if (typeof code !== "string") continue;
        const unit = decodeIsccUnit(code);
        expect(encodeIsccUnit(unit)).toBe(code);
        units++;
      }
    }
    expect(units).toBeGreaterThan(10);
  });

  it("refuses composite ISCC-CODEs and malformed units", () => {
    const composite = Object.values(isccData.gen_iscc_code_v0 ?? {})
      .map((c) => c.outputs?.iscc)
      .find((v): v is string => typeof v === "string");
    expect(composite).toBeDefined();
    expect(() => decodeIsccUnit(composite!)).toThrow(RangeError);
    expect(() => decodeIsccUnit("ISCC:EEA")).toThrow(RangeError);
    expect(() => decodeIsccUnit("ISCC:EEAQAAAAAAAAAAAAAA")).toThrow(RangeError);
  });

  it("writes image codes with the CONTENT/IMAGE/V0 header", () => {
    expect(isccImageCode(new Uint8Array(8))).toBe("ISCC:EEAQAAAAAAAAAAAA");
    const u = decodeIsccUnit("iscc:eed4gqzqty6j5dthq2dwcpdzhqom6qzqty6j5dtfz2dwcpdzhqomxdi");
    expect(u).toMatchObject({ mainType: 2, subType: 1, version: 0, bitLength: 256 });
  });
});

// ---------------------------------------------------------------- PDQ

describe("PDQ", () => {
  it("has the upstream test images", () => {
    expect(pdqRows.length).toBeGreaterThanOrEqual(13);
  });

  it("hashes the upstream JPEGs within the upstream tolerance (Hamming <= 16)", () => {
    const report: string[] = [];
    for (const row of pdqRows) {
      const r = computed(pdq.compute(decoded.get(row.file)!));
      const distance = hammingDistance(r.bits, pdqBitsFromHex(row.hash));
      report.push(
        `${row.file.padEnd(48)} distance ${String(distance).padStart(2)}  quality ${r.quality}${row.quality === null ? "" : ` (expected ${row.quality})`}`,
      );
      expect(distance, row.file).toBeLessThanOrEqual(16);
      if (row.quality !== null) expect(r.quality, row.file).toBe(row.quality);
    }
    console.log(`PDQ vs ThreatExchange expected hashes:\n${report.join("\n")}`);
  });

  it.each(Object.keys(JPEG_REFERENCE))("equals the C++ reference on the decoded pixels of %s", (file) => {
    const r = computed(pdq.compute(decoded.get(file)!));
    expect([r.value, r.quality]).toEqual(JPEG_REFERENCE[file]!.pdq);
  });

  it.each(Object.keys(SYNTHETIC))("equals the C++ reference on synthetic %s", (name) => {
    const r = computed(pdq.compute(synthetic(name)));
    expect([r.value, r.quality]).toEqual(SYNTHETIC_REFERENCE[name]!.pdq);
  });

  it("feeds images as columns with the same result on photos (the path of images over 65536 px wide)", () => {
    const k = FingerprintKernel.of(fingerprintModule);
    const e = k.exports;
    for (const file of [
      "images/bridge-mods/aaa-orig.jpg",
      "images/reg-test-input/labelme-subset/q2821.jpg",
      "images/misc-images/wee.jpg",
    ]) {
      const image = decoded.get(file)!;
      const rows = computed(pdq.compute(image));
      const { width: w, height: h, data } = image;
      const staging = e.pdqBegin(h, w, w * h * 4, 1) >>> 0;
      expect(staging).toBeGreaterThan(0);
      const dst = new Uint32Array(e.memory.buffer, staging, w * h);
      const src = new Uint32Array(data.buffer, data.byteOffset, w * h);
      for (let c = 0, q = 0; c < w; c++) for (let r = 0; r < h; r++) dst[q++] = src[r * w + c]!;
      e.pdqPush(w * h * 4);
      const quality = e.pdqFinish();
      const at = k.address(e.PDQ_HASH);
      expect(hammingDistance(rows.bits, k.bytes().slice(at, at + 32)), file).toBeLessThanOrEqual(2);
      expect(quality).toBe(rows.quality);
    }
  });

  it("formats and parses hex as the reference (bit 16 i + j = DCT coefficient [i][j])", () => {
    const bits = pdqBitsFromHex("0007001f003f003f007f00ff00ff00ff01ff01ff01ff03ff03ff03ff03ff03ff");
    expect(pdqHex(bits)).toBe("0007001f003f003f007f00ff00ff00ff01ff01ff01ff03ff03ff03ff03ff03ff");
    // Word 0 (row 0) is the last 4 digits, 0x03ff: bits 0..9 set.
    expect([0, 1, 9, 10].map((k) => pdqBit(bits, k))).toEqual([1, 1, 1, 0]);
    // Word 15 (row 15) is the first 4 digits, 0x0007.
    expect([240, 242, 243].map((k) => pdqBit(bits, k))).toEqual([1, 1, 0]);
    expect(() => pdqBitsFromHex("xyz")).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------- properties

describe("determinism and robustness", () => {
  it("is deterministic: same pixels, same values (repeated, interleaved, other instance, unaligned copy)", () => {
    const image = decoded.get("images/bridge-mods/aaa-orig.jpg")!;
    const a = [computed(iscc.compute(image)), computed(pdq.compute(image))];
    computed(pdq.compute(synthetic("noise")));
    computed(iscc.compute(synthetic("bordered")));
    const b = [computed(iscc.compute(image)), computed(pdq.compute(image))];
    const other = compileWasm(readFileSync(WASM));
    const c = [computed(new IsccImageFingerprinter(other).compute(image)), computed(new PdqFingerprinter(other).compute(image))];
    const shifted = new Uint8Array(image.data.length + 1);
    shifted.set(image.data, 1);
    const unaligned = { width: image.width, height: image.height, data: shifted.subarray(1) };
    const d = [computed(iscc.compute(unaligned)), computed(pdq.compute(unaligned))];
    for (const x of [b, c, d]) {
      expect(x.map((r) => r.value)).toEqual(a.map((r) => r.value));
      expect(x[1]!.quality).toBe(a[1]!.quality);
    }
  });

  it("stays close under JPEG re-encoding and 50% downscaling", async () => {
    const report: string[] = [];
    for (const file of [
      "images/bridge-mods/aaa-orig.jpg",
      "images/reg-test-input/labelme-subset/q0291.jpg",
      "images/reg-test-input/labelme-subset/q1050.jpg",
      "images/reg-test-input/labelme-subset/q2821.jpg",
    ]) {
      const image = decoded.get(file)!;
      const p0 = computed(pdq.compute(image));
      const i0 = computed(iscc.compute(image));
      const variants: [string, RgbaImage][] = [
        ["jpeg q75", await reencode(image, 75)],
        ["jpeg q40", await reencode(image, 40)],
        ["50% resize", halve(image)],
      ];
      for (const [label, v] of variants) {
        const dp = hammingDistance(p0.bits, computed(pdq.compute(v)).bits);
        const di = hammingDistance(i0.bits, computed(iscc.compute(v)).bits);
        report.push(`${file.padEnd(48)} ${label.padEnd(10)} pdq ${String(dp).padStart(2)}/256  iscc ${di}/64`);
        expect(dp, `${file} ${label}`).toBeLessThanOrEqual(31);
        expect(di, `${file} ${label}`).toBeLessThanOrEqual(4);
      }
    }
    console.log(`Robustness (Hamming distances to the original):\n${report.join("\n")}`);
  });
});

describe("fuzz", () => {
  function check(image: RgbaImage, label: string): void {
    for (const f of [iscc, iscc256, pdq]) {
      let r1: FingerprintResult | undefined;
      expect(() => (r1 = f.compute(image)), `${f.algorithm} ${label}`).not.toThrow();
      const r = computed(r1!);
      expect(f.compute(image), `${f.algorithm} ${label} deterministic`).toEqual(r);
      if (f.algorithm === "pdq") {
        expect(r.value).toMatch(/^[0-9a-f]{64}$/);
        expect(r.quality).toBeGreaterThanOrEqual(0);
        expect(r.quality).toBeLessThanOrEqual(100);
      } else {
        expect(decodeIsccUnit(r.value).digest).toEqual(r.bits);
      }
    }
  }

  it("never throws on random images of random sizes (1x1 to 512 px, random bytes and alpha)", () => {
    const rand = prng(20240601);
    for (let i = 0; i < 250; i++) {
      const w = 1 + Math.floor(rand() * rand() * 512);
      const h = 1 + Math.floor(rand() * rand() * 512);
      const data = new Uint8Array(w * h * 4);
      const mode = i % 3;
      for (let j = 0; j < data.length; j++)
        data[j] = mode === 0 ? Math.floor(rand() * 256) : mode === 1 && (j & 3) === 3 ? 255 : (j * 7 + Math.floor(rand() * 4)) & 255;
      check({ width: w, height: h, data }, `${w}x${h} #${i}`);
    }
    check({ width: 1, height: 1, data: new Uint8Array([0, 0, 0, 0]) }, "1x1 transparent");
  });

  it("never throws on huge aspect ratios", () => {
    const rand = prng(7);
    for (const [w, h] of [
      [100000, 1],
      [1, 100000],
      [70000, 3],
      [3, 70000],
      [200000, 5],
      [5, 200000],
      [65537, 6],
      [65536, 7],
      [2, 1_000_000],
    ] as const) {
      const data = new Uint8Array(w * h * 4);
      for (let j = 0; j < data.length; j++) data[j] = Math.floor(rand() * 256);
      check({ width: w, height: h, data }, `${w}x${h}`);
    }
  });

  it("reports invalid images as failed, never throws, and recovers", () => {
    const bad: unknown[] = [
      null,
      {},
      { width: 0, height: 1, data: new Uint8Array(0) },
      { width: -2, height: 2, data: new Uint8Array(16) },
      { width: 1.5, height: 2, data: new Uint8Array(12) },
      { width: Number.NaN, height: 2, data: new Uint8Array(8) },
      { width: 2, height: 2, data: new Uint8Array(15) },
      { width: 2, height: 2, data: new Uint8Array(17) },
      { width: 2, height: 2, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] },
      { width: 1e9, height: 1e9, data: new Uint8Array(4) },
    ];
    for (const image of bad) {
      for (const f of [iscc, pdq]) {
        let r: FingerprintResult | undefined;
        expect(() => (r = f.compute(image as RgbaImage))).not.toThrow();
        expect(r!.status, JSON.stringify(image)?.slice(0, 60)).toBe("failed");
      }
    }
    const ok = synthetic("noise");
    expect(computed(pdq.compute(ok)).value).toBe(SYNTHETIC_REFERENCE.noise!.pdq[0]);
    expect(computed(iscc.compute(ok)).value).toBe(SYNTHETIC_REFERENCE.noise!.iscc[1]);
  });
});

describe("cost", () => {
  function photoLike(w: number, h: number): RgbaImage {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0, i = 0; y < h; y++) {
      for (let x = 0; x < w; x++, i += 4) {
        const v = 128 + 60 * Math.sin(x / 97) * Math.cos(y / 131) + ((x * 13 + y * 7) & 31);
        data[i] = v;
        data[i + 1] = (v + (x >> 5)) & 255;
        data[i + 2] = (v * 0.7 + (y >> 4)) & 255;
        data[i + 3] = 255;
      }
    }
    return { width: w, height: h, data };
  }

  it("fingerprints 1 MP and 12 MP within a few MB of kernel memory", () => {
    const report: string[] = [];
    for (const [w, h] of [
      [1000, 1000],
      [4000, 3000],
    ] as const) {
      const image = photoLike(w, h);
      for (const f of [iscc, pdq]) {
        computed(f.compute(image));
        const t0 = performance.now();
        const runs = 2;
        for (let i = 0; i < runs; i++) computed(f.compute(image));
        const ms = (performance.now() - t0) / runs;
        report.push(`${(w * h) / 1e6} MP ${f.algorithm.padEnd(10)} ${ms.toFixed(1)} ms`);
        expect(ms).toBeLessThan(20_000);
      }
    }
    const mem = FingerprintKernel.of(fingerprintModule).memoryBytes();
    report.push(`kernel memory ${(mem / 2 ** 20).toFixed(1)} MiB`);
    console.log(`Fingerprint cost:\n${report.join("\n")}`);
    expect(mem).toBeLessThan(16 * 2 ** 20);
  });
});
