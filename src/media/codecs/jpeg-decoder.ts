import type { DecodeScale, RgbaImage, RowSink, RowSource } from "../types";

interface KernelExports {
  memory: WebAssembly.Memory;
  inputAlloc(length: number): number;
  header(): number;
  start(scaleLog2: number, maxPixels: number): number;
  rewind(scaleLog2: number): number;
  next(): number;
  imageWidth(): number;
  imageHeight(): number;
  components(): number;
  isProgressive(): number;
  outWidth(): number;
  outHeight(): number;
  outPtr(): number;
  memoryBytes(): number;
  /** 1 when next()'s failure was in entropy-coded data (a progressive file's AC scans are decoded row by row; absent in builds before that). */
  failedInScan?(): number;
  /** Before start: 1 when the image will be read again (a progressive file's scans are then all kept decoded). */
  keepCoefficients?(keep: number): void;
}

/** What the kernel said (its status codes, wasm/jpegdec/index.ts). */
const STATUS: Record<number, JpegDecodeFailure["status"]> = { 1: "unsupported", 2: "failed", 3: "too_large" };

export type JpegDecodeFailure =
  /** A JPEG process this decoder does not implement (arithmetic, 12-bit, lossless, CMYK...): use another decoder. */
  { status: "unsupported"; message: string } | { status: "too_large"; message: string } | { status: "failed"; message: string };

export type JpegHeaderResult =
  | { status: "ready"; width: number; height: number; components: number; progressive: boolean }
  | JpegDecodeFailure;

export type JpegStreamResult = { status: "decoded"; width: number; height: number } | JpegDecodeFailure;

const LOG2: Record<DecodeScale, number> = { 1: 0, 2: 1, 4: 2, 8: 3 };

/** One instance of the kernel, and the source whose file it holds with every scan decoded (a rewind serves it). */
interface Kernel {
  exports: KernelExports;
  owner: object | null;
  /** A call on it threw (a trap, or a sink that threw mid-image): it is not reused. */
  broken?: boolean;
}

/**
 * The largest kernel memory kept for reuse: a fresh instance per decode costs its memory's growth and page faults
 * again (~3 ms of a 1 MP verify); a kernel that grew past this (a 12 MP progressive file holds 72 MB of
 * coefficients) is left to the garbage collector, as every kernel was before.
 */
const POOLED_MEMORY_MAXIMUM = 24 * 1024 * 1024;

/**
 * At most one idle kernel per module and isolate. A kernel is taken for one synchronous call (header, or a whole
 * decode) and given back at its end, so two decoders never share one at the same time, and a decode started from
 * inside another's sink gets a fresh one.
 */
const idleKernels = new WeakMap<WebAssembly.Module, Kernel>();

function takeKernel(module: WebAssembly.Module): Kernel {
  const idle = idleKernels.get(module);
  if (idle) {
    idleKernels.delete(module);
    return idle;
  }
  return { exports: new WebAssembly.Instance(module, {}).exports as unknown as KernelExports, owner: null };
}

function giveBack(module: WebAssembly.Module, kernel: Kernel): void {
  if (!kernel.broken && kernel.exports.memoryBytes() <= POOLED_MEMORY_MAXIMUM && !idleKernels.has(module)) idleKernels.set(module, kernel);
}

function failure(status: number, what: string): JpegDecodeFailure {
  const s = STATUS[status] ?? "failed";
  if (s === "unsupported") return { status: s, message: `This JPEG's coding process is not supported by the streaming decoder (${what}).` };
  if (s === "too_large") return { status: s, message: `The JPEG is larger than the decoder accepts (${what}).` };
  return { status: s, message: `The JPEG is corrupt or truncated (${what}).` };
}

/**
 * Our JPEG decoder (wasm/jpegdec, AssemblyScript) behind a small synchronous API. Invariants: it never throws;
 * a file outside what it implements is `unsupported` (the caller falls back to another decoder); it hands the
 * image out in runs of whole rows and never holds a full-size RGBA image (a progressive file needs its 2-byte
 * coefficients, 1 to 2 bytes a pixel); the pixel count is checked against `maxPixels` before anything large is
 * allocated. Scaled decodes (1/2, 1/4, 1/8 per side) are reduced in the DCT domain: each sample is the area
 * average of the full reconstruction over its pixels. Each call runs on a kernel instance of its own for its
 * duration (an idle one of the isolate is reused, see takeKernel), so decoders and sources may interleave.
 */
export class JpegStreamDecoder {
  readonly #module: WebAssembly.Module;
  /** The last #stream ended in the kernel's refusal of the file (failed or unsupported), set by #stream. */
  #refused = false;

  constructor(module: WebAssembly.Module) {
    this.#module = module;
  }

  /** `run` on a kernel taken for this call only. */
  #with<T>(run: (kernel: Kernel) => T): T {
    const kernel = takeKernel(this.#module);
    try {
      return run(kernel);
    } finally {
      giveBack(this.#module, kernel);
    }
  }

  #load(kernel: Kernel, bytes: Uint8Array): number {
    const k = kernel.exports;
    kernel.owner = null;
    const ptr = k.inputAlloc(bytes.length);
    if (ptr === 0) return 3;
    new Uint8Array(k.memory.buffer, ptr, bytes.length).set(bytes);
    return k.header();
  }

  /** The frame header: size and layout, without decoding any pixels. */
  header(bytes: Uint8Array): JpegHeaderResult {
    return this.#with((kernel) => this.#header(kernel, bytes));
  }

