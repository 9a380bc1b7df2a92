import { equalBytes } from "../../../platform/bytes";
import { watermarkFalsePositiveBound } from "../kernel";
import type { AudioPcm, AudioWatermarkDetectResult, AudioWatermarkEmbedResult, AudioWatermarker } from "./types";

/**
 * Our own audio watermark: keyed spread-transform dither modulation (STDM) on STFT log-powers (500 Hz to 5 kHz) of a
 * canonical 16 kHz mono signal, a keyed sync sequence found by correlation over every alignment, a scrambled
 * BCH(127,78) codeword (64 payload bits + CRC-14), the whole pattern repeated every 8.19 s. Version 1; any change to
 * the kernel's parameters, layout or code is a new name.
 */
export const AUDIO_WATERMARK_ALGORITHM = "svc-awm-stdm-1";

/** SNR (dB, output against input over all channels) the embedder scales the mark to when it would be louder. */
export const AUDIO_WATERMARK_TARGET_SNR_DB = 31;
/** The embedder never goes below this SNR (it fails instead). */
export const AUDIO_WATERMARK_MIN_SNR_DB = 30;
/** Audio shorter than this is too_short (embed) or not_detected (detect): one period of the pattern, plus margins. */
export const AUDIO_WATERMARK_MINIMUM_SECONDS = 9;
/** Longest audio embedded (the kernel holds the canonical signal whole, 64 KB per second); detect reads this much. */
export const AUDIO_WATERMARK_MAXIMUM_SECONDS = 600;
const MIN_RATE = 8000;
const MAX_RATE = 192_000;
const MAX_CHANNELS = 32;
const MAX_KEY_BYTES = 256;
/** The kernel's sync threshold (z-score); a detection always has a sync peak at least this. */
const SYNC_Z_MIN = 5;
const CANONICAL_RATE = 16_000;

interface KernelExports {
  memory: WebAssembly.Memory;
  begin(rate: number, channels: number, frames: number, embed: number): number;
  keyPtr(): number;
  setKey(length: number): void;
  stagePtr(): number;
  stageFrames(): number;
  payloadPtr(): number;
  pushInput(frames: number): void;
  finishInput(): void;
  embedPrepare(): number;
  boostGain(factor: number): void;
  applyBegin(): void;
  applyChunk(first: number, frames: number): void;
  applySnr(): number;
  detect(): number;
  resultBitErrors(): number;
  resultSyncZ(): number;
  resultPeakZ(): number;
  resultOffset(): number;
  maxDecodeAttempts(): number;
  codeLength(): number;
  codeCorrectable(): number;
  memoryBytes(): number;
  codeBitAgreement(): number;
}

/** Diagnostics of the last detect (for benchmarks and tests; not part of the AudioWatermarker interface). */
export interface AudioWatermarkDiagnostics {
  /** Sync z-score of the decoded alignment (0 when nothing decoded). */
  syncZ: number;
  /** Highest sync z-score over every alignment (the margin below the threshold on unmarked audio). */
  peakSyncZ: number;
  bitErrors: number;
}

const instances = new WeakMap<WebAssembly.Module, KernelExports>();

/**
 * The audio watermark kernel (wasm/audiowm, AssemblyScript) behind AudioWatermarker. Constructed from a compiled
 * module (workerd forbids compiling wasm at run time: import the `.wasm` file there; Node compiles the bytes); one
 * kernel instance per module. PCM crosses into the kernel in chunks of 32768 frames. Memory: embed holds the
 * canonical signal and its residual (16 kHz mono f32, 128 KB per second: 79 MiB of kernel memory for 10 minutes)
 * plus the output it returns (the input's size); detect keeps at most 6 windows of 20 s of the canonical signal
 * (~8 MiB whatever the length). Not reentrant (synchronous calls on one instance), which is all a Worker isolate needs.
 */
export class WasmAudioWatermarker implements AudioWatermarker {
  readonly algorithm = AUDIO_WATERMARK_ALGORITHM;
  readonly payloadBits = 64 as const;
  readonly minimumSeconds = AUDIO_WATERMARK_MINIMUM_SECONDS;
  readonly minimumSnrDb = AUDIO_WATERMARK_MIN_SNR_DB;
  readonly falsePositiveBound: number;
  lastDetect: AudioWatermarkDiagnostics = { syncZ: 0, peakSyncZ: 0, bitErrors: 0 };
  /** Diagnostics: the share of the full lattice move the last embed kept to meet the target SNR (1: all of it). */
  lastEmbedScale = 1;
  readonly #k: KernelExports;

