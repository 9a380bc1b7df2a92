import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { JsquashImageCodec } from "../../src/media/codecs/image-codec.ts";

/** The same codec for Node (tests, benchmarks): the modules are compiled from the installed packages' files. */
export function nodeImageCodec(): JsquashImageCodec {
  const require = createRequire(import.meta.url);
  const pkg = (name: string) => dirname(require.resolve(`${name}/package.json`));
  // The workerd types (shared by both tsconfigs) declare Module abstract; Node's constructor compiles bytes.
  const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
  const mod = (name: string, file: string) => new Module(readFileSync(join(pkg(name), file)));
  return new JsquashImageCodec({
    jpegDecode: mod("@jsquash/jpeg", "codec/dec/mozjpeg_dec.wasm"),
    jpegStream: new Module(readFileSync(join(import.meta.dirname, "..", "..", "wasm", "build", "jpegdec.wasm"))),
    jpegEncode: new Module(readFileSync(join(import.meta.dirname, "..", "..", "wasm", "build", "jpegenc.wasm"))),
    png: mod("@jsquash/png", "codec/pkg/squoosh_png_bg.wasm"),
    webpDecode: mod("@jsquash/webp", "codec/dec/webp_dec.wasm"),
    webpEncode: mod("@jsquash/webp", "codec/enc/webp_enc_simd.wasm"),
    avifDecode: mod("@jsquash/avif", "codec/dec/avif_dec.wasm"),
    avifEncode: mod("@jsquash/avif", "codec/enc/avif_enc.wasm"),
  });
}
