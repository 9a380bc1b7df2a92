import jpegDecWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import jpegEncWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
// @ts-expect-error The package's .wasm.d.ts types the instance exports; wrangler hands over a compiled Module.
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode";
import { DECODE_MAXIMUM_PIXELS } from "../../catalog/limits";
import type { Previewer, PreviewResult } from "../types";
import { downscaleToRgb, previewSize } from "./downscale";

/**
 * JPEG previews with the jSquash codecs (MozJPEG and the Squoosh PNG decoder, wasm imported as modules, as
 * workerd requires). workerd only: Node code never imports this file (see media/index.ts).
 */
export class JsquashPreviewer implements Previewer {
  readonly mediaTypes = ["image/jpeg", "image/png"] as const;
  /** 12 MP decodes to 48 MB of RGBA; with the codec's own copy that is the most a 128 MB isolate can afford. */
  readonly maxSourcePixels = DECODE_MAXIMUM_PIXELS;
  #ready: Promise<void> | null = null;

  private init(): Promise<void> {
    this.#ready ??= Promise.all([initJpegDecode(jpegDecWasm), initJpegEncode(jpegEncWasm), initPngDecode(pngWasm)]).then(() => undefined);
    return this.#ready;
  }

  async render(input: { bytes: Uint8Array; mediaType: string; maxEdge: number }): Promise<PreviewResult> {
    if (!(this.mediaTypes as readonly string[]).includes(input.mediaType))
      return { status: "unsupported", message: `No preview for ${input.mediaType}.` };
    try {
      await this.init();
      const buffer = input.bytes.slice().buffer as ArrayBuffer;
      const image = (input.mediaType === "image/png" ? await decodePng(buffer) : await decodeJpeg(buffer)) as {
        data: Uint8ClampedArray;
        width: number;
        height: number;
      };
      if (image.width * image.height > this.maxSourcePixels)
        return { status: "unsupported", message: "The image is too large to preview." };
      const size = previewSize(image.width, image.height, input.maxEdge);
      const rgba = downscaleToRgb(image.data, image.width, image.height, size.width, size.height);
      // workerd has no ImageData class; the encoder only reads these fields.
      const frame = { data: new Uint8ClampedArray(rgba.buffer as ArrayBuffer), width: size.width, height: size.height, colorSpace: "srgb" };
      const jpeg = await encodeJpeg(frame as unknown as Parameters<typeof encodeJpeg>[0], { quality: 80 });
      return { status: "rendered", jpeg: new Uint8Array(jpeg), width: size.width, height: size.height };
    } catch (error) {
      return { status: "failed", message: String((error as Error)?.message ?? error) };
    }
  }
}