  constructor(module: WebAssembly.Module) {
    let k = instances.get(module);
    if (!k) {
      k = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
      for (const name of ["begin", "setKey", "pushInput", "embedPrepare", "applyChunk", "detect"] as const)
        if (typeof k[name] !== "function")
          throw new Error(`audio watermark kernel: export ${name} missing (stale wasm/build/audiowm.wasm?)`);
      instances.set(module, k);
    }
    this.#k = k;
    this.falsePositiveBound = watermarkFalsePositiveBound(k.codeLength(), k.codeCorrectable(), 64, k.maxDecodeAttempts());
  }

  /** Bytes of linear memory the kernel holds now (its peak so far: a wasm memory never shrinks). */
  get kernelMemoryBytes(): number {
    return this.#k.memoryBytes();
  }

  /**
   * Diagnostics: the fraction of the 127 code bits the last detect's last decode attempt read right for `payload`
   * (and the key of that detect), before error correction; null when no decode was attempted.
   */
  codeBitAccuracy(payload: Uint8Array): number | null {
    const k = this.#k;
    this.#heap().set(payload.subarray(0, 8), k.payloadPtr());
    const a = k.codeBitAgreement();
    return a < 0 ? null : a;
  }

  embed(input: AudioPcm & { payload: Uint8Array; key: Uint8Array }): AudioWatermarkEmbedResult {
    try {
      const invalid = checkAudio(input) ?? checkKey(input?.key);
      if (invalid) return { status: "failed", message: invalid };
      const { pcm, sampleRate, channels, payload, key } = input;
      if (!(payload instanceof Uint8Array) || payload.length !== 8)
        return { status: "failed", message: "The payload must be 8 bytes (64 bits)." };
      const frames = pcm.length / channels;
      if (frames < AUDIO_WATERMARK_MINIMUM_SECONDS * sampleRate)
        return { status: "too_short", message: `The watermark needs at least ${AUDIO_WATERMARK_MINIMUM_SECONDS} seconds of audio.` };
      if (frames > AUDIO_WATERMARK_MAXIMUM_SECONDS * sampleRate)
        return { status: "failed", message: `The watermark embeds audio of at most ${AUDIO_WATERMARK_MAXIMUM_SECONDS} seconds.` };
      const k = this.#k;
      this.#setKey(key);
      if (!this.#load(pcm, sampleRate, channels, true)) return { status: "failed", message: "The watermark kernel is out of memory." };
      this.#heap().set(payload, k.payloadPtr());
      if (k.embedPrepare() !== 0)
        return { status: "failed", message: "The audio cannot carry a watermark (no signal between 500 Hz and 5 kHz)." };
      const out = new Int16Array(pcm.length);
      // The kernel moves every group's projection all the way to its lattice point (the most robust mark); the
      // residual is then scaled to the target SNR (a share of the way: distortion-compensated dither modulation,
      // which the detector does not need to know), never up.
      let scale = 1;
      let snr = this.#apply(pcm, out, channels);
      for (let i = 0; i < 3 && snr < AUDIO_WATERMARK_TARGET_SNR_DB - 0.1; i++) {
        const factor = 10 ** ((snr - AUDIO_WATERMARK_TARGET_SNR_DB - 0.05) / 20);
        scale *= factor;
        k.boostGain(factor);
        snr = this.#apply(pcm, out, channels);
      }
      this.lastEmbedScale = scale;
      // self-check: the detector must read the payload back from the exact output samples
      if (snr >= AUDIO_WATERMARK_MIN_SNR_DB) {
        const found = this.#detect(out, sampleRate, channels);
        if (found && equalBytes(this.#heap().subarray(k.payloadPtr(), k.payloadPtr() + 8), payload))
          return { status: "embedded", pcm: out, snr_db: round2(snr) };
      }
      return { status: "failed", message: "The audio cannot carry a readable watermark at the minimum SNR (the self-check failed)." };
    } catch (error) {
      return { status: "failed", message: `Audio watermark kernel error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  detect(input: AudioPcm & { key: Uint8Array }): AudioWatermarkDetectResult {
    try {
      const invalid = checkAudio(input) ?? checkKey(input?.key);
      if (invalid) return { status: "failed", message: invalid };
      const { pcm, sampleRate, channels, key } = input;
      this.lastDetect = { syncZ: 0, peakSyncZ: 0, bitErrors: 0 };
      if (pcm.length / channels < AUDIO_WATERMARK_MINIMUM_SECONDS * sampleRate) return { status: "not_detected" };
      this.#setKey(key);
      const found = this.#detect(pcm, sampleRate, channels);
      if (found === null) return { status: "failed", message: "The watermark kernel is out of memory." };
      const k = this.#k;
      if (!found) return { status: "not_detected" };
      const ptr = k.payloadPtr();
      return {
        status: "detected",
        payload: this.#heap().slice(ptr, ptr + 8),
        confidence: confidence(k.resultSyncZ(), k.resultBitErrors(), k.codeCorrectable()),
        offsetSeconds: Math.round((k.resultOffset() / CANONICAL_RATE) * 1000) / 1000,
      };
    } catch (error) {
      return { status: "failed", message: `Audio watermark kernel error: ${String((error as Error)?.message ?? error)}` };
    }
  }

  #heap(): Uint8Array {
    return new Uint8Array(this.#k.memory.buffer);
  }

  #setKey(key: Uint8Array): void {
    const k = this.#k;
    const at = k.keyPtr(); // first: the kernel's first call may grow its memory
    this.#heap().set(key, at);
    k.setKey(key.length);
  }

  /** Begins an operation and pushes the PCM (at most the kernel's maximum duration) into its canonical signal. */
  #load(pcm: Int16Array, rate: number, channels: number, embed: boolean): boolean {
    const k = this.#k;
    const frames = Math.min(pcm.length / channels, AUDIO_WATERMARK_MAXIMUM_SECONDS * rate);
    if (k.begin(rate, channels, frames, embed ? 1 : 0) > 1) return false;
    const chunk = k.stageFrames();
    for (let f = 0; f < frames; f += chunk) {
      const n = Math.min(chunk, frames - f);
      new Int16Array(k.memory.buffer, k.stagePtr(), n * channels).set(pcm.subarray(f * channels, (f + n) * channels));
      k.pushInput(n);
    }
    k.finishInput();
    return true;
  }

  /** Writes input + mark into `out`, chunk by chunk; returns the SNR. */
  #apply(pcm: Int16Array, out: Int16Array, channels: number): number {
    const k = this.#k;
    const frames = pcm.length / channels;
    const chunk = k.stageFrames();
    k.applyBegin();
    for (let f = 0; f < frames; f += chunk) {
      const n = Math.min(chunk, frames - f);
      const stage = new Int16Array(k.memory.buffer, k.stagePtr(), n * channels);
      stage.set(pcm.subarray(f * channels, (f + n) * channels));
      k.applyChunk(f, n);
      out.set(stage, f * channels);
    }
    return k.applySnr();
  }

  /** Loads and detects; null when the kernel cannot allocate. Records the diagnostics. */
  #detect(pcm: Int16Array, rate: number, channels: number): boolean | null {
    if (!this.#load(pcm, rate, channels, false)) return null;
    const k = this.#k;
    const found = k.detect() === 1;
    this.lastDetect = { syncZ: k.resultSyncZ(), peakSyncZ: k.resultPeakZ(), bitErrors: found ? k.resultBitErrors() : 0 };
    return found;
  }
}

function checkAudio(input: AudioPcm | undefined): string | null {
  if (!input || typeof input !== "object") return "No audio.";
  const { pcm, sampleRate, channels } = input;
  if (!(pcm instanceof Int16Array)) return "The samples must be an Int16Array (interleaved 16-bit PCM).";
  if (!Number.isInteger(channels) || channels < 1 || channels > MAX_CHANNELS) return `The channel count must be 1..${MAX_CHANNELS}.`;
  if (!Number.isInteger(sampleRate) || sampleRate < MIN_RATE || sampleRate > MAX_RATE)
    return `The sample rate must be an integer from ${MIN_RATE} to ${MAX_RATE} Hz.`;
  if (pcm.length % channels !== 0) return "The sample count is not a whole number of frames.";
  return null;
}

function checkKey(key: Uint8Array | undefined): string | null {
  if (!(key instanceof Uint8Array) || key.length < 1 || key.length > MAX_KEY_BYTES) return `The key must be 1..${MAX_KEY_BYTES} bytes.`;
  return null;
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
