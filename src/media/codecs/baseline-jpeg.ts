import type { RgbaImage } from "../types";

interface KernelExports {
  memory: WebAssembly.Memory;
  begin(width: number, height: number, quality: number, subsample: number): number;
  stripPtr(): number;
  stripRows(): number;
  encodeRows(rows: number): void;
  finish(): number;
  outputPtr(): number;
  memoryBytes(): number;
}

/** 4:2:0 (chroma halved both ways) or 4:4:4 (full-resolution chroma). */
export type ChromaSubsampling = "4:2:0" | "4:4:4";

/**
 * Our baseline JPEG encoder (wasm/jpegenc, AssemblyScript): sequential DCT with the T.81 Annex K quantisers
 * scaled to an IJG quality and its example Huffman tables, no trellis, no optimisation passes. Several times
 * faster than MozJPEG's defaults for a few percent more bytes at the same quality; the watermark step uses it.
 * Invariant: the output is a complete baseline JFIF JPEG of exactly the input's size; pixels enter the kernel
 * in one-MCU-row strips, so it never holds a full-size copy (its memory: a strip, three plane rows and the
 * output). Not reentrant (one synchronous instance), which is all a Worker isolate needs.
 */
export class BaselineJpegEncoder {
  readonly #k: KernelExports;

  constructor(module: WebAssembly.Module) {
    this.#k = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
  }

  /** Bytes of linear memory the kernel holds now (it only grows; it is reused across calls). */
  get kernelMemoryBytes(): number {
    return this.#k.memoryBytes();
  }

  encode(image: RgbaImage, quality: number, subsampling: ChromaSubsampling): Uint8Array {
    const k = this.#k;
    const { width, height, data } = image;
    if (data.length !== width * height * 4) throw new Error("The image data must be width x height x 4 bytes (RGBA).");
    if (k.begin(width, height, Math.round(quality), subsampling === "4:2:0" ? 2 : 1) !== 0)
      throw new Error("Invalid JPEG encode parameters.");
    const rows = k.stripRows();
    const rowBytes = width * 4;
    for (let y = 0; y < height; y += rows) {
      const n = Math.min(rows, height - y);
      // the memory may have grown (a new buffer) during the previous strip: take a fresh view each time
      new Uint8Array(k.memory.buffer, k.stripPtr(), n * rowBytes).set(data.subarray(y * rowBytes, (y + n) * rowBytes));
      k.encodeRows(n);
    }
    const length = k.finish();
    return new Uint8Array(k.memory.buffer, k.outputPtr(), length).slice();
  }
}
