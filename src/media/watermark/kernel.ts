import { equalBytes } from "../../platform/bytes";
import { readWholeImage } from "../codecs/rows";
import type {
  DecodeScale,
  RgbaImage,
  RowSink,
  RowSource,
  WatermarkDetectResult,
  WatermarkEmbedResult,
  Watermarker,
  WatermarkStrength,
} from "../types";

/**
 * Our own invisible image watermark: a tile-periodic, keyed spread-spectrum pattern in luma on a canonical
 * grid, carrying a scrambled BCH(127,78) codeword (64 payload bits + CRC-14). Version 1 of the algorithm;
 * any change to the kernel's parameters, layout or code is a new name.
 */
export const WATERMARK_ALGORITHM = "svc-wm-tiledss-1";

/** Target luma PSNR per strength (dB); the kernel sets its gain so the marked image meets it. */
export const WATERMARK_STRENGTH_PSNR_DB: Readonly<Record<WatermarkStrength, number>> = { subtle: 46, balanced: 42.5, robust: 38 };

const MINIMUM_EDGE = 128;
/** When the self-check cannot read the mark back, the gain grows by this factor (at most SELF_CHECK_BOOSTS times). */
const SELF_CHECK_BOOST = 1.5;
const SELF_CHECK_BOOSTS = 4;
/** The kernel's canonical grid area (wasm/watermark: CANON_AREA), for choosing the reduced luma read of embedFrom. */
const CANON_AREA = 196_608;
/**
 * embedFrom reads the luma reduced as far as this many reduced pixels still fall on each canonical pixel per side:
 * the canonical grid is an area average, and a reduced JPEG sample is the area average of its block, so 1.5 keeps
 * the grid within rounding of the full-size one (the self-check and the PSNR still run on the full-size output).
 */
const LUMA_OVERSAMPLE = 1.5;
/** The kernel's sync threshold; a detection always has a sync z-score at least this. */
const SYNC_Z_MIN = 5;

interface KernelExports {
  memory: WebAssembly.Memory;
  setup(width: number, height: number): number;
  stripPtr(): number;
  stripRows(): number;
  payloadPtr(): number;
  lumaBegin(): void;
  lumaRows(y0: number, rows: number): void;
  embedPrepare(targetDb: number): number;
  boostGain(factor: number): void;
  applyBegin(): void;
  applyRows(y0: number, rows: number): void;
  applyPsnr(): number;
  detect(fast: number): number;
  resultBitErrors(): number;
  resultSyncZ(): number;
  resultScaleRatio(): number;
  resultDecodeAttempts(): number;
  resultPeakZ(): number;
  /** Absent from kernels built before #19's whole-period scan (bench/pixels-ab.mjs times such an older build). */
  resultScanPeakZ?(): number;
  resultFoldCount(): number;
  maxDecodeAttempts(): number;
  codeLength(): number;
  codeDataBits(): number;
  codeCorrectable(): number;
  memoryBytes(): number;
  expectPtr(): number;
  codeBitAgreement(): number;
}

/** Diagnostics of the last `detect` call (for benchmarks and tests; not part of the Watermarker interface). */
export interface WatermarkDetectDiagnostics {
  syncZ: number;
  scaleRatio: number;
  decodeAttempts: number;
  /** Highest sync z-score over every scale hypothesis the detector scored (the margin below SYNC_Z_MIN on unmarked images). */
  peakSyncZ: number;
  /**
   * Highest z of stage 2's full-resolution scale scan before any refinement (0 when stage 2 did not run): below the
   * kernel's scan floor the search ends there, so this is the margin an unmarked image keeps from that floor.
   */
  scanSyncZ: number;
  /** Folds (scale hypotheses scored, exact decodes' refolds included) the last detect made: its cost. */
  folds: number;
}

