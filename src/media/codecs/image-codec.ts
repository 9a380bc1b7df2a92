import decodeAvif, { init as initAvifDecode } from "@jsquash/avif/decode";
import encodeAvif, { init as initAvifEncode } from "@jsquash/avif/encode";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode";
import encodePng from "@jsquash/png/encode";
import decodeWebp, { init as initWebpDecode } from "@jsquash/webp/decode";
import encodeWebp, { init as initWebpEncode } from "@jsquash/webp/encode";
import * as UTIFModule from "utif2";
import { DECODE_MAXIMUM_PIXELS } from "../../catalog/limits";
import type {
  DecodeScale,
  ImageCodec,
  ImageDecodeResult,
  ImageEncodeResult,
  RgbaImage,
  RowEncoder,
  RowSourceResult,
  ScaledDecodeResult,
} from "../types";
import { BaselineJpegEncoder } from "./baseline-jpeg";
import { JpegStreamDecoder } from "./jpeg-decoder";
import { estimateJpegQuality, metadataSegments, withSegments } from "./jpeg-segments";
import { tiffBounds } from "./tiff-bounds";
import { decodeTiffLzw } from "./tiff-lzw";

/**
 * The compiled codec modules. workerd cannot compile wasm from bytes, so they are imported as modules there
 * (codecs/workerd.ts) and compiled from files in Node (tests, benchmarks); this class never loads them itself.
 */
export interface CodecModules {
  /** MozJPEG's decoder: the fallback for JPEGs our decoder does not implement (arithmetic, 12-bit, CMYK...). */
  jpegDecode: WebAssembly.Module;
  /** Our streaming JPEG decoder (wasm/build/jpegdec.wasm): rows out, DCT-domain reduction; see JpegStreamDecoder. */
  jpegStream: WebAssembly.Module;
  /** Our baseline JPEG encoder (wasm/build/jpegenc.wasm), not MozJPEG's: see BaselineJpegEncoder. */
  jpegEncode: WebAssembly.Module;
  png: WebAssembly.Module;
  webpDecode: WebAssembly.Module;
  /** The SIMD build: every runtime we deploy to (workerd, Node 22) has wasm SIMD, and the package picks it. */
  webpEncode: WebAssembly.Module;
  avifDecode: WebAssembly.Module;
  avifEncode: WebAssembly.Module;
}

type Init = (module: unknown) => Promise<unknown>;
const asInit = (f: unknown) => f as Init;

