// svc-awm-stdm-1: our keyed audio watermark, spread-transform dither modulation (STDM) on STFT log-powers
// (AssemblyScript kernel).
//
// Canonical domain: every input is downmixed to mono and resampled (windowed sinc) to 16 kHz; the mark is computed
// there, resampled back to the input rate and added to every channel alike. The pattern is defined in Hz and
// seconds, not samples: resampling 44.1 <-> 48 kHz leaves it in place.
//
// Cells: STFT frames of 512 samples (32 ms), hop 256, sqrt-Hann windows; bins 16..159 (500 Hz to 5 kHz: what a
// 64 kbit/s MP3 or a 96 kbit/s AAC keeps). A cell's feature is ln(power + floor), the floor a fixed fraction of its
// frame's mean band power (so cells a codec zeroes or fills with noise move little). Each frame's 144 bins are dealt
// (keyed) into 9 groups of 16 with balanced keyed signs, so a volume change (a constant added to every feature of a
// frame) cancels in a group's projection p = sum(sign x feature) / 4. The pattern repeats every P = 512 frames
// (8.19 s): of its 4608 groups, 3429 carry the 127 code bits (27 groups each, spread over the period by a keyed
// permutation) and 1179 a keyed sync sequence.
//
// Embed (STDM): each group's projection is moved to the nearest point of its bit's lattice (step DELTA, keyed
// dither; bit 1 half a step off bit 0), the move spread over the group's cells as changes of their log-power in the
// proportions that cost the least energy (x_i ~ 1 / (power_i + floor): loud cells change little, cells far under
// the floor no more than those at it). The mark is thus shaped by the host's own spectrum (silent where the host
// is, never more than X_MAX in a cell's log-power); host interference is not a noise here (dirty-paper coding),
// only the attack's noise is. The moves are set in closed loop (synthesise, re-analyse, correct) because
// neighbouring frames overlap. The wrapper then scales the residual down to its target SNR (a share of the way to
// the lattice point: distortion-compensated dither modulation, which the detector need not know).
//
// Detect: in windows of the canonical signal (the whole of it up to 30 s, else up to six windows of 20 s spread
// evenly, the only parts it resamples and keeps), features at four sub-hop offsets; each
// group's soft value is the cosine of its projection's phase on the lattice. A correlation with the sync sequence
// over every period phase finds the alignment (any stretch of one period plus a frame holds every group); the best
// alignments are read: soft bits summed per code bit, Chase-II (3 least reliable bits) + BCH(127,78), CRC-14 on
// the 64 payload bits.
//
// Memory: one arena reset per operation; PCM crosses in chunks of interleaved int16. Embed holds the canonical
// signal and its residual whole (16 kHz mono f32: 2 x 64 KB per second); detect holds at most 6 x 20 s of it.

import { BCH_K, BCH_N, BCH_T, bchDecode, bchEncode, bchInit } from "../shared/bch";
import { buildCodeword as buildPayloadCodeword, CHASE_BITS, CHASE_PATTERNS, chaseAttempts, chaseDecode } from "../shared/payload-code";

// ---------------------------------------------------------------------------------------------------------
// Parameters (public algorithm; changing any of them is a new algorithm version)

const RATE: i32 = 16000;
const N: i32 = 512;
const LOG2N: i32 = 9;
const H: i32 = 256;
const K0: i32 = 16; // 500 Hz
const NB: i32 = 144; // bins K0 .. K0 + 143 (4969 Hz)
const L: i32 = 16; // cells per group
const GPF: i32 = NB / L; // groups per frame
const P: i32 = 512; // frames per period
const GT: i32 = P * GPF; // groups per period
const PER_BIT: i32 = 27;
const DATA_GROUPS: i32 = BCH_N * PER_BIT;
const DELTA: f64 = 2.2; // lattice step of a group's projection (ln-power units)
const ALPHA: f64 = 1.0; // share of the way to the lattice point (the wrapper scales the residual down to its target SNR)
const X_MAX: f64 = 1.5; // largest change of a cell's ln power
const FLOOR_REL: f64 = 0.2; // feature floor, relative to the frame's mean band power
const LOOPS: i32 = 3; // closed-loop syntheses
const MOVE_MAX: f64 = DELTA; // largest move of a group's projection (the first asks at most DELTA / 2)
const SUB: i32 = 4; // detector sub-hop offsets
const SUB_STEP: i32 = H / SUB;
const WEIGHT_REL: f64 = 1e-3; // frames this far below the window's mean band power weigh ~0
const Z_MIN: f64 = 5.0; // sync z-score below which no decode is attempted
const CANDIDATES: i32 = 3; // alignments decoded per window
const MAX_WINDOWS: i32 = 6;
const WINDOW_ONE: i32 = 30 * RATE; // signals up to this long are one window
const WINDOW_LEN: i32 = 20 * RATE;
const MAX_SECONDS: i32 = 600;
const STAGE_FRAMES: i32 = 32768;
// windowed-sinc resampler: SINC_Z zero crossings each side, SINC_RES table points per crossing
const SINC_Z: i32 = 10;
const SINC_RES: i32 = 256;

const MAX_DECODE_ATTEMPTS: i32 = MAX_WINDOWS * CANDIDATES * CHASE_PATTERNS;
const INV_SQRT_L: f64 = 1.0 / Math.sqrt(<f64>L);

