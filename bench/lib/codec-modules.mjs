// The wasm modules of the service's image codec (JsquashImageCodec), as test/support/node-codec.ts loads them for
// Node: the bench scripts that read images as the service does build their codec from these.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const pkg = (name) => dirname(require.resolve(`${name}/package.json`));

/** A compiled wasm module from a file. */
export const wasmModule = (path) => new WebAssembly.Module(readFileSync(path));

/** Our own wasm kernel `name` (wasm/build/<name>.wasm, built by `npm run build:wasm`). */
export const kernelModule = (name) => wasmModule(join(root, "wasm", "build", `${name}.wasm`));

/** The modules JsquashImageCodec takes. */
export function imageCodecModules() {
  return {
    jpegDecode: wasmModule(join(pkg("@jsquash/jpeg"), "codec/dec/mozjpeg_dec.wasm")),
    jpegStream: kernelModule("jpegdec"),
    jpegEncode: kernelModule("jpegenc"),
    png: wasmModule(join(pkg("@jsquash/png"), "codec/pkg/squoosh_png_bg.wasm")),
    webpDecode: wasmModule(join(pkg("@jsquash/webp"), "codec/dec/webp_dec.wasm")),
    webpEncode: wasmModule(join(pkg("@jsquash/webp"), "codec/enc/webp_enc_simd.wasm")),
    avifDecode: wasmModule(join(pkg("@jsquash/avif"), "codec/dec/avif_dec.wasm")),
    avifEncode: wasmModule(join(pkg("@jsquash/avif"), "codec/enc/avif_enc.wasm")),
  };
}
