/**
 * `Fingerprinter`s over our fingerprint kernel (wasm/fingerprint, AssemblyScript, built to
 * wasm/build/fingerprint.wasm). workerd cannot compile wasm from bytes, so the compiled module is injected:
 * workerd code imports the `.wasm` file (a `WebAssembly.Module`), Node compiles it from the file's bytes.
 *
 * The pixels never enter the kernel whole: they are copied in 1 MiB chunks into its staging area, so its memory
 * (which never shrinks) stays a few MB whatever the image size. Both fingerprinters share one instance per module.
 */
import type { Fingerprinter, FingerprintResult, RgbaImage } from "../types";
import { isccImageCode, pdqHex } from "./codes";

interface KernelExports {
  memory: WebAssembly.Memory;
  ISCC_DIGEST: WebAssembly.Global;
  ISCC_INFO: WebAssembly.Global;
  ISCC_PIXELS: WebAssembly.Global;
  PDQ_HASH: WebAssembly.Global;
  /** PDQ's 256 float coefficients of the last pdqFinish (PDQF, the TMK frame feature; src/media/fingerprint/video). */
  PDQ_FLOATS?: WebAssembly.Global;
  isccBegin(width: number, height: number, chunkBytes: number): number;
  isccScan(bytes: number): void;
  isccWholeBox(): void;
  isccPrepare(): number;
  isccResample(bytes: number): void;
  isccBeginAt(width: number, height: number, base: number): number;
  isccResampleFrom(src: number, bytes: number): void;
  isccFinish(bits: number): number;
  isccHashPixels(bits: number): number;
  pdqBegin(rowLength: number, rowCount: number, chunkBytes: number, transposed: number): number;
  pdqPush(bytes: number): void;
  pdqPushRows(rowCount: number, strideBytes: number): void;
  pdqLumaBegin(width: number, height: number, chunkBytes: number): number;
  pdqLumaPush(bytes: number): void;
  pdqLumaPushFrom(src: number, bytes: number): number;
  pdqWorkEnd(): number;
  planeBeginAt(width: number, height: number, k: number, base: number): number;
  planeRowsFrom(src: number, rows: number): void;
  pdqWindow(x: number, y: number, w: number, h: number): number;
  pdqFinish(): number;
  planeBegin(width: number, height: number, factor: number): number;
  planeStagingRows(): number;
  planeRows(rows: number): void;
  planeOutput(): number;
  planeOpaque(): number;
}

/** A computation fed from another's chunks already in the kernel (IsccImageFingerprinter.beside). */
export interface BesidePass<T> {
  feed(at: number, src: number, bytes: number): void;
  finish(): T;
}

/**
 * An image box-reduced in the fingerprint kernel, left there: its size, address and whether it is opaque, valid while
 * the kernel's `computations` is still `computation` (no other computation has begun since).
 */
export interface KernelPlane {
  width: number;
  height: number;
  at: number;
  opaque: boolean;
  computation: number;
}

/** Bytes of RGBA copied into the kernel per call where rows are cut out of the image (computeWindow, columns). */
const CHUNK_BYTES = 1 << 20;
/**
 * Bytes of RGBA copied into the kernel per call where the image streams through whole (PDQ, ISCC, the windows'
 * luma): a chunk the kernel reads while it is still in the CPU's cache (a push takes any length, so the results do
 * not depend on it; 1 MiB chunks cost PDQ and ISCC about 0.1 ms more on a 0.7 MP image, bench/pixels-pipeline-ab.mjs).
 */
const STREAM_CHUNK_BYTES = 1 << 18;
/** Longest row the PDQ kernel filters as a row (4 floats per pixel per buffer); wider images go in as columns. */
const PDQ_MAX_ROW = 1 << 16;

const kernels = new WeakMap<WebAssembly.Module, FingerprintKernel>();

/** One instance of the fingerprint kernel (shared by the fingerprinters built from the same module). */
export class FingerprintKernel {
  readonly exports: KernelExports;

