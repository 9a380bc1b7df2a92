// Resampling to 11025 Hz the way libchromaprint does it (its bundled copy of FFmpeg's old polyphase resampler,
// configured with 16 taps per output-rate period, 256 phases, no interpolation between phases, cutoff 0.8). The
// output must be bit-exact, so this follows the same integer arithmetic: int16 Kaiser-windowed sinc coefficients
// (beta 9, rounded through a float as the original does), int32 dot products, rounding shift by 15, int16
// saturation, and the same position bookkeeping (index in 1/256 input samples plus a fractional remainder).

import { reserve, workBase } from "./state";

const PHASE_SHIFT: i32 = 8;
const PHASES: i32 = 1 << PHASE_SHIFT;
const PHASE_MASK: i32 = PHASES - 1;
const FILTER_SHIFT: i32 = 15;
const TAPS: f64 = 16.0;
const CUTOFF: f64 = 0.8;
const KAISER_BETA: f64 = 9.0;

let bank: usize = 0;
let taps: i32 = 0;
/** Output rate (the source advances dstIncr/srcIncr input samples of 1/256 per output sample). */
let srcIncr: i32 = 0;
let dstIncr: i32 = 0;
let index: i32 = 0;
let frac: i32 = 0;
/** Input samples the last resample() call used up. */
export let consumed: i32 = 0;

/** Modified Bessel function of the first kind, order 0 (power series until it stops changing). */
function bessel0(x: f64): f64 {
  let v = 1.0;
  let last = 0.0;
  let t = 1.0;
  const q = (x * x) / 4.0;
  for (let i = 1; v != last; i++) {
    last = v;
    t *= q / <f64>(i * i);
    v += t;
  }
  return v;
}

/** Number of filter taps for an input rate (the bank holds that many int16 per phase). */
export function tapsFor(inRate: i32, outRate: i32): i32 {
  const factor = Math.min((<f64>outRate * CUTOFF) / <f64>inRate, 1.0);
  return max(<i32>Math.ceil(TAPS / factor), 1);
}

/** Builds the filter bank for `inRate` -> `outRate` at the work base; false when memory cannot grow. */
export function resampleInit(outRate: i32, inRate: i32): bool {
  const factor = Math.min((<f64>outRate * CUTOFF) / <f64>inRate, 1.0);
  taps = tapsFor(inRate, outRate);
  bank = workBase();
  const tab = bank + (((<usize>taps * PHASES * 2) + 15) & ~(<usize>15));
  if (!reserve(<u64>tab + (<u64>taps << 3))) return false;
  const center = (taps - 1) / 2;
  for (let ph = 0; ph < PHASES; ph++) {
    let norm = 0.0;
    for (let i = 0; i < taps; i++) {
      const x = Math.PI * (<f64>(i - center) - <f64>ph / <f64>PHASES) * factor;
      let y = x == 0 ? 1.0 : Math.sin(x) / x;
      const w = (2.0 * x) / (factor * <f64>taps * Math.PI);
      y *= bessel0(KAISER_BETA * Math.sqrt(Math.max(1.0 - w * w, 0.0)));
      store<f64>(tab + (<usize>i << 3), y);
      norm += y;
    }
    for (let i = 0; i < taps; i++) {
      // The original rounds through a float (lrintf): round to f32 first, then to the nearest integer, ties even.
      const c = <f32>((load<f64>(tab + (<usize>i << 3)) * <f64>(1 << FILTER_SHIFT)) / norm);
      const r = <i32>nearest<f32>(c);
      store<i16>(bank + ((<usize>(ph * taps + i)) << 1), <i16>min(max(r, -32768), 32767));
    }
  }
  srcIncr = outRate;
  dstIncr = inRate * PHASES;
  index = -PHASES * ((taps - 1) / 2);
  frac = 0;
  consumed = 0;
  return true;
}

/** Dot product of `n` int16 samples and coefficients, wrapping int32 arithmetic as the C original. */
@inline
function dot(s: usize, f: usize, n: i32): i32 {
  let acc = i32x4.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    acc = i32x4.add(acc, i32x4.dot_i16x8_s(v128.load(s + (<usize>i << 1)), v128.load(f + (<usize>i << 1))));
  }
  let val = i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3);
  for (; i < n; i++) val += <i32>load<i16>(s + (<usize>i << 1)) * <i32>load<i16>(f + (<usize>i << 1));
  return val;
}

/**
 * Resamples `srcSize` int16 samples at `src` into at most `dstSize` samples at `dst`; returns how many it wrote and
 * sets `consumed` (input samples the caller may drop; the rest must be presented again at the start next time).
 * Before the first full filter window, positions left of the input mirror into it (|i| mod srcSize), as upstream.
 */
export function resample(dst: usize, src: usize, srcSize: i32, dstSize: i32): i32 {
  let idx = index;
  let fr = frac;
  const incrFrac = dstIncr % srcIncr;
  const incr = dstIncr / srcIncr;
  let n = 0;
  for (; n < dstSize; n++) {
    const filter = bank + ((<usize>(taps * (idx & PHASE_MASK))) << 1);
    const si = idx >> PHASE_SHIFT;
    let val: i32 = 0;
    if (si < 0) {
      for (let i = 0; i < taps; i++) {
        const j = abs(si + i) % srcSize;
        val += <i32>load<i16>(src + (<usize>j << 1)) * <i32>load<i16>(filter + (<usize>i << 1));
      }
    } else if (si + taps > srcSize) {
      break;
    } else {
      val = dot(src + (<usize>si << 1), filter, taps);
    }
    val = (val + (1 << (FILTER_SHIFT - 1))) >> FILTER_SHIFT;
    store<i16>(dst + (<usize>n << 1), <u32>(val + 32768) > 65535 ? <i16>((val >> 31) ^ 32767) : <i16>val);
    fr += incrFrac;
    idx += incr;
    if (fr >= srcIncr) {
      fr -= srcIncr;
      idx++;
    }
  }
  consumed = max(idx, 0) >> PHASE_SHIFT;
  if (idx >= 0) idx &= PHASE_MASK;
  index = idx;
  frac = fr;
  return n;
}
