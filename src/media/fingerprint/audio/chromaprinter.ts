/**
 * Streaming Chromaprint over our kernel (wasm/chromaprint, AssemblyScript, built to wasm/build/chromaprint.wasm).
 * workerd cannot compile wasm from bytes, so the compiled module is injected: workerd code imports the `.wasm`
 * file (a `WebAssembly.Module`), Node compiles it from the file's bytes.
 *
 * Invariant: for the same samples, rate and channel count the raw fingerprint is the one libchromaprint computes
 * with its default algorithm (TEST2) and internal resampler, bit for bit, however the samples are split into
 * `write` calls (checked against upstream's vectors and against libchromaprint 1.5.1 at 8..192 kHz). The kernel's
 * memory stays 448 KiB at 44.1/48 kHz and under 1 MB at 384 kHz whatever the duration (samples go in through a
 * 128 KiB staging area; only the resampler's filter bank grows with the rate); the fingerprint itself grows by 4
 * bytes per 1365/11025 s (~1.9 KB a minute) up to `maxFrames`.
 *
 * Upstream's quirks are kept, since they decide the values: the first value needs ~3 s of audio (4096 samples at
 * 11025 Hz, 4 more frames for the smoothing, 15 more for the classifiers), and below 11025 Hz the final
 * resampling makes at most 32768 samples, so up to 32768 buffered input samples (~4 s at 8 kHz) are dropped at
 * the end. fpcalc's values differ slightly from these for the same file because fpcalc has FFmpeg resample to
 * 11025 Hz before chromaprint (test.mp3: 42 of 59 values equal, 1 % of bits): fed fpcalc's 11025 Hz PCM, the
 * values are fpcalc's exactly.
 */

/** Kernel exports (see wasm/chromaprint/index.ts for the protocol). */
interface ChromaprintExports {
  memory: WebAssembly.Memory;
  CP_OUT: WebAssembly.Global;
  OUT_CAP: WebAssembly.Global;
  STAGE_SAMPLES: WebAssembly.Global;
  cpStart(rate: number, channels: number): number;
  cpPush(count: number): number;
  cpFinish(): number;
}

/** A kernel instance and the Chromaprinter whose computation it holds (the last to start). */
interface Kernel {
  e: ChromaprintExports;
  owner: Chromaprinter | null;
}

const kernels = new WeakMap<WebAssembly.Module, Kernel>();

/** One instance per module, shared by the Chromaprinters built on it. */
function kernelOf(module: WebAssembly.Module): Kernel {
  let k = kernels.get(module);
  if (!k) {
    const e = new WebAssembly.Instance(module, {}).exports as unknown as ChromaprintExports;
    for (const name of ["cpStart", "cpPush", "cpFinish"] as const) {
      if (typeof e[name] !== "function") throw new Error(`chromaprint kernel: export ${name} missing (stale wasm/build/chromaprint.wasm?)`);
    }
    k = { e, owner: null };
    kernels.set(module, k);
  }
  return k;
}

/** Sub-fingerprints per second of audio (one every 1365 samples at 11025 Hz). */
export const CHROMAPRINT_FRAMES_PER_SECOND = 11025 / 1365;
/** Default cap on sub-fingerprints kept: 2^19 frames, about 18 hours of audio (2 MB). */
export const CHROMAPRINT_DEFAULT_MAX_FRAMES = 1 << 19;
/** Input rates accepted: above 1000 Hz (as libchromaprint) up to 384 kHz (the kernel's filter bank bound). */
export const CHROMAPRINT_MIN_RATE = 1001;
export const CHROMAPRINT_MAX_RATE = 384000;
export const CHROMAPRINT_MAX_CHANNELS = 64;

export type ChromaprinterState = "idle" | "running" | "failed";

export type ChromaprintResult =
  /** `raw`: one uint32 per frame; `truncated`: input went past `maxFrames` and the rest was ignored. */
  { status: "computed"; raw: Uint32Array; truncated: boolean } | { status: "failed"; message: string };

/**
 * Computes Chromaprint fingerprints, streaming: `start`, any number of `write`s of interleaved int16 samples (any
 * length, frames may straddle calls), `finish`. Never throws on bad input: a bad `start` or a kernel failure puts
 * it in the "failed" state (see `error`), in which `write` ignores its input and `finish` returns an empty array.
 * Chromaprinters built on the same module share one kernel instance, which holds one computation: when another
 * Chromaprinter starts on it meanwhile, this one fails ("interrupted") rather than mixing the two streams. So
 * interleave computations on one module only with separate modules (or finish one before starting the next).
 */
export class Chromaprinter {
  readonly maxFrames: number;
  readonly #module: WebAssembly.Module;
  #kernel: Kernel | null = null;
  #state: ChromaprinterState = "idle";
  #error: string | null = null;
  #stage = 0;
  #parts: Uint32Array[] = [];
  #frames = 0;
  #truncated = false;

  /** `maxFrames`: sub-fingerprints kept at most (default 2^19, ~18 h); input past it is ignored. */
  constructor(module: WebAssembly.Module, options: { maxFrames?: number } = {}) {
    const cap = options.maxFrames ?? CHROMAPRINT_DEFAULT_MAX_FRAMES;
    if (!Number.isSafeInteger(cap) || cap < 1) throw new RangeError(`maxFrames must be a positive integer: ${cap}`);
    this.maxFrames = cap;
    this.#module = module;
  }