  private constructor(module: WebAssembly.Module) {
    const instance = new WebAssembly.Instance(module, {});
    const e = instance.exports as unknown as KernelExports;
    for (const name of [
      "isccBegin",
      "isccScan",
      "isccWholeBox",
      "isccPrepare",
      "isccResample",
      "isccBeginAt",
      "isccResampleFrom",
      "isccFinish",
      "isccHashPixels",
      "pdqBegin",
      "pdqPush",
      "pdqPushRows",
      "pdqLumaBegin",
      "pdqLumaPush",
      "pdqLumaPushFrom",
      "pdqWorkEnd",
      "planeBeginAt",
      "planeRowsFrom",
      "pdqWindow",
      "pdqFinish",
      "planeBegin",
      "planeStagingRows",
      "planeRows",
      "planeOutput",
      "planeOpaque",
    ] as const) {
      if (typeof e[name] !== "function") throw new Error(`fingerprint kernel: export ${name} missing (stale wasm/build/fingerprint.wasm?)`);
    }
    // Each computation's *Begin lays out the work area afresh: counted, so that an image left in the kernel
    // (KernelPlane) is known to be gone once another computation began (queryWindowHashes then reduces again).
    const counted: Record<string, unknown> = { ...e };
    for (const name of ["isccBegin", "isccBeginAt", "pdqBegin", "pdqLumaBegin", "planeBegin", "planeBeginAt"] as const) {
      const begin = e[name] as (...args: number[]) => number;
      counted[name] = (...args: number[]) => {
        this.#computations++;
        return begin(...args);
      };
    }
    this.exports = counted as unknown as KernelExports;
  }

  #computations = 0;

  /** How many computations have begun in this kernel (a KernelPlane holds while this is its `computation`). */
  get computations(): number {
    return this.#computations;
  }

  /** The kernel instance of `module`, instantiated on first use. */
  static of(module: WebAssembly.Module | FingerprintKernel): FingerprintKernel {
    if (module instanceof FingerprintKernel) return module;
    let k = kernels.get(module);
    if (!k) {
      k = new FingerprintKernel(module);
      kernels.set(module, k);
    }
    return k;
  }

  /** Current size of the kernel's linear memory (its peak so far: a wasm memory never shrinks). */
  memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer);
  }

  address(g: WebAssembly.Global): number {
    return (g.value as number) >>> 0;
  }
}

function checkImage(image: RgbaImage): string | null {
  if (!image || typeof image !== "object") return "no image";
  const { width, height, data } = image;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0)
    return `invalid dimensions ${width}x${height}`;
  if (!(data instanceof Uint8Array)) return "pixel data is not a Uint8Array";
  if (data.length !== width * height * 4) return `pixel data is ${data.length} bytes, expected ${width * height * 4} (RGBA)`;
  if (width > 0x7fffffff || height > 0x7fffffff) return "image too large";
  return null;
}

/**
 * Whether each of the four borders holds an opaque pixel of another colour than an opaque top-left pixel. Then
 * the trim box of iscc-sdk's normalization (PIL's getbbox of the pixels unlike the top-left one) is the whole
 * image, as pass 1 would find: its first and last rows and columns each hold such a pixel. Anything else (a
 * transparent corner or border pixel, a uniform border) leaves the box to pass 1.
 */
export function bordersDiffer({ width, height, data }: RgbaImage): boolean {
  if (data[3] !== 255) return false;
  const r = data[0];
  const g = data[1];
  const b = data[2];
  const differs = (i: number) => data[i + 3] === 255 && (data[i] !== r || data[i + 1] !== g || data[i + 2] !== b);
  const row = (y: number) => {
    for (let x = 0, i = y * width * 4; x < width; x++, i += 4) if (differs(i)) return true;
    return false;
  };
  const column = (x: number) => {
    for (let y = 0, i = x * 4; y < height; y++, i += width * 4) if (differs(i)) return true;
    return false;
  };
  return row(0) && row(height - 1) && column(0) && column(width - 1);
}

const failed = (message: string): FingerprintResult => ({ status: "failed", message });

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Copies `data[start, end)` into the kernel's staging area chunk by chunk, calling `push` with each length. */
function stream(
  k: FingerprintKernel,
  staging: number,
  chunk: number,
  data: Uint8Array,
  start: number,
  end: number,
  push: (bytes: number) => void,
): void {
  const mem = k.bytes();
  for (let off = start; off < end; off += chunk) {
    const n = Math.min(chunk, end - off);
    mem.set(data.subarray(off, off + n), staging);
    push(n);
  }
}

export type IsccNormalizeResult =
  /** `pixels`: 32x32 gray, row-major; `trim`: the part of the image left after the uniform border was trimmed. */
  | { status: "normalized"; pixels: Uint8Array; trim: { x: number; y: number; width: number; height: number } }
  | { status: "failed"; message: string };