// ---------------------------------------------------------------------------------------------------------
// Memory

let staticTop: usize = 0;
let top: usize = 0;

function ensureMemory(end: usize): bool {
  const have = (<usize>memory.size()) << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) return false;
  }
  return true;
}

/** Arena allocation; 0 when memory cannot grow. */
function alloc(bytes: usize): usize {
  const p = (top + 15) & ~(<usize>15);
  const end = p + bytes;
  if (!ensureMemory(end)) return 0;
  top = end;
  return p;
}

@inline function ldf(base: usize, i: i32): f32 { return load<f32>(base + (<usize>i << 2)); }
@inline function stf(base: usize, i: i32, v: f32): void { store<f32>(base + (<usize>i << 2), v); }
@inline function ldd(base: usize, i: i32): f64 { return load<f64>(base + (<usize>i << 3)); }
@inline function std(base: usize, i: i32, v: f64): void { store<f64>(base + (<usize>i << 3), v); }
@inline function ldi(base: usize, i: i32): i32 { return load<i32>(base + (<usize>i << 2)); }
@inline function sti(base: usize, i: i32, v: i32): void { store<i32>(base + (<usize>i << 2), v); }

// ---------------------------------------------------------------------------------------------------------
// Static tables

let win: usize = 0; // f32[N] sqrt-Hann
let twRe: usize = 0; // f64[N/2]
let twIm: usize = 0;
let bitRev: usize = 0; // i32[N]
let sincTab: usize = 0; // f32[SINC_Z * SINC_RES + 2]
let keyBuf: usize = 0; // u8[256]
let groupBin: usize = 0; // i32[NB]: band bin (0..NB-1) of each cell of each group slot (slot g: cells g L ..)
let groupSign: usize = 0; // f32[NB]
let groupCos: usize = 0; // f64[GT]: cos and sin of each group's dither phase, 2 pi dither / DELTA
let groupSin: usize = 0;
let syncRe: usize = 0; // f32[GT]: a sync group's weights on the phasor of its projection (0 for data groups)
let syncIm: usize = 0;
let syncCount: usize = 0; // i32[P]: sync groups per period frame
let groupRole: usize = 0; // i32[GT]: code bit 0..126, or -1 / -2 for a sync group carrying 0 / 1
let groupDither: usize = 0; // f64[GT] in [0, DELTA)
let scrambler: usize = 0; // u8[128]
let layoutHash: u64 = 0;
let layoutReady: bool = false;
let ready: bool = false;

function init(): void {
  if (ready) return;
  top = (__heap_base + 15) & ~(<usize>15);
  win = alloc(<usize>N << 2);
  twRe = alloc(<usize>(N / 2) << 3);
  twIm = alloc(<usize>(N / 2) << 3);
  bitRev = alloc(<usize>N << 2);
  sincTab = alloc(<usize>(SINC_Z * SINC_RES + 2) << 2);
  keyBuf = alloc(256);
  groupBin = alloc(<usize>NB << 2);
  groupSign = alloc(<usize>NB << 2);
  groupCos = alloc(<usize>GT << 3);
  groupSin = alloc(<usize>GT << 3);
  syncRe = alloc(<usize>GT << 2);
  syncIm = alloc(<usize>GT << 2);
  syncCount = alloc(<usize>P << 2);
  groupRole = alloc(<usize>GT << 2);
  groupDither = alloc(<usize>GT << 3);
  scrambler = alloc(128);
  bchInit(alloc(2048));
  for (let i: i32 = 0; i < N; i++) stf(win, i, <f32>Math.sin((Math.PI * <f64>i) / <f64>N));
  for (let i: i32 = 0; i < N / 2; i++) {
    const a = (-2.0 * Math.PI * <f64>i) / <f64>N;
    std(twRe, i, Math.cos(a));
    std(twIm, i, Math.sin(a));
  }
  for (let i: i32 = 0; i < N; i++) {
    let r: i32 = 0;
    for (let b: i32 = 0; b < LOG2N; b++) if (i & (1 << b)) r |= 1 << (LOG2N - 1 - b);
    sti(bitRev, i, r);
  }
  // sinc(u) times a Blackman window over |u| <= SINC_Z
  for (let i: i32 = 0; i <= SINC_Z * SINC_RES + 1; i++) {
    const u = <f64>i / <f64>SINC_RES;
    let v: f64 = 0.0;
    if (u < <f64>SINC_Z) {
      const s = u == 0.0 ? 1.0 : Math.sin(Math.PI * u) / (Math.PI * u);
      const x = 0.5 + (0.5 * u) / <f64>SINC_Z; // 0.5 at the centre, 1 at the edge
      v = s * (0.42 - 0.5 * Math.cos(2.0 * Math.PI * x) + 0.08 * Math.cos(4.0 * Math.PI * x));
    }
    stf(sincTab, i, <f32>v);
  }
  staticTop = top;
  ready = true;
}

// ---------------------------------------------------------------------------------------------------------
// Keyed layout: splitmix64 seeded from an FNV-1a hash of the key bytes

