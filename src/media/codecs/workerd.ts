import avifDecode from "@jsquash/avif/codec/dec/avif_dec.wasm";
import avifEncode from "@jsquash/avif/codec/enc/avif_enc.wasm";
import jpegDecode from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
// @ts-expect-error The package's .wasm.d.ts types the instance exports; wrangler hands over a compiled Module.
import png from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm";
import webpDecode from "@jsquash/webp/codec/dec/webp_dec.wasm";
import webpEncode from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import jpegStream from "../../../wasm/build/jpegdec.wasm";
import jpegEncode from "../../../wasm/build/jpegenc.wasm";
import { JsquashImageCodec } from "./image-codec";

/** The image codec of this isolate, with its modules imported as workerd requires. Import on first use only. */
export const imageCodec = new JsquashImageCodec({
  jpegDecode,
  jpegStream,
  jpegEncode,
  png,
  webpDecode,
  webpEncode,
  avifDecode,
  avifEncode,
});
