// Frames and spectra: the 11025 Hz signal is cut into frames of 4096 samples starting every 1365 (4096/3), each
// weighted by a Hamming window scaled by 1/32767 and transformed; the power spectrum's bins 10..1307 (28..3520 Hz)
// are summed into 12 chroma bands by the pitch class of their centre frequency (octaves above 27.5 Hz).

import { chromaFeed, chromaReset } from "./chroma";

const N: i32 = 4096;
const LOG2N: i32 = 12;
const HALF: i32 = N / 2;
const STEP: i32 = N / 3;
const MIN_BIN: i32 = 10;
const MAX_BIN: i32 = 1308;
const BANDS: i32 = 12;

/** Pending samples (a frame in progress plus at most one incoming run). */
const FRAME: usize = memory.data(N * 2, 16);
const WINDOW: usize = memory.data(N * 8, 16);
/** Complex half-length transform (re, im interleaved) of the even/odd-packed real frame. */
const Z: usize = memory.data(HALF * 16, 16);
/** exp(-2 pi i k / N) for k < N/2, (cos, sin) interleaved. */
const TWIDDLE: usize = memory.data(HALF * 16, 16);
const BITREV: usize = memory.data(HALF * 4, 16);
/** Pitch class of each bin in MIN_BIN..MAX_BIN. */
const NOTE: usize = memory.data(N / 2, 16);
const FEATURES: usize = memory.data(BANDS * 8, 16);

let ready: bool = false;
let fill: i32 = 0;

function prepare(): void {
  for (let i = 0; i < N; i++) {
    const w = (1.0 / 32767.0) * (0.54 - 0.46 * Math.cos((<f64>i * 2.0 * Math.PI) / <f64>(N - 1)));
    store<f64>(WINDOW + (<usize>i << 3), w);
  }
  for (let k = 0; k < HALF; k++) {
    const a = (-2.0 * Math.PI * <f64>k) / <f64>N;
    store<f64>(TWIDDLE + (<usize>k << 4), Math.cos(a));
    store<f64>(TWIDDLE + (<usize>k << 4), Math.sin(a), 8);
  }
  for (let i = 0; i < HALF; i++) {
    let r = 0;
    for (let b = 0; b < LOG2N - 1; b++) if (i & (1 << b)) r |= 1 << (LOG2N - 2 - b);
    store<i32>(BITREV + (<usize>i << 2), r);
  }
  const base = 440.0 / 16.0;
  for (let i = MIN_BIN; i < MAX_BIN; i++) {
    const freq = (<f64>i * 11025.0) / <f64>N;
    const octave = Math.log(freq / base) / Math.log(2.0);
    const note = <f64>BANDS * (octave - Math.floor(octave));
    store<u8>(NOTE + i, <u8>(<i32>note));
  }
  ready = true;
}

export function spectrumReset(): void {
  if (!ready) prepare();
  fill = 0;
  chromaReset();
}

/** In-place radix-2 complex FFT of the HALF points at Z (input in natural order, bit-reversed here). */
function fftHalf(): void {
  for (let i = 0; i < HALF; i++) {
    const j = load<i32>(BITREV + (<usize>i << 2));
    if (j > i) {
      const a = Z + (<usize>i << 4);
      const b = Z + (<usize>j << 4);
      const t = v128.load(a);
      v128.store(a, v128.load(b));
      v128.store(b, t);
    }
  }
  for (let len = 2; len <= HALF; len <<= 1) {
    const half = len >> 1;
    // Twiddles of the length-`len` stage are exp(-2 pi i j / len) = TWIDDLE[j * (N / len)].
    const stride = N / len;
    for (let s = 0; s < HALF; s += len) {
      for (let j = 0; j < half; j++) {
        const w = TWIDDLE + (<usize>(j * stride) << 4);
        const wr = load<f64>(w);
        const wi = load<f64>(w, 8);
        const a = Z + (<usize>(s + j) << 4);
        const b = Z + (<usize>(s + j + half) << 4);
        const br = load<f64>(b);
        const bi = load<f64>(b, 8);
        const tr = br * wr - bi * wi;
        const ti = br * wi + bi * wr;
        const ar = load<f64>(a);
        const ai = load<f64>(a, 8);
        store<f64>(a, ar + tr);
        store<f64>(a, ai + ti, 8);
        store<f64>(b, ar - tr);
        store<f64>(b, ai - ti, 8);
      }
    }
  }
}

/** |X[k]|^2 of the real frame X, from the packed half-length transform Z (z[n] = x[2n] + i x[2n+1]). */
@inline
function power(k: i32): f64 {
  const a = Z + (<usize>(k & (HALF - 1)) << 4);
  const b = Z + (<usize>((HALF - k) & (HALF - 1)) << 4);
  const zr = load<f64>(a);
  const zi = load<f64>(a, 8);
  const cr = load<f64>(b);
  const ci = -load<f64>(b, 8);
  // Even part E = (Z[k] + conj Z[N/2-k]) / 2, odd part O = (Z[k] - conj Z[N/2-k]) / 2i, X = E + W^k O.
  const er = 0.5 * (zr + cr);
  const ei = 0.5 * (zi + ci);
  const or_ = 0.5 * (zi - ci);
  const oi = -0.5 * (zr - cr);
  let wr = 1.0;
  let wi = 0.0;
  if (k == HALF) {
    wr = -1.0;
  } else if (k > 0) {
    const w = TWIDDLE + (<usize>k << 4);
    wr = load<f64>(w);
    wi = load<f64>(w, 8);
  }
  const xr = er + (or_ * wr - oi * wi);
  const xi = ei + (or_ * wi + oi * wr);
  return xr * xr + xi * xi;
}

/** Transforms the frame at FRAME and hands its chroma vector on. */
function frame(): void {
  for (let n = 0; n < HALF; n++) {
    const s = FRAME + (<usize>n << 2);
    const w = WINDOW + (<usize>n << 4);
    store<f64>(Z + (<usize>n << 4), <f64>load<i16>(s) * load<f64>(w));
    store<f64>(Z + (<usize>n << 4), <f64>load<i16>(s, 2) * load<f64>(w, 8), 8);
  }
  fftHalf();
  memory.fill(FEATURES, 0, BANDS * 8);
  for (let k = MIN_BIN; k < MAX_BIN; k++) {
    const f = FEATURES + (<usize>load<u8>(NOTE + k) << 3);
    store<f64>(f, load<f64>(f) + power(k));
  }
  chromaFeed(FEATURES);
}

/** Appends `count` int16 samples at 11025 Hz, transforming every complete frame. */
export function spectrumFeed(src: usize, count: i32): void {
  let p = src;
  let left = count;
  while (left > 0) {
    const n = min(left, N - fill);
    memory.copy(FRAME + (<usize>fill << 1), p, <usize>n << 1);
    fill += n;
    p += <usize>n << 1;
    left -= n;
    if (fill == N) {
      frame();
      memory.copy(FRAME, FRAME + (<usize>STEP << 1), <usize>(N - STEP) << 1);
      fill = N - STEP;
    }
  }
}