let rng: u64 = 0;
function next64(): u64 {
  rng += 0x9e3779b97f4a7c15;
  let z = rng;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

@inline function below(n: i32): i32 { return <i32>(next64() % <u64>n); }

/** Builds the layout for the key bytes at keyPtr() (skipped when the key is the last one's). */
export function setKey(length: i32): void {
  init();
  let h: u64 = 0xcbf29ce484222325;
  for (let i: i32 = 0; i < length; i++) {
    h ^= <u64>load<u8>(keyBuf + i);
    h *= 0x100000001b3;
  }
  h ^= <u64>length;
  h = (h ^ 0x5356514d31) * 0x9e3779b97f4a7c15; // "SVQM1": this algorithm's own domain
  if (layoutReady && h == layoutHash) return;
  rng = h;
  // a permutation of the band's bins dealt into GPF group slots, signs balanced within each (the same in every
  // frame: a frame's projections are then computed once, whatever period frame it is matched with)
  for (let i: i32 = 0; i < NB; i++) sti(groupBin, i, i);
  for (let i: i32 = NB - 1; i > 0; i--) {
    const r = below(i + 1);
    const t = ldi(groupBin, i);
    sti(groupBin, i, ldi(groupBin, r));
    sti(groupBin, r, t);
  }
  for (let g: i32 = 0; g < GPF; g++) {
    const c0 = g * L;
    for (let i: i32 = 0; i < L; i++) stf(groupSign, c0 + i, i < L / 2 ? <f32>1.0 : <f32>-1.0);
    for (let i: i32 = L - 1; i > 0; i--) {
      const r = below(i + 1);
      const t = ldf(groupSign, c0 + i);
      stf(groupSign, c0 + i, ldf(groupSign, c0 + r));
      stf(groupSign, c0 + r, t);
    }
  }
  // roles: a permutation of the groups; the first DATA_GROUPS carry the code bits in turn, the rest sync
  for (let i: i32 = 0; i < GT; i++) sti(groupRole, i, i);
  for (let i: i32 = GT - 1; i > 0; i--) {
    const r = below(i + 1);
    const t = ldi(groupRole, i);
    sti(groupRole, i, ldi(groupRole, r));
    sti(groupRole, r, t);
  }
  for (let G: i32 = 0; G < GT; G++) {
    const rank = ldi(groupRole, G);
    sti(groupRole, G, rank < DATA_GROUPS ? rank % BCH_N : -1 - <i32>(next64() & 1));
    std(groupDither, G, (<f64>(next64() >> 11) / 9007199254740992.0) * DELTA);
    const ph = (2.0 * Math.PI * ldd(groupDither, G)) / DELTA;
    std(groupCos, G, Math.cos(ph));
    std(groupSin, G, Math.sin(ph));
  }
  // sync weights: the soft value of a group is -cos(theta - phase) = -(cos theta cos phase + sin theta sin phase);
  // a sync group carrying 0 counts it negated
  for (let j: i32 = 0; j < P; j++) sti(syncCount, j, 0);
  for (let G: i32 = 0; G < GT; G++) {
    const r = ldi(groupRole, G);
    const sgn: f64 = r >= 0 ? 0.0 : r == -2 ? -1.0 : 1.0;
    stf(syncRe, G, <f32>(sgn * ldd(groupCos, G)));
    stf(syncIm, G, <f32>(sgn * ldd(groupSin, G)));
    if (r < 0) sti(syncCount, G / GPF, ldi(syncCount, G / GPF) + 1);
  }
  for (let i: i32 = 0; i < BCH_N; i++) store<u8>(scrambler + i, <u8>(next64() & 1));
  layoutHash = h;
  layoutReady = true;
}

// ---------------------------------------------------------------------------------------------------------
// FFT: complex radix-2, in place, N points (f64)

function fft(re: usize, im: usize, inverse: bool): void {
  for (let i: i32 = 0; i < N; i++) {
    const j = ldi(bitRev, i);
    if (i < j) {
      const tr = ldd(re, i);
      std(re, i, ldd(re, j));
      std(re, j, tr);
      const ti = ldd(im, i);
      std(im, i, ldd(im, j));
      std(im, j, ti);
    }
  }
  const sgn: f64 = inverse ? -1.0 : 1.0;
  for (let half: i32 = 1, step: i32 = N >> 1; half < N; half <<= 1, step >>= 1) {
    for (let k: i32 = 0; k < half; k++) {
      const wr = ldd(twRe, k * step);
      const wi = sgn * ldd(twIm, k * step);
      for (let a: i32 = k; a < N; a += half << 1) {
        const b = a + half;
        const xr = ldd(re, b);
        const xi = ldd(im, b);
        const br = xr * wr - xi * wi;
        const bi = xr * wi + xi * wr;
        const ar = ldd(re, a);
        const ai = ldd(im, a);
        std(re, a, ar + br);
        std(im, a, ai + bi);
        std(re, b, ar - br);
        std(im, b, ai - bi);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Per-operation state

let inRate: i32 = 0;
let channels: i32 = 0;
let totalFrames: f64 = 0; // input sample frames read (at most MAX_SECONDS)
let canonLen: i32 = 0; // canonical samples they yield
let canon: usize = 0; // f32: the canonical signal (embed: whole; detect: its windows, one after the other)
let winCount: i32 = 1; // detect: windows of the canonical signal kept (the rest is never resampled)
let winLen: i32 = 0;
let winStarts: usize = 0; // i32[MAX_WINDOWS]
let resid: usize = 0; // f32[canonLen]: the canonical residual (embed)
let stage: usize = 0; // i16[STAGE_FRAMES * channels]
let payloadBuf: usize = 0;
let reBuf: usize = 0; // f64[N]
let imBuf: usize = 0;
let ola: usize = 0; // f32[N]
let feat: usize = 0; // f64[NB]
let softBuf: usize = 0; // f64[BCH_N]
let bitsBuf: usize = 0;
let codeBuf: usize = 0;
let dataBuf: usize = 0;
let chaseIdx: usize = 0;
let reps: i32 = 0;
let target: usize = 0; // f64[reps * GT]: the lattice point each group instance's projection is moved to
let move: usize = 0; // f64[reps * GT]: the projection move asked of the synthesis
// detection windows
let winFrames: i32 = 0; // frames per sub-offset in the current window
let wPh: usize = 0; // f32[SUB * maxWinFrames * GPF * 2]: phasor (cos, sin) of each group slot's projection on the lattice
let wWeight: usize = 0; // f32[SUB * maxWinFrames]
let maxWinFrames: i32 = 0;
let corr: usize = 0; // f64[SUB * P]
// resampler state (input rate -> canonical)
let hist: usize = 0; // f32[histCap]: mono input samples [histStart, histStart + histLen)
let histCap: i32 = 0;
let histStart: f64 = 0;
let histLen: i32 = 0;
let outNext: i32 = 0; // next canonical sample to produce
let fc: f64 = 0; // cutoff (Hz) of both resampling filters
// embed
let gainScale: f64 = 1.0;
let sumSignal: f64 = 0.0;
let sumNoise: f64 = 0.0;
// results
let resultErrors: i32 = 0;
let resultZ: f64 = 0.0;
let resultPeak: f64 = 0.0;
let resultStart: i32 = 0;
let resultAttempts: i32 = 0;
let softValid: bool = false;

/**
 * Prepares an operation on `frames` sample frames of `chans` interleaved channels at `rate` Hz (`embed`: with the
 * residual buffer). Returns 0; 1 when the signal is longer than MAX_SECONDS (only its first MAX_SECONDS are read);
 * 2 when memory cannot grow.
 */
export function begin(rate: i32, chans: i32, frames: f64, embed: i32): i32 {
  init();
  top = staticTop;
  inRate = rate;
  channels = chans;
  let clipped: i32 = 0;
  totalFrames = frames;
  if (frames > <f64>MAX_SECONDS * <f64>rate) {
    totalFrames = <f64>MAX_SECONDS * <f64>rate;
    clipped = 1;
  }
  canonLen = <i32>Math.floor((totalFrames * <f64>RATE) / <f64>rate);
  fc = 0.45 * <f64>min<i32>(RATE, rate);
  const hw = <i32>Math.ceil((<f64>SINC_Z * <f64>rate) / (2.0 * fc)) + 2;
  histCap = STAGE_FRAMES + 2 * hw + 8;
  // Detect keeps only its windows of the canonical signal: the whole of it up to WINDOW_ONE, else up to
  // MAX_WINDOWS windows of WINDOW_LEN spread evenly, so its memory and resampling stay bounded for any length.
  winStarts = alloc(<usize>MAX_WINDOWS << 2);
  winCount = 1;
  winLen = canonLen;
  if (!embed && canonLen > WINDOW_ONE) {
    winLen = WINDOW_LEN;
    winCount = min<i32>(MAX_WINDOWS, (canonLen + WINDOW_LEN - 1) / WINDOW_LEN);
  }
  for (let w: i32 = 0; w < winCount; w++)
    sti(winStarts, w, winCount == 1 ? 0 : <i32>((<f64>(canonLen - winLen) * <f64>w) / <f64>(winCount - 1)));
  canon = alloc(<usize>(winCount * winLen + 1) << 2);
  resid = embed ? alloc(<usize>(canonLen + 1) << 2) : 0;
  stage = alloc(<usize>(STAGE_FRAMES * chans) << 1);
  hist = alloc(<usize>histCap << 2);
  payloadBuf = alloc(16);
  reBuf = alloc(<usize>N << 3);
  imBuf = alloc(<usize>N << 3);
  ola = alloc(<usize>N << 2);
  feat = alloc(<usize>NB << 3);
  softBuf = alloc(<usize>BCH_N << 3);
  bitsBuf = alloc(128);
  codeBuf = alloc(128);
  dataBuf = alloc(128);
  chaseIdx = alloc(<usize>CHASE_BITS << 2);
  reps = canonLen / (P * H) + 2;
  target = embed ? alloc(<usize>(reps * GT) << 3) : 0;
  move = embed ? alloc(<usize>(reps * GT) << 3) : 0;
  maxWinFrames = min<i32>(canonLen, WINDOW_ONE) / H + 2;
  wPh = embed ? 0 : alloc(<usize>(SUB * maxWinFrames * GPF * 2) << 2);
  wWeight = embed ? 0 : alloc(<usize>(SUB * maxWinFrames) << 2);
  candO = alloc(<usize>CANDIDATES << 2);
  candQ = alloc(<usize>CANDIDATES << 2);
  candZ = alloc(<usize>CANDIDATES << 3);
  corr = alloc(<usize>(SUB * P) << 3);
  if (!corr) return 2;
  histStart = 0;
  histLen = 0;
  outNext = 0;
  sumSignal = 0;
  sumNoise = 0;
  gainScale = 1.0;
  softValid = false;
  return clipped;
}

export function stagePtr(): usize { return stage; }
export function stageFrames(): i32 { return STAGE_FRAMES; }
export function keyPtr(): usize { init(); return keyBuf; }
export function payloadPtr(): usize { return payloadBuf; }
export function canonicalLength(): i32 { return canonLen; }
export function memoryBytes(): f64 { return <f64>memory.size() * 65536.0; }
export function maxDecodeAttempts(): i32 { return MAX_DECODE_ATTEMPTS; }
export function codeLength(): i32 { return BCH_N; }
export function codeCorrectable(): i32 { return BCH_T; }
export function resultBitErrors(): i32 { return resultErrors; }
export function resultSyncZ(): f64 { return resultZ; }
export function resultPeakZ(): f64 { return resultPeak; }
export function resultOffset(): i32 { return resultStart; }

// ---------------------------------------------------------------------------------------------------------
// Resampling (windowed sinc; `g` converts a distance in source samples to zero crossings of the filter)

@inline function sincAt(u: f64): f32 {
  const x = Math.abs(u) * <f64>SINC_RES;
  if (x >= <f64>(SINC_Z * SINC_RES)) return 0.0;
  const i = <i32>x;
  const f = <f32>(x - <f64>i);
  const a = ldf(sincTab, i);
  return a + (ldf(sincTab, i + 1) - a) * f;
}

/** Appends the staged chunk (`frames` frames), downmixed, to the history; produces the canonical samples it allows. */
export function pushInput(frames: i32): void {
  const step = <f64>inRate / <f64>RATE;
  const hw = (<f64>SINC_Z * <f64>inRate) / (2.0 * fc);
  // drop what no future output needs
  const need = Math.floor(<f64>outNext * step - hw) - 1.0;
  if (need > histStart) {
    const drop = <i32>Math.min(need - histStart, <f64>histLen);
    memory.copy(hist, hist + (<usize>drop << 2), <usize>(histLen - drop) << 2);
    histLen -= drop;
    histStart += <f64>drop;
  }
  const inv: f32 = <f32>(1.0 / (32768.0 * <f64>channels));
  for (let i: i32 = 0; i < frames; i++) {
    let s: i32 = 0;
    const p = stage + (<usize>(i * channels) << 1);
    for (let c: i32 = 0; c < channels; c++) s += <i32>load<i16>(p + (<usize>c << 1));
    stf(hist, histLen + i, <f32>s * inv);
  }
  histLen += frames;
  produce(false);
}

/** Produces the canonical samples whose filter support the history covers (all of them when `flush`). */
function produce(flush: bool): void {
  const step = <f64>inRate / <f64>RATE;
  const g = (2.0 * fc) / <f64>inRate;
  const hw = <f64>SINC_Z / g;
  const gain = <f32>g;
  const end = histStart + <f64>histLen;
  while (outNext < canonLen) {
    const c = <f64>outNext * step;
    if (!flush && c + hw >= end) break;
    // only samples some window keeps are computed (every sample when there is one window)
    let inside = false;
    for (let w: i32 = 0; w < winCount; w++) {
      const d = outNext - ldi(winStarts, w);
      if (d >= 0 && d < winLen) inside = true;
    }
    if (!inside) {
      outNext++;
      continue;
    }
    const lo = <i32>(Math.max(Math.ceil(c - hw), histStart) - histStart);
    const hi = <i32>(Math.min(Math.floor(c + hw), end - 1.0) - histStart);
    let acc: f32 = 0.0;
    const base = c - histStart;
    for (let n: i32 = lo; n <= hi; n++) acc += ldf(hist, n) * sincAt((<f64>n - base) * g);
    const v = acc * gain;
    for (let w: i32 = 0; w < winCount; w++) {
      const d = outNext - ldi(winStarts, w);
      if (d >= 0 && d < winLen) stf(canon, w * winLen + d, v);
    }
    outNext++;
  }
}

export function finishInput(): void {
  produce(true);
}

// ---------------------------------------------------------------------------------------------------------
// Frames and features

/** sqrt-Hann windowed FFT of the frame at `start` of `a` (plus `b` when not 0), into reBuf/imBuf. */
function analyse(a: usize, b: usize, start: i32): void {
  const pa = a + (<usize>start << 2);
  if (b) {
    const pb = b + (<usize>start << 2);
    for (let i: i32 = 0; i < N; i++) {
      std(reBuf, i, <f64>((ldf(pa, i) + ldf(pb, i)) * ldf(win, i)));
      std(imBuf, i, 0.0);
    }
  } else {
    for (let i: i32 = 0; i < N; i++) {
      std(reBuf, i, <f64>(ldf(pa, i) * ldf(win, i)));
      std(imBuf, i, 0.0);
    }
  }
  fft(reBuf, imBuf, false);
}

/** Band features of the analysed frame, ln(power + floor), into feat; returns the frame's mean band power. */
function features(): f64 {
  let total: f64 = 0.0;
  for (let k: i32 = 0; k < NB; k++) {
    const re = ldd(reBuf, k + K0);
    const im = ldd(imBuf, k + K0);
    const p = re * re + im * im;
    std(feat, k, p);
    total += p;
  }
  const mean = total / <f64>NB;
  // the floor keeps near-empty cells (and cells a codec zeroes) from dominating; relative, so gain-invariant
  const floor = mean * FLOOR_REL + 1e-20;
  for (let k: i32 = 0; k < NB; k++) std(feat, k, Math.log(ldd(feat, k) + floor));
  return mean;
}

@inline function projection(g: i32): f64 {
  const c0 = g * L;
  let s: f64 = 0.0;
  for (let i: i32 = 0; i < L; i++) s += <f64>ldf(groupSign, c0 + i) * ldd(feat, ldi(groupBin, c0 + i));
  return s * INV_SQRT_L;
}

function frameCount(len: i32, offset: i32): i32 {
  return len - offset < N ? 0 : (len - offset - N) / H + 1;
}

/** The bit a group carries: its code bit (scrambled codeword in codeBuf) or its sync bit. */
@inline function groupBit(G: i32): i32 {
  const r = ldi(groupRole, G);
  return r >= 0 ? <i32>load<u8>(codeBuf + r) : -1 - r;
}

/** The lattice point of `bit` for group G nearest to `p`. */
@inline function latticePoint(G: i32, bit: i32, p: f64): f64 {
  const o = ldd(groupDither, G) + (bit ? 0.5 * DELTA : 0.0);
  return o + Math.round((p - o) / DELTA) * DELTA;
}

// ---------------------------------------------------------------------------------------------------------
// Bits: payload <-> codeword


/** Scrambled codeword bits of payloadBuf, into codeBuf. */
function buildCodeword(): void {
  buildPayloadCodeword(payloadBuf, dataBuf, codeBuf, scrambler);
}

// ---------------------------------------------------------------------------------------------------------
// Embed

/**
 * After the input was pushed: every group instance's target lattice point, then LOOPS closed-loop syntheses of
 * the residual (each after the first corrects the moves by what the marked signal's projections missed).
 * Returns 0, or 1 when the signal has no energy in the band.
 */
export function embedPrepare(): i32 {
  buildCodeword();
  const frames = frameCount(canonLen, 0);
  let energy: f64 = 0.0;
  for (let t: i32 = 0; t < frames; t++) {
    analyse(canon, 0, t * H);
    energy += features();
    const j = t % P;
    const q0 = (t / P) * GT;
    for (let g: i32 = 0; g < GPF; g++) {
      const G = j * GPF + g;
      const p = projection(g);
      // distortion-compensated: a share ALPHA of the way to the lattice point (a coarser lattice for the same power)
      const pt = p + ALPHA * (latticePoint(G, groupBit(G), p) - p);
      std(target, q0 + G, pt);
      std(move, q0 + G, pt - p);
    }
  }
  if (!(energy > 0.0)) return 1;
  for (let loop: i32 = 0; loop < LOOPS; loop++) {
    synthesise();
    if (loop == LOOPS - 1) break;
    for (let t: i32 = 0; t < frames; t++) {
      analyse(canon, resid, t * H);
      features();
      const j = t % P;
      const q0 = (t / P) * GT;
      for (let g: i32 = 0; g < GPF; g++) {
        const G = j * GPF + g;
        const q = q0 + G;
        const m = ldd(move, q) + (ldd(target, q) - projection(g));
        std(move, q, Math.max(-MOVE_MAX, Math.min(MOVE_MAX, m)));
      }
    }
  }
  return 0;
}

/** The residual for the current moves: each cell's power scaled by exp(move x sign / sqrt(L)), overlap-added. */
function synthesise(): void {
  const frames = frameCount(canonLen, 0);
  memory.fill(ola, 0, <usize>N << 2);
  memory.fill(resid, 0, <usize>canonLen << 2);
  const inv: f64 = 1.0 / <f64>N;
  for (let t: i32 = 0; t < frames; t++) {
    analyse(canon, 0, t * H);
    // the residual spectrum: zero outside the band's cells
    for (let k: i32 = 0; k < K0; k++) {
      std(reBuf, k, 0.0);
      std(imBuf, k, 0.0);
    }
    for (let k: i32 = K0 + NB; k <= N - K0 - NB; k++) {
      std(reBuf, k, 0.0);
      std(imBuf, k, 0.0);
    }
    for (let k: i32 = N - K0 + 1; k < N; k++) {
      std(reBuf, k, 0.0);
      std(imBuf, k, 0.0);
    }
    // the frame's feature floor, as features() sets it
    let total: f64 = 0.0;
    for (let k: i32 = K0; k < K0 + NB; k++) total += ldd(reBuf, k) * ldd(reBuf, k) + ldd(imBuf, k) * ldd(imBuf, k);
    const floor = (total / <f64>NB) * FLOOR_REL + 1e-20;
    const j = t % P;
    const q0 = (t / P) * GT;
    for (let g: i32 = 0; g < GPF; g++) {
      const G = j * GPF + g;
      const c0 = g * L;
      // The move's cheapest spread in energy: cell i's ln power changes by x_i = s_i kappa / (P_i + floor), so
      // loud cells change little (they dominate the SNR) and cells far under the floor (whose feature hardly moves)
      // no more than kappa / floor; kappa makes sum(s_i x_i P_i / (P_i + floor)) / sqrt(L) equal the move.
      let sens: f64 = 0.0;
      for (let i: i32 = 0; i < L; i++) {
        const k = ldi(groupBin, c0 + i) + K0;
        const pw = ldd(reBuf, k) * ldd(reBuf, k) + ldd(imBuf, k) * ldd(imBuf, k);
        sens += pw / ((pw + floor) * (pw + floor));
      }
      const kappa = sens > 0.0 ? (ldd(move, q0 + G) * Math.sqrt(<f64>L)) / sens : 0.0;
      for (let i: i32 = 0; i < L; i++) {
        const k = ldi(groupBin, c0 + i) + K0;
        const re = ldd(reBuf, k);
        const imv = ldd(imBuf, k);
        const pw = re * re + imv * imv;
        const x = Math.max(-X_MAX, Math.min(X_MAX, (<f64>ldf(groupSign, c0 + i) * kappa) / (pw + floor)));
        const c = Math.exp(0.5 * x) - 1.0; // half: x changes the ln power, the factor scales the amplitude
        const r = re * c;
        const im = imv * c;
        std(reBuf, k, r);
        std(imBuf, k, im);
        // the mirrored bin keeps the residual real
        std(reBuf, N - k, r);
        std(imBuf, N - k, -im);
      }
    }
    fft(reBuf, imBuf, true);
    const s = t * H;
    for (let i: i32 = 0; i < N; i++) stf(resid, s + i, ldf(resid, s + i) + <f32>(ldd(reBuf, i) * inv) * ldf(win, i));
  }
}

/** Scales the residual (applyChunk's gain) by `factor`. */
export function boostGain(factor: f64): void {
  gainScale *= factor;
}

export function applyBegin(): void {
  sumSignal = 0.0;
  sumNoise = 0.0;
}

/**
 * Adds the residual, resampled to the input rate, to every channel of the staged chunk (`frames` frames from
 * input frame `first`), clamped to int16; accumulates the SNR sums.
 */
export function applyChunk(first: f64, frames: i32): void {
  const step = <f64>RATE / <f64>inRate; // canonical samples per input sample
  const g = (2.0 * fc) / <f64>RATE;
  const hw = <f64>SINC_Z / g;
  // the canonical signal was the channels' mean: the residual is added to each channel in full
  const gain = g * gainScale * 32768.0;
  for (let i: i32 = 0; i < frames; i++) {
    const c = (first + <f64>i) * step;
    const lo = <i32>Math.max(Math.ceil(c - hw), 0.0);
    const hi = <i32>Math.min(Math.floor(c + hw), <f64>(canonLen - 1));
    let acc: f32 = 0.0;
    for (let n: i32 = lo; n <= hi; n++) acc += ldf(resid, n) * sincAt((<f64>n - c) * g);
    const d = <f64>acc * gain;
    const p = stage + (<usize>(i * channels) << 1);
    for (let ch: i32 = 0; ch < channels; ch++) {
      const q = p + (<usize>ch << 1);
      const x = <f64>load<i16>(q);
      let y = Math.round(x + d);
      if (y > 32767.0) y = 32767.0;
      if (y < -32768.0) y = -32768.0;
      store<i16>(q, <i16>y);
      sumSignal += x * x;
      sumNoise += (y - x) * (y - x);
    }
  }
}

export function applySnr(): f64 {
  if (!(sumNoise > 0.0)) return Infinity;
  return 10.0 * Math.log10(sumSignal / sumNoise);
}

// ---------------------------------------------------------------------------------------------------------
// Detect

// the best alignments of a window (arena buffers: the stub runtime's own heap would overlap the arena)
let candO: usize = 0; // i32[CANDIDATES]
let candQ: usize = 0; // i32[CANDIDATES]
let candZ: usize = 0; // f64[CANDIDATES]

/** Features and weights of the window [ws, ws + len) at every sub-offset. False when it holds less than a period. */
function loadWindow(base: usize, len: i32): bool {
  winFrames = frameCount(len, (SUB - 1) * SUB_STEP);
  if (winFrames < P) return false;
  let mean: f64 = 0.0;
  for (let o: i32 = 0; o < SUB; o++) {
    for (let i: i32 = 0; i < winFrames; i++) {
      analyse(base, 0, o * SUB_STEP + i * H);
      const e = features();
      const row = wPh + (<usize>((o * maxWinFrames + i) * GPF * 2) << 2);
      for (let g: i32 = 0; g < GPF; g++) {
        const th = (2.0 * Math.PI * projection(g)) / DELTA;
        stf(row, 2 * g, <f32>Math.cos(th));
        stf(row, 2 * g + 1, <f32>Math.sin(th));
      }
      stf(wWeight, o * maxWinFrames + i, <f32>e);
      mean += e;
    }
  }
  mean /= <f64>(SUB * winFrames);
  // a frame's weight: ~1 where there is signal, ~0 in silence (whose features say nothing)
  const floor = mean * WEIGHT_REL + 1e-30;
  for (let i: i32 = 0; i < SUB * maxWinFrames; i++) {
    const e = <f64>ldf(wWeight, i);
    stf(wWeight, i, <f32>(e / (e + floor)));
  }
  return true;
}

/**
 * Sync score for every (sub-offset o, phase q) — window frame i is period frame (i + q) mod P — as a z-score (each
 * sync group's soft value has variance 1/2 on unmarked audio); the CANDIDATES best distinct phases kept.
 */
function syncSearch(): void {
  for (let o: i32 = 0; o < SUB; o++) {
    for (let q: i32 = 0; q < P; q++) {
      let c: f64 = 0.0;
      let v: f64 = 0.0;
      for (let i: i32 = 0; i < winFrames; i++) {
        const w = ldf(wWeight, o * maxWinFrames + i);
        if (w < 0.01) continue;
        const j = (i + q) % P;
        const row = wPh + (<usize>((o * maxWinFrames + i) * GPF * 2) << 2);
        let s: f32 = 0.0;
        for (let g: i32 = 0; g < GPF; g++) {
          const G = j * GPF + g;
          s += ldf(row, 2 * g) * ldf(syncRe, G) + ldf(row, 2 * g + 1) * ldf(syncIm, G);
        }
        c += <f64>(w * s);
        v += <f64>(w * w) * <f64>ldi(syncCount, j);
      }
      std(corr, o * P + q, v > 0.0 ? c / Math.sqrt(0.5 * v) : 0.0);
    }
  }
  const n = SUB * P;
  for (let j: i32 = 0; j < CANDIDATES; j++) {
    let best: f64 = -Infinity;
    let bi: i32 = 0;
    for (let i: i32 = 0; i < n; i++) {
      const z = ldd(corr, i);
      if (z <= best) continue;
      // distinct phases: skip hypotheses within one hop of a kept one (any sub-offset)
      const q = i % P;
      let near = false;
      for (let m: i32 = 0; m < j; m++) {
        const d = abs<i32>(q - ldi(candQ, m));
        if (min<i32>(d, P - d) <= 1) near = true;
      }
      if (near) continue;
      best = z;
      bi = i;
    }
    sti(candO, j, bi / P);
    sti(candQ, j, bi % P);
    std(candZ, j, best);
  }
  if (ldd(candZ, 0) > resultPeak) resultPeak = ldd(candZ, 0);
}

function readSoft(o: i32, q: i32): void {
  for (let b: i32 = 0; b < BCH_N; b++) std(softBuf, b, 0.0);
  for (let i: i32 = 0; i < winFrames; i++) {
    const w = <f64>ldf(wWeight, o * maxWinFrames + i);
    const j = (i + q) % P;
    const row = wPh + (<usize>((o * maxWinFrames + i) * GPF * 2) << 2);
    for (let g: i32 = 0; g < GPF; g++) {
      const G = j * GPF + g;
      const b = ldi(groupRole, G);
      if (b < 0) continue;
      const soft = -(<f64>ldf(row, 2 * g) * ldd(groupCos, G) + <f64>ldf(row, 2 * g + 1) * ldd(groupSin, G));
      std(softBuf, b, ldd(softBuf, b) + w * soft);
    }
  }
}

/** Chase-II decoding of softBuf (shared/payload-code.ts). On success writes payloadBuf and resultErrors; returns true. */
function decodeSoft(): bool {
  const errors = chaseDecode(softBuf, scrambler, chaseIdx, bitsBuf, payloadBuf);
  resultAttempts += chaseAttempts;
  if (errors < 0) return false;
  resultErrors = errors;
  return true;
}

/**
 * After the input was pushed: 1 and payloadBuf written when a payload decodes, else 0. Signals up to 20 s are one
 * window; longer ones are read in up to MAX_WINDOWS windows of 12 s spread evenly, until one decodes.
 */
export function detect(): i32 {
  resultErrors = 0;
  resultZ = 0.0;
  resultPeak = 0.0;
  resultAttempts = 0;
  resultStart = 0;
  softValid = false;
  for (let w: i32 = 0; w < winCount; w++) {
    const ws = ldi(winStarts, w);
    if (!loadWindow(canon + (<usize>(w * winLen) << 2), winLen)) continue;
    syncSearch();
    for (let j: i32 = 0; j < CANDIDATES; j++) {
      const z = ldd(candZ, j);
      if (z < Z_MIN) break;
      const o = ldi(candO, j);
      const q = ldi(candQ, j);
      readSoft(o, q);
      softValid = true;
      if (decodeSoft()) {
        resultZ = z;
        // window frame i is period frame (i + q) mod P: a period starts at window frame (P - q) mod P
        resultStart = ws + o * SUB_STEP + ((P - q) % P) * H;
        return 1;
      }
    }
  }
  return 0;
}

/** Diagnostics: fraction of code bits the last decode attempt's soft bits got right for the payload at payloadBuf. */
export function codeBitAgreement(): f64 {
  if (!softValid) return -1.0;
  buildCodeword();
  let ok: i32 = 0;
  for (let b: i32 = 0; b < BCH_N; b++) if ((ldd(softBuf, b) > 0.0) == (load<u8>(codeBuf + b) != 0)) ok++;
  return <f64>ok / <f64>BCH_N;
}