/** jSquash's encoders read only these fields; workerd has no ImageData class. */
function frame(image: RgbaImage) {
  return {
    data: new Uint8ClampedArray(image.data.buffer as ArrayBuffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
    colorSpace: "srgb",
  } as unknown as Parameters<typeof encodeWebp>[0];
}

function isLosslessWebp(bytes: Uint8Array): boolean {
  // RIFF container: chunks from offset 12; a lossless image is a VP8L chunk (possibly after VP8X/ICCP/ANIM...).
  let i = 12;
  while (i + 8 <= bytes.length) {
    const fourcc = String.fromCharCode(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!);
    if (fourcc === "VP8L") return true;
    if (fourcc === "VP8 ") return false;
    const size = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    if (size < 0) return false;
    i += 8 + size + (size & 1);
  }
  return false;
}

/**
 * JPEG (our streaming decoder, MozJPEG's for what it does not implement; our baseline encoder), PNG, WebP, AVIF
 * (libavif/aom) via jSquash and TIFF via UTIF, behind `ImageCodec`.
 * Re-encodes keep what a customer would expect: JPEG at the source's estimated quality (at least 85, so the
 * re-encode itself is not the visible loss) with its EXIF/ICC/XMP segments; PNG and TIFF lossless; WebP
 * lossless when the source was, else quality 90; AVIF quality 92.
 */
export class JsquashImageCodec implements ImageCodec {
  readonly mediaTypes = ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/avif"] as const;
  /** 12 MP is 48 MB of RGBA; with the codec's own copy that is what a 128 MB isolate can afford. */
  readonly maxPixels = DECODE_MAXIMUM_PIXELS;
  #ready: Promise<unknown> | null = null;
  #jpegEncoder: BaselineJpegEncoder | null = null;
  /**
   * JPEGs our decoder refused (corrupt or unsupported data) while a RowSource of `rowSource` read them, until
   * `decode` is next asked for the same bytes: it goes straight to MozJPEG. The refusal does not depend on the scale
   * read, so decoding again with ours would give the same answer at the cost of a second decode (hostile input,
   * e.g. a 12 MP progressive file cut in its last scan, would get it twice, with two of our memories of up to 72 MB
   * alive at once in a 128 MB isolate).
   */
  readonly #refused = new WeakSet<Uint8Array>();

  constructor(private readonly modules: CodecModules) {}

  /**
   * Our JPEG decoder for one decode or source. The wasm instance under it is not this object's: each call takes the
   * isolate's idle kernel of the module, or a new one, and gives it back at its end (jpeg-decoder.ts takeKernel).
   * Only a kernel whose memory stayed within 24 MB is kept idle: a wasm memory never shrinks, so one that grew for
   * a large file (a progressive 12 MP file needs up to 72 MB of coefficients) is left to the garbage collector.
   */
  get #ours(): JpegStreamDecoder {
    return new JpegStreamDecoder(this.modules.jpegStream);
  }

  /**
   * JPEG only: the file as a RowSource of our decoder (read it full size or reduced, as often as needed; a
   * progressive file's scans are decoded once for consecutive reads). `unsupported` for other media types and
   * for coding processes our decoder does not implement: use `decode`.
   */
  async rowSource(bytes: Uint8Array, mediaType: string): Promise<RowSourceResult> {
    if (mediaType !== "image/jpeg") return { status: "unsupported", message: `${mediaType} is not streamed here.` };
    return this.#ours.source(bytes, this.maxPixels, () => this.#refused.add(bytes));
  }

  /** JPEG: reduced in the DCT domain by our decoder; other types (and JPEGs it does not implement): `decode` at 1. */
  async decodeScaled(bytes: Uint8Array, mediaType: string, scale: DecodeScale): Promise<ScaledDecodeResult> {
    if (mediaType === "image/jpeg" && scale !== 1) {
      const ours = this.#ours.decode(bytes, scale, this.maxPixels);
      if (ours.status === "decoded") return { status: "decoded", image: ours.image, scale };
      if (ours.status === "too_large") return ours;
    }
    const full = await this.decode(bytes, mediaType);
    return full.status === "decoded" ? { status: "decoded", image: full.image, scale: 1 } : full;
  }

  private init(): Promise<unknown> {
    const m = this.modules;
    this.#ready ??= Promise.all([
      asInit(initJpegDecode)(m.jpegDecode),
      asInit(initPngDecode)(m.png),
      asInit(initWebpDecode)(m.webpDecode),
      asInit(initWebpEncode)(m.webpEncode),
      asInit(initAvifDecode)(m.avifDecode),
      asInit(initAvifEncode)(m.avifEncode),
    ]);
    return this.#ready;
  }

  async decode(bytes: Uint8Array, mediaType: string): Promise<ImageDecodeResult> {
    if (!(this.mediaTypes as readonly string[]).includes(mediaType))
      return { status: "unsupported", message: `${mediaType} is not decoded here.` };
    if (mediaType === "image/jpeg" && !this.#refused.delete(bytes)) {
      // Ours first: one RGBA copy (MozJPEG holds the image in its wasm memory, which never shrinks, plus a copy).
      // What it does not implement, or refuses as corrupt, goes to MozJPEG, which tolerates more damage.
      const ours = this.#ours.decode(bytes, 1, this.maxPixels);
      if (ours.status === "decoded" || ours.status === "too_large") return ours;
    }
    try {
      await this.init();
      const buffer = bytes.slice().buffer as ArrayBuffer;
      let decoded: { data: Uint8ClampedArray | Uint8Array; width: number; height: number } | null;
      switch (mediaType) {
        case "image/jpeg":
          decoded = await decodeJpeg(buffer);
          break;
        case "image/png":
          decoded = await decodePng(buffer);
          break;
        case "image/webp":
          decoded = await decodeWebp(buffer);
          break;
        case "image/avif":
          decoded = await decodeAvif(buffer);
          break;
        default:
          decoded = decodeTiff(buffer, this.maxPixels);
      }
      if (!decoded) return { status: "failed", message: "The image could not be decoded." };
      if (decoded.width * decoded.height > this.maxPixels)
        return { status: "too_large", message: `The image has more than ${this.maxPixels} pixels.` };
      const data =
        decoded.data instanceof Uint8Array
          ? decoded.data
          : new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length);
      return { status: "decoded", image: { width: decoded.width, height: decoded.height, data } };
    } catch (error) {
      if (error instanceof TooLarge) return { status: "too_large", message: error.message };
      return { status: "failed", message: `The image could not be decoded: ${String((error as Error)?.message ?? error)}` };
    }
  }

  /** JPEG only: our baseline encoder fed row by row, with the settings and metadata `encode` uses. */
  async rowEncoder(mediaType: string, width: number, height: number, source: Uint8Array): Promise<RowEncoder | null> {
    if (mediaType !== "image/jpeg") return null;
    // The source's quality (at least 85, so the re-encode itself is not the visible loss); full-resolution chroma
    // from quality 90 up, as MozJPEG's auto-subsampling chose before.
    const quality = Math.max(85, Math.min(98, estimateJpegQuality(source) ?? 92));
    this.#jpegEncoder ??= new BaselineJpegEncoder(this.modules.jpegEncode);
    const stream = this.#jpegEncoder.stream(width, height, quality, quality >= 90 ? "4:4:4" : "4:2:0");
    return { restart: stream.restart, rows: stream.rows, finish: () => withSegments(stream.finish(), metadataSegments(source)) };
  }

  async encode(image: RgbaImage, mediaType: string, source: Uint8Array): Promise<ImageEncodeResult> {
    try {
      await this.init();
      let out: ArrayBuffer;
      switch (mediaType) {
        case "image/jpeg": {
          const stream = (await this.rowEncoder(mediaType, image.width, image.height, source))!;
          stream.rows(image.data, image.height);
          return { status: "encoded", bytes: stream.finish() };
        }
        case "image/png":
          out = await encodePng(frame(image));
          break;
        case "image/webp":
          out = await encodeWebp(frame(image), isLosslessWebp(source) ? { lossless: 1, quality: 100 } : { quality: 90 });
          break;
        case "image/avif":
          // High quality: a lossy AVIF at the encoder's defaults smooths the mark away on small images.
          out = await encodeAvif(frame(image), { quality: 92, speed: 8 });
          break;
        case "image/tiff":
          out = UTIF.encodeImage(image.data, image.width, image.height);
          break;
        default:
          return { status: "failed", message: `${mediaType} is not encoded here.` };
      }
      return { status: "encoded", bytes: new Uint8Array(out) };
    } catch (error) {
      return { status: "failed", message: `The image could not be encoded: ${String((error as Error)?.message ?? error)}` };
    }
  }
}

