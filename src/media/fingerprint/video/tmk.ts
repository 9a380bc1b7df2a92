/**
 * TMK+PDQF (Meta's Temporal Match Kernel over PDQ float features, ThreatExchange tmk/): each 64x64 frame of the
 * video resampled to 15 fps gives PDQ's 256 DCT coefficients before thresholding (PDQF); TMK keeps their plain
 * average ("level 1") and, for each of Poullot's 4 periods and 32 Fourier coefficients, cosine- and
 * sine-weighted sums of the L2-normalised features over the frame number ("level 2"). Two videos compare by the
 * cosine of their averages and by the best circular-offset match of their Fourier features, normalised so a
 * video scores 1 with itself. Our own implementation of the algorithm of tmkfv.cpp; the file layout is
 * upstream's .tmk (little-endian), so our features and upstream's are interchangeable.
 *
 * The sums follow upstream's float arithmetic (f32 accumulators, f64 products with f64 cos/sin), so features
 * agree with upstream's to float rounding when the frames agree.
 */

import { checkFrame, FingerprintKernel, framePdq, type RgbFrame } from "./frames";

/** Poullot's periods (in frames at 15 fps), upstream's makePoullotPeriods. */
export const TMK_PERIODS: readonly number[] = Object.freeze([2731, 4391, 9767, 14653]);

/**
 * Poullot's Fourier coefficients (modified Bessel I_j(32) / sinh(32), j = 0..31, a_0 halved), as f32. Computed
 * here from the series rather than tabulated: the f32 values equal upstream's table.
 */
export const TMK_FOURIER_COEFFICIENTS: Float32Array = poullotCoefficients(32, 32);

/** Frames per second TMK+PDQF hashes at (upstream's TMK_DEFAULT_RESAMPLE_FPS). */
export const TMK_FPS = 15;
/** PDQF is PDQ's 16x16 coefficients. */
export const TMK_PDQF_DIMENSION = 256;

/** upstream's default thresholds for TMK+PDQF (tmk_default_thresholds.h; the README suggests >= 0.9 for exact copies). */
export const TMK_MATCH = Object.freeze({ level1: 0.7, level2: 0.7 });

/**
 * TMK feature vectors of one video. Invariant: `periods.length` = P, `fourierCoefficients.length` = C,
 * `pureAverage.length` = D, `cos` and `sin` are P x C x D (period-major, then coefficient, then dimension),
 * every value finite; `frameFeatureCount` frames went in (informational).
 */
export interface TmkFeatures {
  algorithm: "PDQF";
  framesPerSecond: number;
  frameFeatureCount: number;
  periods: Int32Array;
  fourierCoefficients: Float32Array;
  pureAverage: Float32Array;
  cos: Float32Array;
  sin: Float32Array;
}

export type TmkResult = { status: "computed"; features: TmkFeatures } | { status: "failed"; message: string };