/**
 * ISCC Content-Code Image v0 (ISO 24138), `value` as `ISCC:EE...` (64 bits by default), `bits` the digest.
 * Normalization as iscc-sdk does it with Pillow (white under transparency, uniform border trimmed, PIL "L" gray,
 * PIL BICUBIC resize to 32x32), hash as iscc-core's gen_image_code_v0. EXIF orientation is the decoder's business.
 */
export class IsccImageFingerprinter implements Fingerprinter {
  readonly algorithm = "iscc-image";
  readonly bitLength: number;
  readonly #kernel: FingerprintKernel;

  /** `bitLength`: 32..256, a multiple of 32 (iscc-core's default is 64). */
  constructor(module: WebAssembly.Module | FingerprintKernel, options: { bitLength?: number } = {}) {
    const bits = options.bitLength ?? 64;
    if (!Number.isInteger(bits) || bits < 32 || bits > 256 || bits % 32 !== 0)
      throw new RangeError(`ISCC image code length must be 32..256 in steps of 32: ${bits}`);
    this.bitLength = bits;
    this.#kernel = FingerprintKernel.of(module);
  }

  compute(image: RgbaImage): FingerprintResult {
    const n = this.normalize(image);
    if (n.status !== "normalized") return n;
    return this.#hash();
  }

  /** The 32x32 gray pixels the code is computed from (iscc-sdk's image_normalize). */
  normalize(image: RgbaImage): IsccNormalizeResult {
    try {
      const bad = checkImage(image);
      if (bad) return { status: "failed", message: bad };
      const k = this.#kernel;
      const e = k.exports;
      const { width, height, data } = image;
      const chunk = Math.min(STREAM_CHUNK_BYTES, data.length);
      const staging = e.isccBegin(width, height, chunk) >>> 0;
      if (!staging) return { status: "failed", message: "fingerprint kernel: out of memory" };
      // Pass 1 (the trim box) reads the whole image, unless every border already shows the box is the whole image.
      if (bordersDiffer(image)) e.isccWholeBox();
      else stream(k, staging, chunk, data, 0, data.length, (b) => e.isccScan(b));
      if (!e.isccPrepare()) return { status: "failed", message: "fingerprint kernel: out of memory" };
      const info = new Int32Array(e.memory.buffer, k.address(e.ISCC_INFO), 6);
      const rowBytes = width * 4;
      const [rowFrom, rowTo, x, y, w, h] = Array.from(info) as [number, number, number, number, number, number];
      stream(k, staging, chunk, data, rowFrom * rowBytes, rowTo * rowBytes, (b) => e.isccResample(b));
      e.isccFinish(this.bitLength);
      const pixels = k.bytes().slice(k.address(e.ISCC_PIXELS), k.address(e.ISCC_PIXELS) + 1024);
      return { status: "normalized", pixels, trim: { x, y, width: w, height: h } };
    } catch (err) {
      return { status: "failed", message: `iscc-image: ${errorMessage(err)}` };
    }
  }

