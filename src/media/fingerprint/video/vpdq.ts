/**
 * vPDQ (Meta's video PDQ, ThreatExchange vpdq/): a PDQ hash (with its quality) of sampled frames, and the
 * brute-force matcher of python-threatexchange (vpdq_brute_matcher.py): each side deduplicated by exact hash,
 * frames under quality 50 dropped, then the share of one side's frames having a frame of the other within
 * Hamming distance 31, both ways. Our own implementation; PDQ is our kernel's (exact against upstream PDQ).
 */

import { pdqBitsFromHex, pdqHex } from "../codes";
import { checkFrame, FingerprintKernel, framePdq, type RgbFrame } from "./frames";

/** One hashed frame. Invariant: `bits` is 32 bytes (PDQ's 64-hex order), `quality` an integer 0..100. */
export interface VpdqFrameHash {
  /** Index of the frame among the decoded frames (0-based). */
  frame: number;
  /** upstream: frame / frame rate; without a frame rate, the decoder's timestamp. */
  timestampSeconds: number;
  quality: number;
  bits: Uint8Array;
}

/** Upstream's matching parameters (python-threatexchange vpdq_util.py, vpdq/cpp/regtest.py defaults). */
export const VPDQ_MATCH = Object.freeze({
  /** A frame pair matches at Hamming distance <= 31 (python matcher; the C++ one uses < 31). */
  distance: 31,
  /** Frames of quality under 50 take no part. */
  quality: 50,
  /** The query's frames found in the target, percent, for a match (VPDQ_QUERY_MATCH_THRESHOLD_PERCENT). */
  queryMatchPercent: 80,
  /** The target's frames found in the query, percent (VPDQ_INDEX_MATCH_THRESHOLD_PERCENT: 0, no condition). */
  targetMatchPercent: 0,
});

/**
 * How often to hash (secondsPerHash), measured by bench/video-fingerprint-recall.mjs: the registered video (the
 * index side, the matcher's target) 5 times a second, so the once-a-second samples of an excerpt, whatever its
 * start's phase, find a frame close in time (10-s excerpts of 30-s clips: 0-100 % of query frames matched with
 * both sides at 1 s, 100 % with the target at 0.2 s; no false match either way); the file being checked (the
 * query) once a second, upstream's default.
 */
export const VPDQ_SECONDS_PER_HASH = Object.freeze({ index: 0.2, query: 1 });

/** Most frames one hasher keeps (a 1-hour video hashed every frame at 60 fps is 216 000). */
export const VPDQ_MAX_HASHES = 250_000;

export type VpdqResult =
  /** `hashes` in frame order, at least one. */
  { status: "computed"; hashes: VpdqFrameHash[] } | { status: "failed"; message: string };

/** How a VpdqHasher samples (see VPDQ_SECONDS_PER_HASH for the rates to use). */
export interface VpdqHasherOptions {
  /** One hash per this many seconds (upstream's `secondsPerHash`; default 1, its signal type's); 0: every frame. */
  secondsPerHash?: number;
  /**
   * The video's average frame rate (upstream takes avg_frame_rate). Frames are then picked by index, every
   * trunc(secondsPerHash * frameRate)-th, and stamped index / frameRate, as upstream. Null: picked by timestamp.
   */
  frameRate?: number | null;
}

/**
 * Hashes the frames pushed (every decoded frame, in order, as VPDQ_FRAME_SPEC or vpdqFullResolutionFrameSpec
 * makes them) and keeps the sampled ones. Invariant: never throws; the first bad frame turns the result into
 * `failed` (later frames are ignored); memory is the hashes (about 60 bytes a frame kept), never a frame.
 */
export class VpdqHasher {
  readonly #kernel: FingerprintKernel;
  readonly #frameMod: number;
  readonly #frameRate: number | null;
  readonly #step: number;
  #nextTime = 0;
  #lastIndex = -1;
  #hashes: VpdqFrameHash[] = [];
  #error: string | null = null;

