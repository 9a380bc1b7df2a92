// Chroma features to sub-fingerprints: each chroma vector is smoothed over time with the taps 0.25 0.75 1 0.75
// 0.25 (the first output needs five vectors), scaled to unit Euclidean norm (near-silence, norm < 0.01, becomes
// zero), and added as a row to an integral image (cumulative sums over time and band). Once 16 rows exist, every
// new row yields one uint32: 16 classifiers, each a Haar-like box filter over 1..16 rows and some bands compared
// as log((1 + a) / (1 + b)), quantised by three thresholds into 0..3 and Gray-coded into two bits, first
// classifier in the top bits. Sums run in the same order as upstream so the doubles, and thus the bits, match.

import { emit } from "./state";

const BANDS: i32 = 12;
const TAPS: i32 = 5;
const HISTORY: i32 = 8;
/** Rows of the integral image kept (the widest classifier looks 16 rows back, plus the row before them). */
const ROWS: i32 = 32;
const WIDEST: i32 = 16;
const CLASSIFIERS: i32 = 16;

const COEFS: StaticArray<f64> = [0.25, 0.75, 1.0, 0.75, 0.25];
/** TEST2's classifiers: filter type, first band, bands, rows. */
const SHAPE: StaticArray<i32> = [
  0, 4, 3, 15,
  4, 4, 6, 15,
  1, 0, 4, 16,
  3, 8, 2, 12,
  3, 4, 4, 8,
  4, 0, 3, 5,
  1, 2, 2, 9,
  2, 7, 3, 4,
  2, 6, 2, 16,
  2, 1, 3, 2,
  5, 10, 1, 15,
  3, 6, 2, 10,
  2, 1, 1, 14,
  3, 5, 6, 4,
  1, 9, 2, 12,
  3, 4, 2, 14,
];
/** Their quantiser thresholds (three ascending per classifier). */
const THRESHOLDS: StaticArray<f64> = [
  1.98215, 2.35817, 2.63523,
  -1.03809, -0.651211, -0.282167,
  -0.298702, 0.119262, 0.558497,
  -0.105439, 0.0153946, 0.135898,
  -0.142891, 0.0258736, 0.200632,
  -0.826319, -0.590612, -0.368214,
  -0.557409, -0.233035, 0.0534525,
  -0.0646826, 0.00620476, 0.0784847,
  -0.192387, -0.029699, 0.215855,
  -0.0397818, -0.00568076, 0.0292026,
  -0.53823, -0.369934, -0.190235,
  -0.124877, 0.0296483, 0.139239,
  -0.101475, 0.0225617, 0.231971,
  -0.0799915, -0.00729616, 0.063262,
  -0.272556, 0.019424, 0.302559,
  -0.164292, -0.0321188, 0.0846339,
];

const RING: usize = memory.data(HISTORY * BANDS * 8, 16);
const SMOOTH: usize = memory.data(BANDS * 8, 16);
const IMAGE: usize = memory.data(ROWS * BANDS * 8, 16);

let ringNext: i32 = 0;
let ringSize: i32 = 1;
let rows: i32 = 0;

export function chromaReset(): void {
  ringNext = 0;
  ringSize = 1;
  rows = 0;
}

/** Takes one raw chroma vector (12 doubles at `features`). */
export function chromaFeed(features: usize): void {
  memory.copy(RING + <usize>(ringNext * BANDS * 8), features, BANDS * 8);
  ringNext = (ringNext + 1) % HISTORY;
  if (ringSize < TAPS) {
    ringSize++;
    return;
  }
  const first = (ringNext + HISTORY - TAPS) % HISTORY;
  for (let b = 0; b < BANDS; b++) {
    let v = 0.0;
    for (let j = 0; j < TAPS; j++) {
      v += load<f64>(RING + <usize>((((first + j) % HISTORY) * BANDS + b) * 8)) * unchecked(COEFS[j]);
    }
    store<f64>(SMOOTH + (<usize>b << 3), v);
  }
  let squares = 0.0;
  for (let b = 0; b < BANDS; b++) {
    const v = load<f64>(SMOOTH + (<usize>b << 3));
    squares += v * v;
  }
  const norm = squares > 0 ? Math.sqrt(squares) : 0.0;
  for (let b = 0; b < BANDS; b++) {
    const at = SMOOTH + (<usize>b << 3);
    store<f64>(at, norm < 0.01 ? 0.0 : load<f64>(at) / norm);
  }
  addRow();
  if (rows >= WIDEST) emit(subFingerprint(rows - WIDEST));
}