/** I_n(x) by its power series (terms fall fast for n, x <= 32; f64 then rounded to f32). */
function besselI(n: number, x: number): number {
  let term = 1;
  for (let k = 1; k <= n; k++) term *= x / 2 / k;
  let sum = term;
  for (let k = 1; k < 500; k++) {
    term *= (x * x) / 4 / (k * (k + n));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

function poullotCoefficients(m: number, beta: number): Float32Array {
  const out = new Float32Array(m);
  const s = Math.sinh(beta);
  out[0] = (besselI(0, beta) - Math.exp(-beta)) / (2 * s);
  for (let i = 1; i < m; i++) out[i] = besselI(i, beta) / s;
  return out;
}

/** upstream's computeNorm: f32 sum of f32 squares, f32 square root. */
function normF32(v: Float32Array, from = 0, n = v.length): number {
  let sum = 0;
  for (let i = from; i < from + n; i++) {
    const e = v[i]!;
    sum = Math.fround(sum + Math.fround(e * e));
  }
  return Math.fround(Math.sqrt(sum));
}

/**
 * Accumulates TMK+PDQF over frames made as TMK_FRAME_SPEC says (64x64 RGB at 15 fps, pushed in order; the
 * frame number TMK weights by is the count of frames pushed, as upstream). Invariant: never throws; memory is
 * fixed (about 1 MiB of sums) whatever the video's length; a bad frame turns the result into `failed`.
 */
export class TmkPdqfHasher {
  readonly #kernel: FingerprintKernel;
  readonly #pure = new Float32Array(TMK_PDQF_DIMENSION);
  readonly #cos: Float32Array;
  readonly #sin: Float32Array;
  readonly #unit = new Float32Array(TMK_PDQF_DIMENSION);
  #count = 0;
  #error: string | null = null;
  #finished = false;

  constructor(module: WebAssembly.Module | FingerprintKernel) {
    this.#kernel = FingerprintKernel.of(module);
    const n = TMK_PERIODS.length * TMK_FOURIER_COEFFICIENTS.length * TMK_PDQF_DIMENSION;
    this.#cos = new Float32Array(n);
    this.#sin = new Float32Array(n);
  }

  push(frame: RgbFrame): void {
    if (this.#error !== null || this.#finished) {
      if (this.#finished && this.#error === null) this.#error = "tmk: frame pushed after finish";
      return;
    }
    try {
      const bad = checkFrame(frame);
      if (bad) {
        this.#fail(bad);
        return;
      }
      if (frame.width !== 64 || frame.height !== 64) {
        this.#fail(`frame is ${frame.width}x${frame.height}, TMK+PDQF takes 64x64`);
        return;
      }
      const r = framePdq(this.#kernel, frame, true);
      if (r.status !== "computed") {
        this.#fail(r.message);
        return;
      }
      this.#ingest(r.floats!);
    } catch (err) {
      this.#fail(err instanceof Error ? err.message : String(err));
    }
  }

  /** upstream's ingestFrameFeature(feature, t = frames so far). */
  #ingest(f: Float32Array): void {
    const D = TMK_PDQF_DIMENSION;
    const C = TMK_FOURIER_COEFFICIENTS.length;
    const pure = this.#pure;
    for (let k = 0; k < D; k++) pure[k] = pure[k]! + f[k]!;
    const u = this.#unit;
    u.set(f);
    const norm = normF32(u);
    if (norm > 0) for (let k = 0; k < D; k++) u[k] = u[k]! / norm;
    const t = this.#count;
    const cos = this.#cos;
    const sin = this.#sin;
    for (let i = 0; i < TMK_PERIODS.length; i++) {
      const T = TMK_PERIODS[i]!;
      let o = i * C * D;
      for (let k = 0; k < D; k++) cos[o + k] = cos[o + k]! + u[k]!;
      for (let j = 1; j < C; j++) {
        o = (i * C + j) * D;
        const arg = (2.0 * Math.PI * j * t) / T;
        const ca = Math.cos(arg);
        const sa = Math.sin(arg);
        for (let k = 0; k < D; k++) {
          const x = u[k]!;
          cos[o + k] = cos[o + k]! + x * ca;
          sin[o + k] = sin[o + k]! + x * sa;
        }
      }
    }
    this.#count++;
  }

  /** The features (upstream's finishFrameFeatureIngest): average divided out, each Fourier feature L2-normalised and scaled by sqrt(a_j). */
  finish(): TmkResult {
    if (this.#error !== null) return { status: "failed", message: this.#error };
    if (this.#count === 0) return { status: "failed", message: "tmk: no frames" };
    this.#finished = true;
    const D = TMK_PDQF_DIMENSION;
    const C = TMK_FOURIER_COEFFICIENTS.length;
    const pure = Float32Array.from(this.#pure);
    const n = Math.fround(this.#count);
    for (let k = 0; k < D; k++) pure[k] = pure[k]! / n;
    const cos = Float32Array.from(this.#cos);
    const sin = Float32Array.from(this.#sin);
    for (let i = 0; i < TMK_PERIODS.length; i++) {
      for (let j = 0; j < C; j++) {
        const o = (i * C + j) * D;
        const s = Math.fround(Math.sqrt(TMK_FOURIER_COEFFICIENTS[j]!));
        for (const v of [cos, sin]) {
          const norm = normF32(v, o, D);
          if (norm > 0) for (let k = o; k < o + D; k++) v[k] = v[k]! / norm;
          for (let k = o; k < o + D; k++) v[k] = v[k]! * s;
        }
      }
    }
    return {
      status: "computed",
      features: {
        algorithm: "PDQF",
        framesPerSecond: TMK_FPS,
        frameFeatureCount: this.#count,
        periods: Int32Array.from(TMK_PERIODS),
        fourierCoefficients: Float32Array.from(TMK_FOURIER_COEFFICIENTS),
        pureAverage: pure,
        cos,
        sin,
      },
    };
  }

  #fail(message: string): void {
    this.#error = message.startsWith("tmk") || message.startsWith("pdq") ? message : `tmk: ${message}`;
  }
}

// ---------------------------------------------------------------- the .tmk file

const HEADER_BYTES = 32;
const MAGIC = { project: "TMK1", fileType: "FVEC", pdqf: "PDQF" } as const;
/** Bounds a decoded file must keep (upstream writes P = 4, C = 32, D = 256): they bound memory and scoring time. */
export const TMK_DECODE_LIMITS = Object.freeze({
  maxPeriods: 16,
  maxCoefficients: 256,
  maxDimension: 4096,
  maxPeriod: 1 << 20,
  maxBytes: 64 << 20,
});

/** Bytes of the .tmk file of features with these dimensions. */
function fileBytes(P: number, C: number, D: number): number {
  return HEADER_BYTES + 4 * (P + C + D) + 8 * P * C * D;
}

/**
 * upstream's .tmk (TMKFeatureVectors::writeToOutputStream), little-endian: "TMK1" "FVEC" "PDQF", int32 fps, P,
 * C, D, frame count; int32 periods[P]; f32 coefficients[C]; f32 average[D]; f32 cos[P][C][D]; f32 sin[P][C][D].
 */
export function encodeTmk(f: TmkFeatures): Uint8Array {
  const P = f.periods.length;
  const C = f.fourierCoefficients.length;
  const D = f.pureAverage.length;
  if (f.cos.length !== P * C * D || f.sin.length !== P * C * D) throw new RangeError("tmk: features' dimensions disagree");
  const out = new Uint8Array(fileBytes(P, C, D));
  const dv = new DataView(out.buffer);
  const ascii = (s: string, at: number) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(MAGIC.project, 0);
  ascii(MAGIC.fileType, 4);
  ascii(MAGIC.pdqf, 8);
  for (const [i, v] of [f.framesPerSecond, P, C, D, f.frameFeatureCount].entries()) dv.setInt32(12 + 4 * i, v, true);
  let at = HEADER_BYTES;
  for (const p of f.periods) {
    dv.setInt32(at, p, true);
    at += 4;
  }
  for (const arr of [f.fourierCoefficients, f.pureAverage, f.cos, f.sin]) {
    for (let i = 0; i < arr.length; i++, at += 4) dv.setFloat32(at, arr[i]!, true);
  }
  return out;
}

export type TmkDecodeResult =
  | { status: "decoded"; features: TmkFeatures }
  /** Not a TMK feature-vector file, truncated, inconsistent, out of bounds, or holding non-finite values. */
  | { status: "invalid"; message: string }
  /** A well-formed TMK feature-vector file of another frame-feature algorithm than PDQF. */
  | { status: "unsupported"; message: string };

/**
 * Reads a .tmk file. Invariant: never throws, reads only inside `bytes`, allocates only after the header's
 * dimensions are checked against TMK_DECODE_LIMITS and the exact file length, so hostile input costs at most
 * its own size.
 */
export function decodeTmk(bytes: Uint8Array): TmkDecodeResult {
  const invalid = (message: string): TmkDecodeResult => ({ status: "invalid", message: `tmk: ${message}` });
  if (!(bytes instanceof Uint8Array)) return invalid("not bytes");
  if (bytes.length < HEADER_BYTES) return invalid(`${bytes.length} bytes, shorter than the ${HEADER_BYTES}-byte header`);
  if (bytes.length > TMK_DECODE_LIMITS.maxBytes) return invalid(`${bytes.length} bytes, over ${TMK_DECODE_LIMITS.maxBytes}`);
  const text = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (text(0) !== MAGIC.project || text(4) !== MAGIC.fileType) return invalid("not a TMK1/FVEC feature-vector file");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [fps, P, C, D, count] = [0, 1, 2, 3, 4].map((i) => dv.getInt32(12 + 4 * i, true)) as [number, number, number, number, number];
  if (text(8) !== MAGIC.pdqf)
    return { status: "unsupported", message: `tmk: frame-feature algorithm ${JSON.stringify(text(8))}, not PDQF` };
  const L = TMK_DECODE_LIMITS;
  if (fps <= 0 || fps > 1000) return invalid(`frames per second ${fps}`);
  if (P < 0 || P > L.maxPeriods) return invalid(`period count ${P}`);
  if (C < 0 || C > L.maxCoefficients) return invalid(`Fourier coefficient count ${C}`);
  if (D <= 0 || D > L.maxDimension) return invalid(`frame-feature dimension ${D}`);
  if (count < 0) return invalid(`frame count ${count}`);
  const expected = fileBytes(P, C, D);
  if (bytes.length !== expected) return invalid(`${bytes.length} bytes, the header's dimensions make ${expected}`);
  let at = HEADER_BYTES;
  const periods = new Int32Array(P);
  for (let i = 0; i < P; i++, at += 4) {
    const p = dv.getInt32(at, true);
    if (p <= 0 || p > L.maxPeriod) return invalid(`period ${p}`);
    periods[i] = p;
  }
  const floats = (n: number): Float32Array | null => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++, at += 4) {
      const v = dv.getFloat32(at, true);
      if (!Number.isFinite(v)) return null;
      a[i] = v;
    }
    return a;
  };
  const fourierCoefficients = floats(C);
  const pureAverage = fourierCoefficients && floats(D);
  const cos = pureAverage && floats(P * C * D);
  const sin = cos && floats(P * C * D);
  if (!fourierCoefficients || !pureAverage || !cos || !sin) return invalid("a value is not a finite number");
  return {
    status: "decoded",
    features: { algorithm: "PDQF", framesPerSecond: fps, frameFeatureCount: count, periods, fourierCoefficients, pureAverage, cos, sin },
  };
}

// ---------------------------------------------------------------- scores

export type TmkScoreResult =
  /** `level1`: cosine of the averages, -1..1; `level2`: best-offset TMK score, 1 for a video with itself. */
  | { status: "scored"; level1: number; level2: number }
  /** The two were computed with different algorithms, rates, periods, coefficients or dimensions. */
  | { status: "incompatible"; message: string };

function incompatibility(a: TmkFeatures, b: TmkFeatures): string | null {
  if (a.algorithm !== b.algorithm) return `algorithm ${a.algorithm} vs ${b.algorithm}`;
  if (a.framesPerSecond !== b.framesPerSecond) return `frames per second ${a.framesPerSecond} vs ${b.framesPerSecond}`;
  if (a.periods.length !== b.periods.length || a.periods.some((p, i) => p !== b.periods[i])) return "periods differ";
  if (a.fourierCoefficients.length !== b.fourierCoefficients.length) return "Fourier coefficient counts differ";
  for (let i = 0; i < a.fourierCoefficients.length; i++) {
    const x = a.fourierCoefficients[i]!;
    const y = b.fourierCoefficients[i]!;
    const m = Math.max(Math.abs(x), Math.abs(y));
    if (m > 0 && Math.abs((x - y) / m) > 1e-6) return `Fourier coefficient ${i} differs`;
  }
  if (a.pureAverage.length !== b.pureAverage.length) return "frame-feature dimensions differ";
  const n = a.periods.length * a.fourierCoefficients.length * a.pureAverage.length;
  if (a.cos.length !== n || a.sin.length !== n || b.cos.length !== n || b.sin.length !== n)
    return "feature sizes disagree with their dimensions";
  return null;
}

function dot(a: Float32Array, ao: number, b: Float32Array, bo: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[ao + i]! * b[bo + i]!;
  return s;
}

/**
 * upstream's computeLevel1Score and computeLevel2Score (tmkfv.cpp), in f64: level 2 is, over the periods, the
 * largest of max over offsets d = 0..T-1 of cc_0 + sum_j cos(j 2 pi d / T) (cc_j + ss_j) + sin(...) (sc_j - cs_j),
 * divided by a_0 + 2 sum_{j>0} a_j. Cost: sum of the periods x C (about 1 M multiply-adds for TMK+PDQF).
 */
export function tmkScores(a: TmkFeatures, b: TmkFeatures): TmkScoreResult {
  const why = incompatibility(a, b);
  if (why) return { status: "incompatible", message: `tmk: ${why}` };
  const D = a.pureAverage.length;
  const C = a.fourierCoefficients.length;
  const na = Math.sqrt(dot(a.pureAverage, 0, a.pureAverage, 0, D));
  const nb = Math.sqrt(dot(b.pureAverage, 0, b.pureAverage, 0, D));
  const level1 = na > 0 && nb > 0 ? dot(a.pureAverage, 0, b.pureAverage, 0, D) / (na * nb) : 0;
  if (a.periods.length === 0 || C === 0) return { status: "scored", level1, level2: 0 };
  let normalizer = a.fourierCoefficients[0]!;
  for (let j = 1; j < C; j++) normalizer += 2 * a.fourierCoefficients[j]!;
  const even = new Float64Array(C); // cc_j + ss_j
  const odd = new Float64Array(C); // sc_j - cs_j
  let best = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < a.periods.length; i++) {
    for (let j = 0; j < C; j++) {
      const o = (i * C + j) * D;
      even[j] = dot(a.cos, o, b.cos, o, D) + dot(a.sin, o, b.sin, o, D);
      odd[j] = dot(a.sin, o, b.cos, o, D) - dot(a.cos, o, b.sin, o, D);
    }
    const cc0 = dot(a.cos, i * C * D, b.cos, i * C * D, D);
    const T = a.periods[i]!;
    for (let offset = 0; offset < T; offset++) {
      const delta = (2 * Math.PI * offset) / T;
      const cd = Math.cos(delta);
      const sd = Math.sin(delta);
      // cos(j delta), sin(j delta) by rotation (f64: error ~1e-15 after 31 steps)
      let c = 1;
      let s = 0;
      let k = cc0;
      for (let j = 1; j < C; j++) {
        const c2 = c * cd - s * sd;
        s = s * cd + c * sd;
        c = c2;
        k += c * even[j]! + s * odd[j]!;
      }
      if (k > best) best = k;
    }
  }
  return { status: "scored", level1, level2: best / normalizer };
}

/** Whether scores pass upstream's two-level rule (both at least their threshold). */
export function isTmkMatch(s: TmkScoreResult, thresholds: { level1: number; level2: number } = TMK_MATCH): boolean {
  return s.status === "scored" && s.level1 >= thresholds.level1 && s.level2 >= thresholds.level2;
}