  constructor(module: WebAssembly.Module | FingerprintKernel, options: VpdqHasherOptions = {}) {
    this.#kernel = FingerprintKernel.of(module);
    const sph = options.secondsPerHash ?? 1;
    const rate = options.frameRate ?? null;
    if (!Number.isFinite(sph) || sph < 0) throw new RangeError(`vpdq: secondsPerHash must be >= 0: ${sph}`);
    if (rate !== null && (!Number.isFinite(rate) || rate <= 0)) throw new RangeError(`vpdq: frameRate must be > 0: ${rate}`);
    this.#frameRate = rate;
    this.#step = sph;
    // upstream: static_cast<int>(secondsPerHash * frameRate), at least 1
    this.#frameMod = rate === null ? 1 : Math.max(1, Math.trunc(sph * rate));
  }

  push(frame: RgbFrame): void {
    if (this.#error !== null) return;
    try {
      const bad = checkFrame(frame);
      if (bad) {
        this.#fail(bad);
        return;
      }
      if (frame.index <= this.#lastIndex) {
        this.#fail(`frame ${frame.index} after frame ${this.#lastIndex}: not in order`);
        return;
      }
      this.#lastIndex = frame.index;
      let timestampSeconds: number;
      if (this.#frameRate !== null) {
        if (frame.index % this.#frameMod !== 0) return;
        timestampSeconds = frame.index / this.#frameRate;
      } else {
        const t = frame.timestampSeconds;
        if (!Number.isFinite(t)) {
          this.#fail(`frame ${frame.index}: invalid timestamp`);
          return;
        }
        // by time: the first frame at or after each multiple of secondsPerHash (a small slack for rounded stamps)
        if (this.#hashes.length > 0 && t < this.#nextTime - 1e-6) return;
        timestampSeconds = t;
        this.#nextTime = this.#step > 0 ? (Math.floor(t / this.#step + 1e-6) + 1) * this.#step : t;
      }
      if (this.#hashes.length >= VPDQ_MAX_HASHES) {
        this.#fail(`more than ${VPDQ_MAX_HASHES} frames to hash`);
        return;
      }
      const r = framePdq(this.#kernel, frame, false);
      if (r.status !== "computed") {
        this.#fail(r.message);
        return;
      }
      this.#hashes.push({ frame: frame.index, timestampSeconds, quality: r.quality, bits: r.bits });
    } catch (err) {
      this.#fail(err instanceof Error ? err.message : String(err));
    }
  }

  finish(): VpdqResult {
    if (this.#error !== null) return { status: "failed", message: this.#error };
    if (this.#hashes.length === 0) return { status: "failed", message: "vpdq: no frames" };
    return { status: "computed", hashes: this.#hashes.slice() };
  }

  #fail(message: string): void {
    this.#error = message.startsWith("vpdq") || message.startsWith("pdq") ? message : `vpdq: ${message}`;
  }
}

/** The hashes without exact repeats of an earlier hash (upstream's dedupe: first occurrence kept, order kept). */
export function dedupeVpdq(hashes: readonly VpdqFrameHash[]): VpdqFrameHash[] {
  const seen = new Set<string>();
  const out: VpdqFrameHash[] = [];
  for (const h of hashes) {
    const key = pdqHex(h.bits);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}

/** Matching parameters; each defaults to upstream's (VPDQ_MATCH). */
export interface VpdqMatchOptions {
  distance?: number;
  quality?: number;
}

/**
 * Percent of the query's frames with a target frame within `distance`, and the other way round. Invariant:
 * both sides are first deduplicated then quality-filtered (as upstream); counts are the frames compared, and
 * with no frame left on a side both percentages are 0 (upstream's C++ matcher; its Python one divides by 0).
 */
export interface VpdqMatch {
  queryMatchPercent: number;
  targetMatchPercent: number;
  queryFrames: number;
  targetFrames: number;
}

/** Packs hashes as 8 u32 words each, for a fast brute-force Hamming scan. */
function pack(hashes: readonly VpdqFrameHash[]): Uint32Array {
  const out = new Uint32Array(hashes.length * 8);
  hashes.forEach((h, i) => {
    const b = h.bits;
    for (let w = 0; w < 8; w++) out[i * 8 + w] = ((b[4 * w]! << 24) | (b[4 * w + 1]! << 16) | (b[4 * w + 2]! << 8) | b[4 * w + 3]!) >>> 0;
  });
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many of `a`'s hashes have one in `b` within `max` bits. */
function countFound(a: Uint32Array, b: Uint32Array, max: number): number {
  let found = 0;
  const na = a.length / 8;
  const nb = b.length / 8;
  for (let i = 0; i < na; i++) {
    const o = i * 8;
    for (let j = 0; j < nb; j++) {
      const p = j * 8;
      let d = 0;
      for (let w = 0; w < 8 && d <= max; w++) d += popcount(a[o + w]! ^ b[p + w]!);
      if (d <= max) {
        found++;
        break;
      }
    }
  }
  return found;
}

/** upstream's match_VPDQ_hash_brute (dedupe, quality filter, both directions). */
export function vpdqMatch(query: readonly VpdqFrameHash[], target: readonly VpdqFrameHash[], options: VpdqMatchOptions = {}): VpdqMatch {
  const distance = options.distance ?? VPDQ_MATCH.distance;
  const quality = options.quality ?? VPDQ_MATCH.quality;
  const q = dedupeVpdq(query).filter((h) => h.quality >= quality);
  const t = dedupeVpdq(target).filter((h) => h.quality >= quality);
  if (q.length === 0 || t.length === 0)
    return { queryMatchPercent: 0, targetMatchPercent: 0, queryFrames: q.length, targetFrames: t.length };
  const qp = pack(q);
  const tp = pack(t);
  return {
    queryMatchPercent: (countFound(qp, tp, distance) * 100) / q.length,
    targetMatchPercent: (countFound(tp, qp, distance) * 100) / t.length,
    queryFrames: q.length,
    targetFrames: t.length,
  };
}

/** Whether a match meets upstream's rule (query >= 80 %, target >= 0 %) or the given percentages. */
export function isVpdqMatch(m: VpdqMatch, rule: { queryMatchPercent: number; targetMatchPercent: number } = VPDQ_MATCH): boolean {
  return (
    m.queryFrames > 0 &&
    m.targetFrames > 0 &&
    m.queryMatchPercent >= rule.queryMatchPercent &&
    m.targetMatchPercent >= rule.targetMatchPercent
  );
}

/**
 * Serialises hashes in upstream's vpdq-hash-video file format (what the upstream test vectors are): one line per
 * frame, `frame,quality,pdq_hex,timestamp` with the timestamp to 3 decimals, `\n`-terminated. About 76 bytes a
 * frame; lossless but for the timestamp's rounding to the millisecond.
 */
export function encodeVpdq(hashes: readonly VpdqFrameHash[]): string {
  let out = "";
  for (const h of hashes) out += `${h.frame},${h.quality},${pdqHex(h.bits)},${h.timestampSeconds.toFixed(3)}\n`;
  return out;
}

export type VpdqDecodeResult = { status: "decoded"; hashes: VpdqFrameHash[] } | { status: "invalid"; message: string };

const LINE = /^(\d{1,9}),(\d{1,3}),([0-9a-fA-F]{64}),(\d{1,9}(?:\.\d{1,9})?)$/;

/**
 * Parses encodeVpdq's format (and upstream's files, which are that format). Invariant: never throws; any line
 * that is not `frame,quality(0..100),64 hex,timestamp` with frames strictly increasing, or more than
 * VPDQ_MAX_HASHES lines, makes the whole input `invalid`. An empty input is valid (no frames).
 */
export function decodeVpdq(text: string): VpdqDecodeResult {
  if (typeof text !== "string") return { status: "invalid", message: "not a string" };
  // 80 bytes a line is generous for the longest valid line; refuse longer input before splitting it
  if (text.length > VPDQ_MAX_HASHES * 100) return { status: "invalid", message: "too long" };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const hashes: VpdqFrameHash[] = [];
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = LINE.exec(lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!);
    if (!m) return { status: "invalid", message: `line ${i + 1}: not frame,quality,pdq_hex,timestamp` };
    const frame = Number(m[1]);
    const quality = Number(m[2]);
    if (quality > 100) return { status: "invalid", message: `line ${i + 1}: quality ${quality} over 100` };
    if (frame <= last) return { status: "invalid", message: `line ${i + 1}: frame ${frame} not after ${last}` };
    last = frame;
    if (hashes.length >= VPDQ_MAX_HASHES) return { status: "invalid", message: `more than ${VPDQ_MAX_HASHES} frames` };
    hashes.push({ frame, quality, bits: pdqBitsFromHex(m[3]!.toLowerCase()), timestampSeconds: Number(m[4]) });
  }
  return { status: "decoded", hashes };
}