  /**
   * `compute(image)` fed from another computation's chunks of `image` already in the kernel (PDQ's: see
   * PdqFingerprinter.compute's `iscc`), its work area from `base`: `feed(at, src, bytes)` for the `bytes` bytes of
   * the image from byte `at` that lie at `src`, in order, then `finish()`. The same code bit for bit (the same resample
   * of the same rows). Null where compute's first pass (the trim box) would read the image (a border that does not
   * show the box is the whole image), the memory cannot grow, or the chunks lie in another kernel than this
   * fingerprinter's (`kernel`: the one holding them; its addresses mean nothing in another's memory): compute it then.
   */
  beside(image: RgbaImage, base: number, kernel: FingerprintKernel): BesidePass<FingerprintResult> | null {
    if (kernel !== this.#kernel || checkImage(image) || !bordersDiffer(image)) return null;
    const e = this.#kernel.exports;
    if (!e.isccBeginAt(image.width, image.height, base)) return null;
    e.isccWholeBox();
    if (!e.isccPrepare()) return null;
    const info = new Int32Array(e.memory.buffer, this.#kernel.address(e.ISCC_INFO), 2);
    const rowBytes = image.width * 4;
    const from = info[0]! * rowBytes;
    const to = info[1]! * rowBytes;
    return {
      feed: (at, src, bytes) => {
        const lo = Math.max(at, from);
        const hi = Math.min(at + bytes, to);
        if (lo < hi) e.isccResampleFrom(src + (lo - at), hi - lo);
      },
      finish: () => {
        e.isccFinish(this.bitLength);
        return this.#hash();
      },
    };
  }

  /**
   * The code of already normalized pixels (1024 gray values, 32x32 row-major), as iscc-core's
   * gen_image_code_v0(pixels, bits): the step the ISCC conformance vectors test.
   */
  fromPixels(pixels: ArrayLike<number>): FingerprintResult {
    try {
      if (pixels?.length !== 1024) return failed("iscc-image: expected 1024 normalized pixels (32x32)");
      const k = this.#kernel;
      const at = k.address(k.exports.ISCC_PIXELS);
      const mem = k.bytes();
      for (let i = 0; i < 1024; i++) {
        const v = pixels[i]!;
        if (!Number.isInteger(v) || v < 0 || v > 255) return failed(`iscc-image: pixel ${i} is not a gray value 0..255`);
        mem[at + i] = v;
      }
      return this.#hash(true);
    } catch (err) {
      return failed(`iscc-image: ${errorMessage(err)}`);
    }
  }

  /** Reads (or, `fromPixels`, computes) the digest of the pixels in the kernel and formats the result. */
  #hash(compute = false): FingerprintResult {
    const k = this.#kernel;
    const e = k.exports;
    const n = compute ? e.isccHashPixels(this.bitLength) : this.bitLength / 8;
    if (n !== this.bitLength / 8) return failed("iscc-image: kernel rejected the bit length");
    const at = k.address(e.ISCC_DIGEST);
    const bits = k.bytes().slice(at, at + n);
    return { status: "computed", algorithm: this.algorithm, value: isccImageCode(bits), bits, quality: null };
  }
}

/**
 * PDQ: 256-bit hash as 64 hex digits, `quality` 0..100 (upstream treats < 50 as unreliable). Computed on the
 * full-resolution luma (the reference's file tools first shrink images over 512 px for speed; the hash function
 * itself does not), after compositing transparency onto white. Sides under 5 px: zero hash, quality 0, as upstream.
 */
export class PdqFingerprinter implements Fingerprinter {
  readonly algorithm = "pdq";
  readonly #kernel: FingerprintKernel;

  constructor(module: WebAssembly.Module | FingerprintKernel) {
    this.#kernel = FingerprintKernel.of(module);
  }

  /** The kernel instance (the verify service reduces its pixel plane in it: see plane.ts). */
  get kernel(): FingerprintKernel {
    return this.#kernel;
  }

  /**
   * `options.plane` (a whole factor of at least 2): `image` box-reduced by it beside the hash (plane.ts boxReduce's
   * plane, left in the kernel just after PDQ's work area, `plane` of the result), from the very chunks PDQ reads
   * instead of a second copy of the image into the kernel later. The hash is the same (the reduction only reads the
   * chunks and writes past PDQ's work area). No plane when the image goes in as columns or the memory cannot grow
   * for it; it holds until the kernel's next computation begins. `options.iscc`: that fingerprinter's code of the same
   * image beside it too (`iscc` of the result; IsccImageFingerprinter.beside), where it can be fed so.
   */
  compute(
    image: RgbaImage,
    options: { plane?: number; iscc?: IsccImageFingerprinter } = {},
  ): FingerprintResult & { plane?: KernelPlane; iscc?: FingerprintResult } {
    try {
      const bad = checkImage(image);
      if (bad) return failed(`pdq: ${bad}`);
      const k = this.#kernel;
      const e = k.exports;
      const { width, height, data } = image;
      if (width <= PDQ_MAX_ROW) {
        const factor = options.plane;
        const planeOf = factor !== undefined && Number.isSafeInteger(factor) && factor >= 2 ? factor : 0;
        // with a plane: whole bands of its factor's rows per chunk, so each chunk reduces to whole plane rows
        const rowBytes = width * 4;
        const chunk = planeOf
          ? Math.min(data.length, Math.max(1, Math.floor(STREAM_CHUNK_BYTES / (rowBytes * planeOf))) * rowBytes * planeOf)
          : Math.min(STREAM_CHUNK_BYTES, data.length);
        const staging = e.pdqBegin(width, height, chunk, 0) >>> 0;
        if (!staging) return failed("pdq: fingerprint kernel out of memory");
        const planed = planeOf > 0 && e.planeBeginAt(width, height, planeOf, e.pdqWorkEnd() >>> 0) === 1;
        const pw = Math.ceil(width / planeOf);
        const ph = Math.ceil(height / planeOf);
        // ISCC's work area after the plane (or PDQ's): isccPrepare may grow the memory, before any chunk is copied
        const isccBase = planed ? (e.planeOutput() >>> 0) + Math.ceil((pw * ph * 4) / 16) * 16 : e.pdqWorkEnd() >>> 0;
        const iscc = options.iscc?.beside(image, isccBase, k) ?? null;
        let at = 0;
        stream(k, staging, chunk, data, 0, data.length, (b) => {
          e.pdqPush(b);
          if (planed) e.planeRowsFrom(staging, b / rowBytes);
          iscc?.feed(at, staging, b);
          at += b;
        });
        const result = this.#finish();
        const isccResult = iscc?.finish();
        if (result.status !== "computed") return result;
        return {
          ...result,
          ...(planed
            ? { plane: { width: pw, height: ph, at: e.planeOutput() >>> 0, opaque: e.planeOpaque() === 1, computation: k.computations } }
            : {}),
          ...(isccResult ? { iscc: isccResult } : {}),
        };
      } else if (height <= PDQ_MAX_ROW) {
        this.#pushColumns(image);
      } else {
        return failed("pdq: image too large");
      }
      return this.#finish();
    } catch (err) {
      return failed(`pdq: ${errorMessage(err)}`);
    }
  }