/** Appends SMOOTH as the next row of the integral image. */
function addRow(): void {
  const row = IMAGE + <usize>((rows % ROWS) * BANDS * 8);
  let sum = 0.0;
  for (let b = 0; b < BANDS; b++) {
    sum += load<f64>(SMOOTH + (<usize>b << 3));
    store<f64>(row + (<usize>b << 3), sum);
  }
  if (rows > 0) {
    const prev = IMAGE + <usize>(((rows - 1) % ROWS) * BANDS * 8);
    for (let b = 0; b < BANDS; b++) {
      store<f64>(row + (<usize>b << 3), load<f64>(prev + (<usize>b << 3)) + load<f64>(row + (<usize>b << 3)));
    }
  }
  rows++;
}

@inline
function cell(r: i32, c: i32): f64 {
  return load<f64>(IMAGE + <usize>(((r % ROWS) * BANDS + c) * 8));
}

/** Sum over rows r1..r2-1 and bands c1..c2-1, with upstream's branches (they round differently). */
function area(r1: i32, c1: i32, r2: i32, c2: i32): f64 {
  if (r1 == r2 || c1 == c2) return 0.0;
  if (r1 == 0) {
    if (c1 == 0) return cell(r2 - 1, c2 - 1);
    return cell(r2 - 1, c2 - 1) - cell(r2 - 1, c1 - 1);
  }
  if (c1 == 0) return cell(r2 - 1, c2 - 1) - cell(r1 - 1, c2 - 1);
  return cell(r2 - 1, c2 - 1) - cell(r1 - 1, c2 - 1) - cell(r2 - 1, c1 - 1) + cell(r1 - 1, c1 - 1);
}

/** Response of classifier filter `type` at row x: box of `w` rows from x, `h` bands from y. */
function response(type: i32, x: i32, y: i32, w: i32, h: i32): f64 {
  let a = 0.0;
  let b = 0.0;
  if (type == 0) {
    a = area(x, y, x + w, y + h);
  } else if (type == 1) {
    const h2 = h / 2;
    a = area(x, y + h2, x + w, y + h);
    b = area(x, y, x + w, y + h2);
  } else if (type == 2) {
    const w2 = w / 2;
    a = area(x + w2, y, x + w, y + h);
    b = area(x, y, x + w2, y + h);
  } else if (type == 3) {
    const w2 = w / 2;
    const h2 = h / 2;
    a = area(x, y + h2, x + w2, y + h) + area(x + w2, y, x + w, y + h2);
    b = area(x, y, x + w2, y + h2) + area(x + w2, y + h2, x + w, y + h);
  } else if (type == 4) {
    const h3 = h / 3;
    a = area(x, y + h3, x + w, y + 2 * h3);
    b = area(x, y, x + w, y + h3) + area(x, y + 2 * h3, x + w, y + h);
  } else {
    const w3 = w / 3;
    a = area(x + w3, y, x + 2 * w3, y + h);
    b = area(x, y, x + w3, y + h) + area(x + 2 * w3, y, x + w, y + h);
  }
  return Math.log((1.0 + a) / (1.0 + b));
}

function subFingerprint(x: i32): u32 {
  let bits: u32 = 0;
  for (let i = 0; i < CLASSIFIERS; i++) {
    const v = response(unchecked(SHAPE[i * 4]), x, unchecked(SHAPE[i * 4 + 1]), unchecked(SHAPE[i * 4 + 3]), unchecked(SHAPE[i * 4 + 2]));
    let q: u32;
    if (v < unchecked(THRESHOLDS[i * 3 + 1])) q = v < unchecked(THRESHOLDS[i * 3]) ? 0 : 1;
    else q = v < unchecked(THRESHOLDS[i * 3 + 2]) ? 3 : 2; // Gray code of 2 is 3, of 3 is 2
    bits = (bits << 2) | q;
  }
  return bits;
}
