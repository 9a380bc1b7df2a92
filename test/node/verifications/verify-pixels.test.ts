/**
 * #19: verify-pixels.ts decodes a JPEG reduced in the DCT domain, as far as the watermark detector keeps its
 * canonical grid, and every signal reads that image. Checked: the reduction rule; the reduced image is exactly the
 * codec's decodeScaled at that scale; images too small to halve, JPEGs our decoder does not take and other formats
 * get the codec's full decode as before; EXIF orientation is ignored as before; a mark reads back through the
 * reduced decode (also after JPEG q75 and a crop) and an unmarked image gives none; a real photograph's ISCC code
 * equals the full decode's (what publication indexes) and its PDQ hash stays within the lookup's distance.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { hammingDistance, IsccImageFingerprinter, PdqFingerprinter } from "../../../src/media/fingerprint/index.ts";
import type { ImageServices, RgbaImage } from "../../../src/media/types.ts";
import { WasmWatermarker } from "../../../src/media/watermark/kernel.ts";
import { verifyDecodeScale, verifyPixels } from "../../../src/verifications/verify-pixels.ts";
import { nodeImageCodec } from "../../support/node-codec.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const fingerprintModule = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(fingerprintModule);
const iscc = new IsccImageFingerprinter(fingerprintModule);
const watermarker = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));
const codec = nodeImageCodec();
const services: ImageServices = {
  codec,
  watermarker,
  fingerprinters: new Map<string, PdqFingerprinter | IsccImageFingerprinter>([
    ["pdq", pdq],
    ["iscc-image", iscc],
  ]),
};
const fixture = (path: string) => new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", path)));
const PHOTO = fixture("media/photo-bridge.jpg"); // 1600 x 1004

beforeAll(async () => {
  const pkg = join(ROOT, "node_modules", "@jsquash", "jpeg");
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
});

async function jpeg(image: RgbaImage, options: Record<string, unknown>): Promise<Uint8Array> {
  const frame = {
    data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
  };
  return new Uint8Array(await encodeJpeg(frame as unknown as Parameters<typeof encodeJpeg>[0], options));
}

async function decoded(bytes: Uint8Array, mediaType = "image/jpeg") {
  const got = await verifyPixels(services, bytes, mediaType);
  if (got.status !== "decoded") throw new Error(got.message);
  return got.pixels;
}

async function full(bytes: Uint8Array, mediaType = "image/jpeg"): Promise<RgbaImage> {
  const d = await codec.decode(bytes, mediaType);
  if (d.status !== "decoded") throw new Error(d.message);
  return d.image;
}

const same = (a: RgbaImage, b: RgbaImage) =>
  a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));

/** A crop of `image` (whole rows and columns). */
function crop(image: RgbaImage, x0: number, y0: number, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    data.set(image.data.subarray(((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x0 + width) * 4), y * width * 4);
  return { width, height, data };
}

/** `bytes` with an EXIF APP1 segment (orientation 6: rotate 90 degrees clockwise to display) after the SOI. */
function withOrientation(bytes: Uint8Array): Uint8Array {
  // "Exif\0\0", little-endian TIFF header, one IFD entry: tag 0x0112 (orientation), SHORT, count 1, value 6
  const tiff = [0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
  const body = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const segment = [0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const out = new Uint8Array(bytes.length + segment.length);
  out.set(bytes.subarray(0, 2));
  out.set(segment, 2);
  out.set(bytes.subarray(2), 2 + segment.length);
  return out;
}

describe("verify pixels: the reduced JPEG decode (#19)", () => {
  it("reduces as far as the detector's canonical area (196,608 pixels) and minimum edge (128) allow", () => {
    expect(verifyDecodeScale(64, 48)).toBe(1);
    expect(verifyDecodeScale(640, 480)).toBe(1);
    expect(verifyDecodeScale(1024, 640)).toBe(1); // 512 x 320 = 163,840: below the grid
    expect(verifyDecodeScale(1280, 800)).toBe(2); // 640 x 400
    expect(verifyDecodeScale(2112, 1326)).toBe(2); // 1/4 would be 528 x 332 = 175,296
    expect(verifyDecodeScale(4000, 3000)).toBe(4); // 1/8 would be 500 x 375 = 187,500
    expect(verifyDecodeScale(8000, 6000)).toBe(8);
    expect(verifyDecodeScale(6000, 200)).toBe(1); // a shorter side of 200 would go under 128
    // exact boundaries: the canonical area reached exactly, the shorter side exactly 128 after the reduction
    expect(verifyDecodeScale(1024, 768)).toBe(2); // 512 x 384, the canonical area itself
    expect(verifyDecodeScale(1024, 767)).toBe(1);
    expect(verifyDecodeScale(2048, 1536)).toBe(4);
    expect(verifyDecodeScale(2048, 1535)).toBe(2);
    expect(verifyDecodeScale(3072, 256)).toBe(2); // 1536 x 128
    expect(verifyDecodeScale(3072, 255)).toBe(1);
    expect(verifyDecodeScale(3084, 257)).toBe(2);
    expect(verifyDecodeScale(1, 1)).toBe(1);
    expect(verifyDecodeScale(65_535, 183)).toBe(1); // extreme aspect: the shorter side decides
    for (let w = 130; w <= 9000; w += 397)
      for (let h = 130; h <= 9000; h += 541) {
        const s = verifyDecodeScale(w, h);
        const rw = Math.ceil(w / s);
        const rh = Math.ceil(h / s);
        if (s > 1) {
          expect(rw * rh, `${w}x${h}`).toBeGreaterThanOrEqual(196_608);
          expect(Math.min(rw, rh), `${w}x${h}`).toBeGreaterThanOrEqual(128);
        }
        const next = s * 2;
        if (s < 8) {
          const fits = Math.ceil(w / next) * Math.ceil(h / next) >= 196_608 && Math.min(Math.ceil(w / next), Math.ceil(h / next)) >= 128;
          expect(fits, `${w}x${h}: 1/${next} would fit too`).toBe(false);
        }
      }
  });

  it("reads a large JPEG once, reduced in the DCT domain: exactly the codec's decodeScaled, and PDQ reads it too", async () => {
    const pixels = await decoded(PHOTO);
    const scaled = await codec.decodeScaled(PHOTO, "image/jpeg", 2);
    if (scaled.status !== "decoded") throw new Error("decodeScaled");
    expect([pixels.full.width, pixels.full.height]).toEqual([800, 502]);
    expect(same(pixels.full, scaled.image)).toBe(true);
    expect(pixels.plane).toMatchObject({ factor: 2, opaque: true, sourceWidth: 1600, sourceHeight: 1004 });
    expect(pixels.plane.image).toBe(pixels.full);
  });

  it("a JPEG too small to halve, a JPEG only MozJPEG would take and other formats: the codec's full decode, as before", async () => {
    for (const name of ["baseline-420-restart-3-mcus.jpg", "progressive-444.jpg", "gray.jpg", "rgb-adobe.jpg", "tiny-1x1.jpg"]) {
      const bytes = fixture(`jpegdec/${name}`);
      expect(same((await decoded(bytes)).full, await full(bytes)), name).toBe(true);
    }
    // arithmetic coding: neither our decoder nor MozJPEG's build takes it; the codec's message, as before
    const arithmetic = fixture("jpegdec/arithmetic-1200x753.jpg");
    expect(verifyDecodeScale(1200, 753)).toBe(2);
    const got = await verifyPixels(services, arithmetic, "image/jpeg");
    const before = await codec.decode(arithmetic, "image/jpeg");
    expect(got.status).toBe("failed");
    expect(before.status).not.toBe("decoded");
    if (got.status === "failed" && before.status !== "decoded") expect(got.message).toBe(before.message);
    // a truncated file our decoder refuses: MozJPEG's full decode, as before
    const cut = PHOTO.slice(0, Math.floor(PHOTO.length * 0.6));
    const truncated = await decoded(cut);
    expect(same(truncated.full, await full(cut))).toBe(true);
    expect([truncated.full.width, truncated.full.height]).toEqual([1600, 1004]);
    // PNG: unchanged path
    const png = await codec.encode(crop(await full(PHOTO), 0, 0, 1280, 800), "image/png", new Uint8Array());
    if (png.status !== "encoded") throw new Error("png");
    const pngPixels = await decoded(png.bytes, "image/png");
    expect([pngPixels.full.width, pngPixels.full.height]).toEqual([1280, 800]);
  });

  it("a JPEG our decoder refuses midway is decoded by it once, then by MozJPEG, as before (not a second time by ours)", async () => {
    // Hostile input reaches this path: a second pass of our decoder over a file it has already refused doubled its
    // CPU time and kept two of its memories (up to 72 MB of coefficients each for a 12 MP progressive file) alive.
    // Counted: the files our decoder entropy-decodes (its kernel's `start`), on kernels of a codec of its own (idle
    // kernels are reused per module, so every kernel of this one is made, and counted, while the count is on).
    const ownCodec = nodeImageCodec();
    const ownServices: ImageServices = { ...services, codec: ownCodec };
    const jpegdecStarts = { n: 0 };
    const Original = WebAssembly.Instance;
    const counting = new Proxy(Original, {
      construct(target, args: [WebAssembly.Module, WebAssembly.Imports?]) {
        const instance = Reflect.construct(target, args) as WebAssembly.Instance;
        if (!WebAssembly.Module.exports(args[0]).some((e) => e.name === "rewind")) return instance;
        const exports = Object.fromEntries(
          Object.entries(instance.exports).map(([name, value]) => [
            name,
            name === "start" && typeof value === "function"
              ? (...a: unknown[]) => {
                  jpegdecStarts.n++;
                  return (value as (...b: unknown[]) => unknown)(...a);
                }
              : value,
          ]),
        );
        return { exports };
      },
    });
    const progressive = await jpeg(await full(PHOTO), { quality: 90, progressive: true });
    const cases: [string, Uint8Array][] = [
      ["baseline, truncated", PHOTO.slice(0, Math.floor(PHOTO.length * 0.6))],
      ["progressive, truncated in its last scans", progressive.slice(0, Math.floor(progressive.length * 0.97))],
    ];
    (WebAssembly as { Instance: unknown }).Instance = counting;
    try {
      for (const [label, bytes] of cases) {
        const before = await codec.decode(bytes, "image/jpeg"); // what verification read before #19 (and warms MozJPEG)
        if (before.status !== "decoded") throw new Error(label);
        jpegdecStarts.n = 0;
        const got = await verifyPixels(ownServices, bytes, "image/jpeg");
        expect(jpegdecStarts.n, label).toBe(1);
        expect(got.status, label).toBe("decoded");
        if (got.status === "decoded") expect(same(got.pixels.full, before.image), label).toBe(true);
        // the refusal is remembered for that one decode only: a later decode of the same bytes tries ours again
        jpegdecStarts.n = 0;
        await ownCodec.decode(bytes, "image/jpeg");
        expect(jpegdecStarts.n, label).toBe(1);
      }
    } finally {
      (WebAssembly as { Instance: unknown }).Instance = Original;
    }
  });

  it("ignores EXIF orientation, as the full decode does (the stored raster, not rotated)", async () => {
    const rotated = withOrientation(PHOTO);
    const pixels = await decoded(rotated);
    expect([pixels.full.width, pixels.full.height]).toEqual([800, 502]);
    expect(same(pixels.full, (await decoded(PHOTO)).full)).toBe(true);
    const whole = await full(rotated);
    expect([whole.width, whole.height]).toEqual([1600, 1004]);
  });

  it("grayscale, 4:4:4 baseline and 4:2:0 progressive JPEGs large enough to halve read reduced: the same ISCC, PDQ close", async () => {
    const image = await full(PHOTO);
    for (const [label, options] of [
      ["grayscale", { quality: 85, color_space: 1 }],
      ["4:4:4 baseline", { quality: 90, chroma_subsample: 1, progressive: false, baseline: true }],
      ["4:2:0 progressive", { quality: 75, progressive: true }],
    ] as const) {
      const bytes = await jpeg(image, options);
      const pixels = await decoded(bytes);
      expect([pixels.full.width, pixels.full.height], label).toEqual([800, 502]);
      const f = await full(bytes);
      // the ISCC code read from the reduced image is the one publication computes from the full decode
      const a = iscc.compute(pixels.full);
      const b = iscc.compute(f);
      expect(a.status === "computed" && b.status === "computed" && a.value === b.value, label).toBe(true);
      const pa = pdq.compute(pixels.plane.image);
      const pb = pdq.compute(f);
      if (pa.status !== "computed" || pb.status !== "computed") throw new Error("pdq");
      expect(hammingDistance(pa.bits, pb.bits), label).toBeLessThanOrEqual(8);
    }
  });

  it("a mark reads back through the reduced decode (as is, after JPEG q75, after a crop); an unmarked image gives none", async () => {
    const photo = crop(await full(PHOTO), 0, 0, 1280, 800);
    const payload = new Uint8Array([0x19, 0x5e, 0xed, 0x01, 0x02, 0x03, 0x04, 0x05]);
    const marked = watermarker.embed({ image: photo, payload, strength: "subtle" });
    if (marked.status !== "embedded") throw new Error(marked.status);
    const attacked: [string, Uint8Array][] = [
      ["q90", await jpeg(marked.image, { quality: 90 })],
      ["q75", await jpeg(marked.image, { quality: 75 })],
      ["crop 5% + q90", await jpeg(crop(marked.image, 64, 40, 1216, 760), { quality: 90 })],
    ];
    for (const [label, bytes] of attacked) {
      const pixels = await decoded(bytes);
      expect(pixels.plane.factor, label).toBe(2);
      const found = watermarker.detect(pixels.full);
      expect(found.status, label).toBe("detected");
      if (found.status === "detected") expect(Buffer.from(found.payload).equals(Buffer.from(payload)), label).toBe(true);
    }
    const clean = await decoded(await jpeg(photo, { quality: 90 }));
    expect(watermarker.detect(clean.full).status).toBe("not_detected");
  });
});