  get state(): ChromaprinterState {
    return this.#state;
  }

  /** Why the computation failed (null unless the state is "failed"). */
  get error(): string | null {
    return this.#error;
  }

  /** Whether input went past `maxFrames` (the fingerprint covers its start only). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Frames computed so far. */
  get frames(): number {
    return this.#frames;
  }

  /** Size of the kernel's linear memory (its peak so far: a wasm memory never shrinks); 0 before first use. */
  memoryBytes(): number {
    return this.#kernel ? this.#kernel.e.memory.buffer.byteLength : 0;
  }

  /** Begins a fingerprint of `sampleRate` Hz audio with `channels` interleaved channels (discarding any other). */
  start(sampleRate: number, channels: number): void {
    this.#parts = [];
    this.#frames = 0;
    this.#truncated = false;
    this.#error = null;
    if (!Number.isInteger(sampleRate) || sampleRate < CHROMAPRINT_MIN_RATE || sampleRate > CHROMAPRINT_MAX_RATE) {
      this.#fail(`sample rate must be an integer ${CHROMAPRINT_MIN_RATE}..${CHROMAPRINT_MAX_RATE} Hz: ${sampleRate}`);
      return;
    }
    if (!Number.isInteger(channels) || channels < 1 || channels > CHROMAPRINT_MAX_CHANNELS) {
      this.#fail(`channel count must be 1..${CHROMAPRINT_MAX_CHANNELS}: ${channels}`);
      return;
    }
    try {
      this.#kernel ??= kernelOf(this.#module);
      this.#kernel.owner = this;
      this.#stage = this.#kernel.e.cpStart(sampleRate, channels) >>> 0;
      if (!this.#stage) {
        this.#fail("chromaprint kernel: start rejected (out of memory?)");
        return;
      }
      this.#state = "running";
    } catch (err) {
      this.#fail(`chromaprint kernel: ${errorMessage(err)}`);
    }
  }

  /** Feeds interleaved samples (any number; a frame split between calls is joined). Ignored unless running. */
  write(interleaved: Int16Array): void {
    if (this.#state !== "running" || this.#truncated) return;
    if (!(interleaved instanceof Int16Array)) {
      this.#fail("samples must be an Int16Array");
      return;
    }
    const k = this.#own();
    if (!k) return;
    try {
      const chunk = k.STAGE_SAMPLES.value as number;
      for (let off = 0; off < interleaved.length && !this.#truncated; off += chunk) {
        const part = interleaved.subarray(off, Math.min(interleaved.length, off + chunk));
        new Int16Array(k.memory.buffer, this.#stage, part.length).set(part);
        this.#collect(k.cpPush(part.length));
      }
    } catch (err) {
      this.#fail(`chromaprint kernel: ${errorMessage(err)}`);
    }
  }

  /**
   * Ends the input and returns the raw fingerprint (one uint32 per frame; empty when the audio was shorter than
   * the first frame's ~3 s, or the computation failed: see `state` and `error`). Leaves the instance idle.
   */
  finish(): Uint32Array {
    if (this.#state === "running") {
      try {
        const k = this.#own();
        if (k && !this.#truncated) this.#collect(k.cpFinish());
        if (k) this.#kernel!.owner = null;
        if (this.#state === "running") this.#state = "idle";
      } catch (err) {
        this.#fail(`chromaprint kernel: ${errorMessage(err)}`);
      }
    }
    if (this.#state === "failed") {
      this.#parts = [];
      return new Uint32Array(0);
    }
    const out = new Uint32Array(this.#frames);
    let at = 0;
    for (const p of this.#parts) {
      out.set(p, at);
      at += p.length;
    }
    this.#parts = [];
    return out;
  }

  /** The whole computation over one buffer of interleaved samples, as a result. */
  fingerprint(interleaved: Int16Array, sampleRate: number, channels: number): ChromaprintResult {
    this.start(sampleRate, channels);
    this.write(interleaved);
    const raw = this.finish();
    if (this.#state === "failed") return { status: "failed", message: this.#error ?? "failed" };
    return { status: "computed", raw, truncated: this.#truncated };
  }

  /** Copies the `count` sub-fingerprints the last kernel call left at CP_OUT, up to `maxFrames`. */
  #collect(count: number): void {
    if (count <= 0) return;
    const k = this.#kernel!.e;
    const cap = k.OUT_CAP.value as number;
    if (count > cap) throw new Error(`kernel produced ${count} frames in one call (capacity ${cap})`);
    const keep = Math.min(count, this.maxFrames - this.#frames);
    if (keep > 0) {
      this.#parts.push(new Uint32Array(k.memory.buffer, (k.CP_OUT.value as number) >>> 0, keep).slice());
      this.#frames += keep;
    }
    if (keep < count) this.#truncated = true;
  }

  /** The kernel's exports while it still holds this computation; otherwise fails and returns null. */
  #own(): ChromaprintExports | null {
    const k = this.#kernel;
    if (k?.owner === this) return k.e;
    this.#fail("interrupted: another Chromaprinter started on the same kernel");
    return null;
  }

  #fail(message: string): void {
    this.#state = "failed";
    this.#error = message;
    this.#parts = [];
    this.#frames = 0;
  }
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