/**
 * Probability that one bounded-distance decoding of a uniformly random 127-bit word yields a codeword whose
 * 78 data bits pass the CRC-14: 2^k V(n,t) / 2^n (landing in a decoding sphere) times 2^-14 (the CRC), i.e.
 * V(n,t) / 2^(n - 64), with V(n,t) = sum_{i<=t} C(n,i). Times the decode attempts the detector may make.
 */
export function watermarkFalsePositiveBound(n: number, t: number, payloadBits: number, attempts: number): number {
  let volume = 0;
  let binom = 1;
  for (let i = 0; i <= t; i++) {
    volume += binom;
    binom = (binom * (n - i)) / (i + 1);
  }
  return (attempts * volume) / 2 ** (n - payloadBits);
}

/**
 * The watermark kernel (wasm/watermark, AssemblyScript) behind the Watermarker interface. Constructed from a
 * compiled module (workerd forbids compiling wasm at run time): in workerd code import the `.wasm` file, in
 * Node compile it with `new WebAssembly.Module(bytes)`. Pixels cross into the kernel's memory in row strips of
 * about 1 MB, so an embed holds the input, the output and a few MB of kernel memory; nothing else is
 * full-size (and embedInto hands the output to a sink strip by strip, so it never holds the output either). Not reentrant (one instance, synchronous calls), which is all a Worker isolate needs.
 */
export class WasmWatermarker implements Watermarker {
  readonly algorithm = WATERMARK_ALGORITHM;
  readonly payloadBits = 64 as const;
  readonly minimumEdge = MINIMUM_EDGE;
  readonly falsePositiveBound: number;
  /** Diagnostics of the last detect (or of embed's self-check). */
  lastDetect: WatermarkDetectDiagnostics = { syncZ: 0, scaleRatio: 0, decodeAttempts: 0, peakSyncZ: 0, scanSyncZ: 0, folds: 0 };
  readonly #k: KernelExports;

  constructor(module: WebAssembly.Module) {
    this.#k = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
    const k = this.#k;
    this.falsePositiveBound = watermarkFalsePositiveBound(k.codeLength(), k.codeCorrectable(), 64, k.maxDecodeAttempts());
  }

  /**
   * Diagnostics: the fraction of the 127 code bits the last detect's last decode attempt read correctly for
   * `payload`, before error correction (null when it attempted no decode: no sync peak above threshold).
   */
  codeBitAccuracy(payload: Uint8Array): number | null {
    const k = this.#k;
    this.#heap().set(payload.subarray(0, 8), k.expectPtr());
    const a = k.codeBitAgreement();
    return a < 0 ? null : a;
  }

  /** Bytes of linear memory the kernel holds now (it only grows; it is reused across calls). */
  get kernelMemoryBytes(): number {
    return this.#k.memoryBytes();
  }

  embed(input: { image: RgbaImage; payload: Uint8Array; strength: WatermarkStrength }): WatermarkEmbedResult {
    const { width, height } = input.image ?? {};
    let out: Uint8Array | null = null;
    let at = 0;
    const result = this.embedInto(input, {
      restart: () => {
        out ??= new Uint8Array(width * height * 4);
        at = 0;
      },
      rows: (data, count) => {
        const n = count * width * 4;
        out!.set(data.subarray(0, n), at);
        at += n;
      },
    });
    if (result.status !== "embedded") return result;
    return { status: "embedded", image: { width, height, data: out! }, psnr_db: result.psnr_db };
  }