class TooLarge extends Error {}

/** utif2 is CommonJS: bundlers hand it over as the namespace itself (Node) or under `default` (wrangler). */
const UTIF = ((UTIFModule as unknown as { default?: typeof UTIFModule }).default ?? UTIFModule) as typeof UTIFModule;
// utif2's LZW decoder loops for ever on a corrupt strip (tiff-lzw.ts): ours, bounded, decodes in its place.
(UTIF.decode as unknown as { _decodeLZW: typeof decodeTiffLzw })._decodeLZW = decodeTiffLzw;

/**
 * The first image of a TIFF as RGBA; the directories are checked against the file's length first (tiff-bounds.ts:
 * utif2 trusts the counts), maker notes are not parsed, and the pixel count is checked before decompression.
 */
function decodeTiff(buffer: ArrayBuffer, maxPixels: number): { data: Uint8Array; width: number; height: number } | null {
  if (!tiffBounds(new Uint8Array(buffer)).bounded) return null;
  // utif2 takes its options at run time though its typings omit them.
  const decode = UTIF.decode as (buffer: ArrayBuffer, options: { parseMN: boolean; debug: boolean }) => ReturnType<typeof UTIF.decode>;
  const ifds = decode(buffer, { parseMN: false, debug: false });
  const first = ifds[0];
  if (!first) return null;
  const width = Number((first["t256"] as number[] | undefined)?.[0] ?? 0);
  const height = Number((first["t257"] as number[] | undefined)?.[0] ?? 0);
  if (!width || !height) return null;
  if (width * height > maxPixels) throw new TooLarge(`The image has more than ${maxPixels} pixels.`);
  UTIF.decodeImage(buffer, first);
  const rgba = UTIF.toRGBA8(first);
  if (rgba.length !== width * height * 4) return null;
  return { data: rgba, width, height };
}
