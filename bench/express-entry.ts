// Bundled by bench/express.mjs (esbuild, platform node): the watermark step's pixel work (decode, embed, encode,
// read-back decode, detect) with the service's own codec and kernels, and the MozJPEG encode it replaced as the
// same-run baseline.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { estimateJpegQuality } from "../src/media/codecs/jpeg-segments";
import type { RgbaImage } from "../src/media/types";
import { WasmWatermarker } from "../src/media/watermark/kernel";
import { nodeImageCodec } from "../test/support/node-codec";

const ROOT = join(import.meta.dirname, "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;

export async function setup() {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
  const codec = nodeImageCodec();
  const watermarker = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));
  /** The encode the watermark step used before #19: MozJPEG at jSquash's defaults (progressive, optimised, trellis). */
  const mozjpeg = async (image: RgbaImage, source: Uint8Array) => {
    const quality = Math.max(85, Math.min(98, estimateJpegQuality(source) ?? 92));
    const frame = { data: new Uint8ClampedArray(image.data.buffer), width: image.width, height: image.height, colorSpace: "srgb" };
    return new Uint8Array(await encodeJpeg(frame as unknown as ImageData, { quality, quant_table: 0 }));
  };
  const ours = async (image: RgbaImage, source: Uint8Array) => {
    const out = await codec.encode(image, "image/jpeg", source);
    if (out.status !== "encoded") throw new Error(out.message);
    return out.bytes;
  };
  /** One watermark step's pixel work, timed per stage (ms); the mark must read back from the encoded bytes. */
  async function step(source: Uint8Array, encoder: "ours" | "mozjpeg", options: { psnr: boolean; probe?: () => void } = { psnr: true }) {
    const t0 = performance.now();
    let decoded = await codec.decode(source, "image/jpeg");
    if (decoded.status !== "decoded") throw new Error(decoded.message);
    options.probe?.();
    const width = decoded.image.width;
    const height = decoded.image.height;
    const t1 = performance.now();
    const payload = crypto.getRandomValues(new Uint8Array(8));
    let bytes: Uint8Array;
    let t2: number;
    if (encoder === "ours") {
      // as the watermark step does it: the marked rows stream into the encoder, never a whole marked image
      const stream = (await codec.rowEncoder("image/jpeg", width, height, source))!;
      const marked = watermarker.embedInto({ image: decoded.image, payload, strength: "balanced" }, stream);
      if (marked.status !== "embedded") throw new Error(marked.message);
      t2 = performance.now();
      bytes = stream.finish();
    } else {
      const marked = watermarker.embed({ image: decoded.image, payload, strength: "balanced" });
      if (marked.status !== "embedded") throw new Error(marked.message);
      t2 = performance.now();
      bytes = await mozjpeg(marked.image, source);
    }
    const t3 = performance.now();
    options.probe?.();
    // as in the step, the source pixels are not held through the read-back (the memory runs measure that)
    const sourcePixels = options.psnr ? decoded.image.data : null;
    decoded = null as unknown as typeof decoded;
    const back = await codec.decode(bytes, "image/jpeg");
    if (back.status !== "decoded") throw new Error(back.message);
    options.probe?.();
    const found = watermarker.detect(back.image);
    const t4 = performance.now();
    const ok = found.status === "detected" && found.payload.every((b, i) => b === payload[i]);
    // PSNR of the published pixels against the source's (the mark plus the re-encode), both encoders alike
    let psnr = Number.NaN;
    if (sourcePixels) {
      let se = 0;
      for (let i = 0; i < back.image.data.length; i += 4)
        for (let c = 0; c < 3; c++) se += (back.image.data[i + c]! - sourcePixels[i + c]!) ** 2;
      psnr = 10 * Math.log10((255 * 255) / (se / (width * height * 3)));
    }
    return { decode: t1 - t0, embed: t2 - t1, encode: t3 - t2, readBack: t4 - t3, bytes: bytes.length, readBackOk: ok, psnr };
  }
  return { step, watermarker };
}