  embedInto(
    input: { image: RgbaImage; payload: Uint8Array; strength: WatermarkStrength },
    sink: RowSink,
  ): Exclude<WatermarkEmbedResult, { status: "embedded" }> | { status: "embedded"; psnr_db: number } {
    try {
      const { image, payload, strength } = input;
      const invalid = checkImage(image);
      if (invalid) return { status: "failed", message: invalid };
      const begun = this.#begin(image.width, image.height, payload, strength);
      if (typeof begun !== "number") return begun;
      const targetDb = begun;
      const k = this.#k;
      this.#luma(image.data, image.width, image.height);
      this.#heap().set(payload, k.payloadPtr());
      k.embedPrepare(targetDb);
      for (let boost = 0; boost <= SELF_CHECK_BOOSTS; boost++) {
        if (boost > 0) k.boostGain(SELF_CHECK_BOOST);
        // The apply pass also accumulates the output's luma, exactly as detect's luma pass would.
        sink.restart();
        const psnr = this.#apply(image.data, sink, image.width, image.height);
        const found = this.#readsBack(payload);
        this.#diagnostics();
        if (found) return { status: "embedded", psnr_db: round2(psnr) };
      }
      return { status: "failed", message: "The image cannot carry a readable watermark (the self-check failed at the strongest gain)." };
    } catch (error) {
      return { status: "failed", message: `Watermark kernel error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  embedFrom(
    input: { source: RowSource; payload: Uint8Array; strength: WatermarkStrength },
    sink: RowSink,
  ): Exclude<WatermarkEmbedResult, { status: "embedded" }> | { status: "embedded"; psnr_db: number } {
    try {
      const { source, payload, strength } = input;
      const { width, height } = source ?? {};
      if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0)
        return { status: "failed", message: "The image dimensions are invalid." };
      if (width > 65_535 || height > 65_535) return { status: "failed", message: "The image is too large." };
      const begun = this.#begin(width, height, payload, strength);
      if (typeof begun !== "number") return begun;
      const targetDb = begun;
      const k = this.#k;
      // Pass 1: the canonical luma grid from a reduced read, each reduced pixel standing for its s x s block.
      const canon = Math.min(1, Math.sqrt(CANON_AREA / (width * height)));
      let scale: DecodeScale = 1;
      for (const s of [8, 4, 2] as const)
        if (s * canon * LUMA_OVERSAMPLE <= 1) {
          scale = s;
          break;
        }
      // Under ~1.8 MP the reduced read would be the full-size one: decode once (at most ~7 MB of RGBA) and take both
      // passes from it, rather than decoding the source twice (or more, with boosts).
      if (scale === 1) {
        const whole = readWholeImage(source);
        if (whole.status !== "read") return { status: "failed", message: whole.message };
        return this.embedInto({ image: whole.image, payload, strength }, sink);
      }
      k.lumaBegin();
      const luma = this.#strips(width, (y0, n) => k.lumaRows(y0, n));
      // (pass 2 reads it again: a progressive JPEG's coefficients are kept decoded for it)
      const read = source.read(expandRows(luma, width, height, scale), scale, { again: true });
      if (read.status !== "read") return { status: "failed", message: read.message };
      luma.flush();
      this.#heap().set(payload, k.payloadPtr());
      k.embedPrepare(targetDb);
      // Pass 2 (again per boost): full-size rows, marked strip by strip into the sink.
      for (let boost = 0; boost <= SELF_CHECK_BOOSTS; boost++) {
        if (boost > 0) k.boostGain(SELF_CHECK_BOOST);
        k.applyBegin();
        const apply = this.#strips(width, (y0, n) => {
          k.applyRows(y0, n);
          sink.rows(this.#heap().subarray(k.stripPtr(), k.stripPtr() + n * width * 4), n);
        });
        const marked = source.read(
          {
            restart: () => {
              // the source restarts only before its first row: the kernel's apply pass begins with it
              apply.reset();
              sink.restart();
            },
            rows: (data, count) => apply.rows(data, count),
          },
          1,
        );
        if (marked.status !== "read") return { status: "failed", message: marked.message };
        apply.flush();
        const psnr = k.applyPsnr();
        const found = this.#readsBack(payload);
        this.#diagnostics();
        if (found) return { status: "embedded", psnr_db: round2(psnr) };
      }
      return { status: "failed", message: "The image cannot carry a readable watermark (the self-check failed at the strongest gain)." };
    } catch (error) {
      return { status: "failed", message: `Watermark kernel error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  /**
   * The checks both embeds share, then the kernel's setup for a width x height image: the strength's target PSNR,
   * or the result that ends the embed.
   */
  #begin(
    width: number,
    height: number,
    payload: Uint8Array,
    strength: WatermarkStrength,
  ): number | Exclude<WatermarkEmbedResult, { status: "embedded" }> {
    if (!(payload instanceof Uint8Array) || payload.length !== 8)
      return { status: "failed", message: "The payload must be 8 bytes (64 bits)." };
    const targetDb = WATERMARK_STRENGTH_PSNR_DB[strength];
    if (typeof targetDb !== "number") return { status: "failed", message: `Unknown strength ${String(strength)}.` };
    if (Math.min(width, height) < MINIMUM_EDGE) return tooSmall();
    if (this.#k.setup(width, height) !== 0) return { status: "too_small", message: "The image is too elongated to carry the watermark." };
    return targetDb;
  }

  /**
   * Self-check after an apply pass: the detector's first stage must read `payload` back from the exact output
   * pixels, so detect(embed(x, p)) = p holds by construction (detect runs the same stage first, deterministically).
   */
  #readsBack(payload: Uint8Array): boolean {
    const k = this.#k;
    return k.detect(1) === 1 && equalBytes(this.#heap().subarray(k.payloadPtr(), k.payloadPtr() + 8), payload);
  }

  /**
   * A RowSink that gathers full-size rows into the kernel's strip buffer and calls `full(y0, n)` for each filled
   * strip (and for the last, shorter one on `flush`); the strip's contents are valid during the call only.
   */
  #strips(width: number, full: (y0: number, n: number) => void): RowSink & { flush(): void; reset(): void } {
    const k = this.#k;
    const stripRows = k.stripRows();
    const rowBytes = width * 4;
    let y0 = 0;
    let pending = 0;
    return {
      restart() {
        y0 = 0;
        pending = 0;
      },
      reset() {
        y0 = 0;
        pending = 0;
      },
      rows: (data, count) => {
        let i = 0;
        while (i < count) {
          const n = Math.min(stripRows - pending, count - i);
          this.#heap().set(data.subarray(i * rowBytes, (i + n) * rowBytes), k.stripPtr() + pending * rowBytes);
          pending += n;
          i += n;
          if (pending === stripRows) {
            full(y0, pending);
            y0 += pending;
            pending = 0;
          }
        }
      },
      flush() {
        if (pending > 0) full(y0, pending);
        y0 += pending;
        pending = 0;
      },
    };
  }

  detect(image: RgbaImage): WatermarkDetectResult {
    try {
      const invalid = checkImage(image);
      if (invalid) return { status: "failed", message: invalid };
      if (Math.min(image.width, image.height) < MINIMUM_EDGE) return { status: "not_detected" };
      const k = this.#k;
      if (k.setup(image.width, image.height) !== 0) return { status: "not_detected" };
      this.#luma(image.data, image.width, image.height);
      const found = k.detect(0) === 1;
      this.#diagnostics();
      if (!found) return { status: "not_detected" };
      const ptr = k.payloadPtr();
      const payload = this.#heap().slice(ptr, ptr + 8);
      const bitErrors = k.resultBitErrors();
      return {
        status: "detected",
        payload,
        confidence: confidence(k.resultSyncZ(), bitErrors, k.codeCorrectable()),
        bit_errors: bitErrors,
      };
    } catch (error) {
      return { status: "failed", message: `Watermark kernel error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  #heap(): Uint8Array {
    return new Uint8Array(this.#k.memory.buffer);
  }

  #diagnostics(): void {
    const k = this.#k;
    this.lastDetect = {
      syncZ: k.resultSyncZ(),
      scaleRatio: k.resultScaleRatio(),
      decodeAttempts: k.resultDecodeAttempts(),
      peakSyncZ: k.resultPeakZ(),
      scanSyncZ: k.resultScanPeakZ?.() ?? 0,
      folds: k.resultFoldCount(),
    };
  }

  /** Streams the image's rows through the kernel's strip buffer into its canonical luma accumulator. */
  #luma(data: Uint8Array, width: number, height: number): void {
    const k = this.#k;
    const rows = k.stripRows();
    const ptr = k.stripPtr();
    const rowBytes = width * 4;
    k.lumaBegin();
    for (let y = 0; y < height; y += rows) {
      const n = Math.min(rows, height - y);
      this.#heap().set(data.subarray(y * rowBytes, (y + n) * rowBytes), ptr);
      k.lumaRows(y, n);
    }
  }

  /** Hands input + residual to `sink`, strip by strip; returns the luma PSNR. */
  #apply(input: Uint8Array, sink: RowSink, width: number, height: number): number {
    const k = this.#k;
    const rows = k.stripRows();
    const ptr = k.stripPtr();
    const rowBytes = width * 4;
    k.applyBegin();
    for (let y = 0; y < height; y += rows) {
      const n = Math.min(rows, height - y);
      const start = y * rowBytes;
      const end = (y + n) * rowBytes;
      this.#heap().set(input.subarray(start, end), ptr);
      k.applyRows(y, n);
      sink.rows(this.#heap().subarray(ptr, ptr + (end - start)), n);
    }
    return k.applyPsnr();
  }
}

/**
 * Turns the rows of an image reduced 1/`scale` per side back into full-size rows for `sink`, each reduced pixel
 * repeated over its scale x scale block (clipped at the right and bottom edges).
 */
function expandRows(sink: RowSink, width: number, height: number, scale: number): RowSink {
  const row = new Uint32Array(width);
  const rowBytes = new Uint8Array(row.buffer);
  let y = 0;
  return {
    restart() {
      y = 0;
      sink.restart();
    },
    rows(data, count) {
      const reducedWidth = Math.ceil(width / scale);
      // the decoder's rows are 4-byte aligned; copy when a caller's are not
      const aligned = data.byteOffset % 4 === 0 ? data : data.slice(0, count * reducedWidth * 4);
      const words = new Uint32Array(aligned.buffer, aligned.byteOffset, count * reducedWidth);
      for (let r = 0; r < count; r++) {
        for (let c = 0, x = 0; c < reducedWidth; c++) {
          const v = words[r * reducedWidth + c]!;
          const end = Math.min(width, x + scale);
          for (; x < end; x++) row[x] = v;
        }
        const n = Math.min(scale, height - y);
        for (let i = 0; i < n; i++) sink.rows(rowBytes, 1);
        y += n;
      }
    },
  };
}

function checkImage(image: RgbaImage): string | null {
  if (!image || !Number.isSafeInteger(image.width) || !Number.isSafeInteger(image.height) || image.width <= 0 || image.height <= 0)
    return "The image dimensions are invalid.";
  const data: unknown = image.data;
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray) || data.length !== image.width * image.height * 4)
    return "The image data must be width x height x 4 bytes (RGBA).";
  if (image.width > 65_535 || image.height > 65_535) return "The image is too large.";
  return null;
}

function tooSmall(): Extract<WatermarkEmbedResult, { status: "too_small" }> {
  return { status: "too_small", message: `The watermark needs at least ${MINIMUM_EDGE} pixels on the shorter side.` };
}

/**
 * A signal-quality score in [0, 1]: half from the sync peak (z-score 5, the threshold, to 20), half from the
 * corrected bit errors (0 to t + 1). The detection itself is decided by the code and the CRC, not by this.
 */
function confidence(syncZ: number, bitErrors: number, t: number): number {
  const sync = Math.min(1, Math.max(0, (syncZ - SYNC_Z_MIN) / 15));
  const bits = 1 - Math.min(1, bitErrors / (t + 1));
  return round2(0.5 * sync + 0.5 * bits);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