  #header(kernel: Kernel, bytes: Uint8Array): JpegHeaderResult {
    try {
      const status = this.#load(kernel, bytes);
      if (status !== 0) return failure(status, "header");
      const k = kernel.exports;
      return {
        status: "ready",
        width: k.imageWidth(),
        height: k.imageHeight(),
        components: k.components(),
        progressive: k.isProgressive() === 1,
      };
    } catch (error) {
      kernel.broken = true;
      return { status: "failed", message: `JPEG decoder error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  /**
   * Decodes `bytes` at 1/`scale` per side (output ceil(width/scale) x ceil(height/scale)) into the sink that
   * `open` returns for that size: `restart`, then every row top to bottom, exactly once, in runs of whole rows
   * (one MCU row: 8 or 16 rows at full scale). On anything but `decoded` the rows the sink got are not an image.
   */
  stream(bytes: Uint8Array, scale: DecodeScale, maxPixels: number, open: (width: number, height: number) => RowSink): JpegStreamResult {
    return this.#stream(bytes, null, scale, maxPixels, open);
  }

  /**
   * The file as a RowSource (after its header is checked): each `read` decodes it again, except that a progressive
   * file whose read said `again` and is read again next (nothing else decoded in between) is entropy-decoded only
   * once (without `again`, a progressive file's AC scans are decoded row by row, never held whole, and a further
   * read decodes them again). `refused` is called
   * when a read fails because the decoder refused the file (corrupt or unsupported data, not a size limit or a
   * throwing sink): that does not depend on the scale read, since every scale entropy-decodes the whole file.
   */
  source(bytes: Uint8Array, maxPixels: number, refused?: () => void): { status: "ready"; source: RowSource } | JpegDecodeFailure {
    const header = this.header(bytes);
    if (header.status !== "ready") return header;
    if (header.width * header.height > maxPixels) return { status: "too_large", message: `The image has more than ${maxPixels} pixels.` };
    const token = {};
    const source: RowSource = {
      width: header.width,
      height: header.height,
      read: (sink, scale, options) => {
        this.#refused = false;
        const r = this.#stream(bytes, token, scale, maxPixels, () => sink, options?.again === true);
        if (this.#refused) refused?.();
        return r.status === "decoded" ? { status: "read" } : { status: "failed", message: r.message };
      },
    };
    return { status: "ready", source };
  }

  #stream(
    bytes: Uint8Array,
    token: object | null,
    scale: DecodeScale,
    maxPixels: number,
    open: (width: number, height: number) => RowSink,
    again = false,
  ): JpegStreamResult {
    return this.#with((kernel) => this.#streamOn(kernel, bytes, token, scale, maxPixels, open, again));
  }

  #streamOn(
    kernel: Kernel,
    bytes: Uint8Array,
    token: object | null,
    scale: DecodeScale,
    maxPixels: number,
    open: (width: number, height: number) => RowSink,
    again: boolean,
  ): JpegStreamResult {
    try {
      const k = kernel.exports;
      const log2 = LOG2[scale] ?? 0;
      let status: number;
      if (token !== null && kernel.owner === token && k.rewind(log2) === 0) status = 0;
      else {
        status = this.#load(kernel, bytes);
        if (status !== 0) return this.#refusal(status, "header");
        if (k.imageWidth() * k.imageHeight() > maxPixels)
          return { status: "too_large", message: `The image has more than ${maxPixels} pixels.` };
        // a second read follows: a progressive file's scans all decoded once and kept, each read only transforms
        if (again) k.keepCoefficients?.(1);
        status = k.start(log2, maxPixels);
        if (status === 0 && token !== null) kernel.owner = token;
      }
      if (status !== 0) return this.#refusal(status, "scan data");
      const width = k.outWidth();
      const height = k.outHeight();
      const sink = open(width, height);
      sink.restart();
      const rowBytes = width * 4;
      let y = 0;
      for (;;) {
        const n = k.next();
        if (n < 0) return this.#refusal(-n, k.failedInScan?.() === 1 ? "scan data" : `row ${y}`);
        if (n === 0) break;
        // a fresh view each time: this memory may have grown since the last row
        sink.rows(new Uint8Array(k.memory.buffer, k.outPtr(), n * rowBytes), n);
        y += n;
      }
      if (y !== height) return { status: "failed", message: "The JPEG ended before its last row." };
      return { status: "decoded", width, height };
    } catch (error) {
      kernel.owner = null;
      kernel.broken = true;
      return { status: "failed", message: `JPEG decoder error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  /** The kernel's failure `status`, noted as a refusal of the file unless it is a size limit. */
  #refusal(status: number, what: string): JpegDecodeFailure {
    const f = failure(status, what);
    this.#refused = f.status !== "too_large";
    return f;
  }

  /** The whole image at 1/`scale` per side (one full-size buffer: for callers that need every pixel at once). */
  decode(bytes: Uint8Array, scale: DecodeScale, maxPixels: number): { status: "decoded"; image: RgbaImage } | JpegDecodeFailure {
    let image: RgbaImage | null = null;
    let at = 0;
    const result = this.stream(bytes, scale, maxPixels, (width, height) => {
      image = { width, height, data: new Uint8Array(width * height * 4) };
      return {
        restart: () => {
          at = 0;
        },
        rows: (data, count) => {
          const n = count * image!.width * 4;
          image!.data.set(data.subarray(0, n), at);
          at += n;
        },
      };
    });
    if (result.status !== "decoded") return result;
    return { status: "decoded", image: image! };
  }
}