  /**
   * PDQ of the `w` x `h` window at (`x`, `y`) of `image`, as `compute` of a copy of that window would give, without
   * the copy: each chunk of the window's rows goes into the kernel as one block of the image (with the pixels between
   * the rows: one copy per chunk, not one per row) and the kernel reads the rows out of it. Windows wider than the
   * kernel's row limit fail.
   */
  computeWindow(image: RgbaImage, x: number, y: number, w: number, h: number): FingerprintResult {
    try {
      const bad = checkImage(image);
      if (bad) return failed(`pdq: ${bad}`);
      const { width, height, data } = image;
      if (![x, y, w, h].every(Number.isSafeInteger) || x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > width || y + h > height)
        return failed(`pdq: window ${w}x${h} at ${x},${y} is not inside the ${width}x${height} image`);
      if (w > PDQ_MAX_ROW) return failed("pdq: window too wide");
      const k = this.#kernel;
      const e = k.exports;
      const stride = width * 4;
      const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / stride));
      const staging = e.pdqBegin(w, h, perChunk * stride, 0) >>> 0;
      if (!staging) return failed("pdq: fingerprint kernel out of memory");
      const mem = k.bytes(); // pdqBegin may have grown the memory; pushing does not
      for (let r0 = 0; r0 < h; r0 += perChunk) {
        const r1 = Math.min(h, r0 + perChunk);
        const at = ((y + r0) * width + x) * 4;
        mem.set(data.subarray(at, at + (r1 - r0 - 1) * stride + w * 4), staging);
        e.pdqPushRows(r1 - r0, stride);
      }
      return this.#finish();
    } catch (err) {
      return failed(`pdq: ${errorMessage(err)}`);
    }
  }

  /**
   * `computeWindow` of each window of `windows`, in order, computing the image's luma once: the kernel keeps the
   * image's luma plane (4 bytes a pixel: the caller bounds the image's size, as pdqRegionHashes does) and hashes
   * each window from its rows of it, the same values computeWindow's pushes give, so the same hashes bit for bit.
   * A window outside the image gets a failed result; the others are computed.
   */
  computeWindows(image: RgbaImage, windows: readonly { x: number; y: number; w: number; h: number }[]): FingerprintResult[] {
    try {
      const bad = checkImage(image);
      if (bad) return windows.map(() => failed(`pdq: ${bad}`));
      const k = this.#kernel;
      const e = k.exports;
      const { width, height, data } = image;
      const chunk = Math.min(STREAM_CHUNK_BYTES, data.length);
      const staging = e.pdqLumaBegin(width, height, chunk) >>> 0;
      if (!staging) return windows.map(() => failed("pdq: fingerprint kernel out of memory for the luma plane"));
      stream(k, staging, chunk, data, 0, data.length, (b) => e.pdqLumaPush(b));
      return this.#hashWindows(width, height, windows);
    } catch (err) {
      return windows.map(() => failed(`pdq: ${errorMessage(err)}`));
    }
  }

  /**
   * computeWindows of the `width` x `height` RGBA image that is already in this kernel's memory at `at` (boxReduceInKernel's
   * plane: never copied out to JS and back), converted to luma where it lies: the same luma values, so the same
   * hashes bit for bit. Nothing else may use the kernel in between.
   */
  computeWindowsInKernel(
    width: number,
    height: number,
    at: number,
    windows: readonly { x: number; y: number; w: number; h: number }[],
  ): FingerprintResult[] {
    try {
      const e = this.#kernel.exports;
      if (!e.pdqLumaBegin(width, height, 16)) return windows.map(() => failed("pdq: fingerprint kernel out of memory for the luma plane"));
      if (!e.pdqLumaPushFrom(at, width * height * 4)) return windows.map(() => failed("pdq: the image lies before the luma plane"));
      return this.#hashWindows(width, height, windows);
    } catch (err) {
      return windows.map(() => failed(`pdq: ${errorMessage(err)}`));
    }
  }

  /** Each window of the complete luma plane of a `width` x `height` image (computeWindows). */
  #hashWindows(width: number, height: number, windows: readonly { x: number; y: number; w: number; h: number }[]): FingerprintResult[] {
    const k = this.#kernel;
    const e = k.exports;
    const one = ({ x, y, w, h }: { x: number; y: number; w: number; h: number }): FingerprintResult => {
      if (![x, y, w, h].every(Number.isSafeInteger) || x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > width || y + h > height)
        return failed(`pdq: window ${w}x${h} at ${x},${y} is not inside the ${width}x${height} image`);
      const quality = e.pdqWindow(x, y, w, h);
      if (quality === -2) return failed("pdq: fingerprint kernel out of memory");
      if (quality < 0) return failed("pdq: kernel has no luma plane for the window");
      const at = k.address(e.PDQ_HASH);
      const bits = k.bytes().slice(at, at + 32);
      return { status: "computed", algorithm: this.algorithm, value: pdqHex(bits), bits, quality };
    };
    // Hashed in the order of (width, left edge, top): windows of the same columns one after another, so the kernel
    // filters the rows they share along the row once (its row cache); each hash is the same in any order.
    const order = windows.map((_, i) => i);
    order.sort((a, b) => windows[a]!.w - windows[b]!.w || windows[a]!.x - windows[b]!.x || windows[a]!.y - windows[b]!.y || a - b);
    const out: FingerprintResult[] = new Array(windows.length);
    for (const i of order) out[i] = one(windows[i]!);
    return out;
  }

  /** Ends a hash whose pixels were all pushed: its bits and quality, or why the kernel could not finish it. */
  #finish(): FingerprintResult {
    const k = this.#kernel;
    const e = k.exports;
    const quality = e.pdqFinish();
    if (quality < 0) return failed("pdq: kernel did not receive every pixel");
    const at = k.address(e.PDQ_HASH);
    const bits = k.bytes().slice(at, at + 32);
    return { status: "computed", algorithm: this.algorithm, value: pdqHex(bits), bits, quality };
  }

  /** A very wide image goes in transposed: each column as one kernel row. */
  #pushColumns(image: RgbaImage): void {
    const { width, height, data } = image;
    const e = this.#kernel.exports;
    const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / 4 / height));
    const staging = e.pdqBegin(height, width, perChunk * height * 4, 1) >>> 0;
    if (!staging) throw new Error("fingerprint kernel out of memory");
    const aligned = data.byteOffset % 4 === 0;
    const src32 = aligned ? new Uint32Array(data.buffer, data.byteOffset, width * height) : null;
    for (let c0 = 0; c0 < width; c0 += perChunk) {
      const c1 = Math.min(width, c0 + perChunk);
      if (src32) {
        const dst = new Uint32Array(e.memory.buffer, staging, (c1 - c0) * height);
        let q = 0;
        for (let c = c0; c < c1; c++) for (let r = 0, s = c; r < height; r++, s += width) dst[q++] = src32[s]!;
      } else {
        const dst = new Uint8Array(e.memory.buffer, staging, (c1 - c0) * height * 4);
        let q = 0;
        for (let c = c0; c < c1; c++) {
          for (let r = 0, s = c * 4; r < height; r++, s += width * 4) {
            dst[q++] = data[s]!;
            dst[q++] = data[s + 1]!;
            dst[q++] = data[s + 2]!;
            dst[q++] = data[s + 3]!;
          }
        }
      }
      e.pdqPush((c1 - c0) * height * 4);
    }
  }
}
