// Bundled by bench/express.mjs (esbuild, platform node): the watermark step's pixel work (decode, embed, encode,
// read-back decode, detect) with the service's own codec and kernels, beside the pipelines it replaced, all in the
// same run:
//   mozjpeg   before #19: MozJPEG decode, embed, MozJPEG encode (progressive, trellis)
//   ours      before the streaming decoder: MozJPEG decode (whole image), marked rows streamed into our encoder
//   streamed  now: our JPEG decoder read row by row (reduced for the luma grid, then full size), marked rows
//             streamed into our encoder; the read-back decoded by our decoder
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initEncode } from "@jsquash/jpeg/encode";
import { JpegStreamDecoder } from "../src/media/codecs/jpeg-decoder";
import { estimateJpegQuality } from "../src/media/codecs/jpeg-segments";
import type { DecodeScale, RgbaImage } from "../src/media/types";
import { WasmWatermarker } from "../src/media/watermark/kernel";
import { nodeImageCodec } from "../test/support/node-codec";

const ROOT = join(import.meta.dirname, "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;

export type Pipeline = "mozjpeg" | "ours" | "streamed";

export async function setup() {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initEncode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/enc/mozjpeg_enc.wasm"))));
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
  const codec = nodeImageCodec();
  const watermarker = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));
  const ours = new JpegStreamDecoder(new Module(readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"))));
  /** MozJPEG's decode through jSquash, as the codec did before our decoder. */
  const mozDecode = async (bytes: Uint8Array): Promise<RgbaImage> => {
    const d = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
    return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer, d.data.byteOffset, d.data.length) };
  };
  /** The encode the watermark step used before #19: MozJPEG at jSquash's defaults (progressive, optimised, trellis). */
  const mozjpeg = async (image: RgbaImage, source: Uint8Array) => {
    const quality = Math.max(85, Math.min(98, estimateJpegQuality(source) ?? 92));
    const frame = { data: new Uint8ClampedArray(image.data.buffer), width: image.width, height: image.height, colorSpace: "srgb" };
    return new Uint8Array(await encodeJpeg(frame as unknown as ImageData, { quality, quant_table: 0 }));
  };

  async function streamedEmbed(source: Uint8Array, payload: Uint8Array) {
    const src = await codec.rowSource(source, "image/jpeg");
    if (src.status !== "ready") throw new Error(src.message);
    const { width, height } = src.source;
    const stream = (await codec.rowEncoder("image/jpeg", width, height, source))!;
    const t1 = performance.now();
    const marked = watermarker.embedFrom({ source: src.source, payload, strength: "balanced" }, stream);
    if (marked.status !== "embedded") throw new Error(marked.message);
    const t2 = performance.now();
    return { width, height, t1, t2, bytes: stream.finish(), embedPsnr: marked.psnr_db };
  }

  /** One watermark step's pixel work, timed per stage (ms); the mark must read back from the encoded bytes. */
  async function step(source: Uint8Array, pipeline: Pipeline, options: { psnr: boolean; probe?: () => void } = { psnr: true }) {
    const t0 = performance.now();
    const payload = crypto.getRandomValues(new Uint8Array(8));
    let bytes: Uint8Array;
    let t1: number;
    let t2: number;
    let width: number;
    let height: number;
    let embedPsnr: number;
    if (pipeline === "streamed") {
      // as the watermark step does it: no whole image, source or marked; the source (and its decoder's memory) is
      // out of scope once the embed returns
      const done = await streamedEmbed(source, payload);
      ({ width, height, t1, t2, bytes, embedPsnr } = done);
      options.probe?.();
    } else {
      let decoded: RgbaImage | null = await mozDecode(source);
      ({ width, height } = decoded);
      options.probe?.();
      t1 = performance.now();
      if (pipeline === "ours") {
        const stream = (await codec.rowEncoder("image/jpeg", width, height, source))!;
        const marked = watermarker.embedInto({ image: decoded, payload, strength: "balanced" }, stream);
        if (marked.status !== "embedded") throw new Error(marked.message);
        embedPsnr = marked.psnr_db;
        t2 = performance.now();
        bytes = stream.finish();
      } else {
        const marked = watermarker.embed({ image: decoded, payload, strength: "balanced" });
        if (marked.status !== "embedded") throw new Error(marked.message);
        embedPsnr = marked.psnr_db;
        t2 = performance.now();
        bytes = await mozjpeg(marked.image, source);
      }
      decoded = null; // as in the step, the source pixels are not held through the read-back
    }
    const t3 = performance.now();
    options.probe?.();
    // the read-back, as the step does it: the whole image (the fingerprint step uses it), then detect
    let back: RgbaImage;
    if (pipeline === "streamed") {
      const d = await codec.decode(bytes, "image/jpeg");
      if (d.status !== "decoded") throw new Error(d.message);
      back = d.image;
    } else back = await mozDecode(bytes);
    options.probe?.();
    const found = watermarker.detect(back);
    const t4 = performance.now();
    const ok = found.status === "detected" && found.payload.every((b, i) => b === payload[i]);
    // PSNR of the published pixels against the source's (the mark plus the re-encode), every pipeline alike
    let psnr = Number.NaN;
    if (options.psnr) {
      const sourcePixels = (await mozDecode(source)).data;
      let se = 0;
      for (let i = 0; i < back.data.length; i += 4) for (let c = 0; c < 3; c++) se += (back.data[i + c]! - sourcePixels[i + c]!) ** 2;
      psnr = 10 * Math.log10((255 * 255) / (se / (width * height * 3)));
    }
    return { decode: t1 - t0, embed: t2 - t1, encode: t3 - t2, readBack: t4 - t3, bytes: bytes.length, readBackOk: ok, psnr, embedPsnr };
  }

  /** Decode-only CPU time (ms, this thread): MozJPEG via jSquash, or ours at a scale (rows to a no-op sink). */
  async function decodeOnly(bytes: Uint8Array, which: "mozjpeg" | DecodeScale): Promise<number> {
    const c0 = process.cpuUsage();
    if (which === "mozjpeg") await mozDecode(bytes);
    else {
      const r = ours.stream(bytes, which, 50_000_000, () => ({ restart() {}, rows() {} }));
      if (r.status !== "decoded") throw new Error(r.message);
    }
    const used = process.cpuUsage(c0);
    return (used.user + used.system) / 1000;
  }
  return { step, decodeOnly, watermarker };
}
