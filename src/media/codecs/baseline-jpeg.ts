import type { RgbaImage, RowEncoder } from "../types";

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
    const { width, height, data } = image;
    if (data.length !== width * height * 4) throw new Error("The image data must be width x height x 4 bytes (RGBA).");
    const stream = this.stream(width, height, quality, subsampling);
    stream.rows(data, height);
    return stream.finish();
  }

  /**
   * The same encode fed with runs of whole rows (any run length), for a producer that never holds the whole
   * image. One stream at a time per encoder; `restart` begins the image again.
   */
  stream(width: number, height: number, quality: number, subsampling: ChromaSubsampling): RowEncoder {
    const k = this.#k;
    const q = Math.round(quality);
    const sub = subsampling === "4:2:0" ? 2 : 1;
    const rowBytes = width * 4;
    let pending = 0; // rows in the kernel's strip, not yet encoded
    let received = 0;
    const restart = () => {
      if (k.begin(width, height, q, sub) !== 0) throw new Error("Invalid JPEG encode parameters.");
      pending = 0;
      received = 0;
    };
    restart();
    const stripRows = k.stripRows();
    return {
      restart,
      rows(data: Uint8Array, count: number) {
        if (received + count > height || data.length < count * rowBytes) throw new Error("More rows than the image has.");
        let i = 0;
        while (i < count) {
          const n = Math.min(stripRows - pending, count - i);
          // the memory may have grown (a new buffer) during the previous strip: take a fresh view each time
          new Uint8Array(k.memory.buffer, k.stripPtr() + pending * rowBytes, n * rowBytes).set(
            data.subarray(i * rowBytes, (i + n) * rowBytes),
          );
          pending += n;
          i += n;
          if (pending === stripRows) {
            k.encodeRows(pending);
            pending = 0;
          }
        }
        received += count;
      },
      finish() {
        if (received !== height) throw new Error("The image's rows are not all in.");
        if (pending > 0) k.encodeRows(pending);
        const length = k.finish();
        return new Uint8Array(k.memory.buffer, k.outputPtr(), length).slice();
      },
    };
  }
}
