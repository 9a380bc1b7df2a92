// The verification's pixel plane: the decoded RGBA image box-averaged by a whole factor k (see
// src/media/fingerprint/plane.ts for why). JS pushes chunks of whole bands of k source rows into the staging area
// (about 1 MiB each); each band becomes one plane row. Edge blocks the factor does not divide average the pixels
// they have.

import { align16, reserve, workBase } from "./mem";

let srcW: i32 = 0;
let srcH: i32 = 0;
let factor: i32 = 1;
let outW: i32 = 0;
let outH: i32 = 0;
let band: i32 = 0;
let alphaAnd: u32 = 255;
let staging: usize = 0;
let stagingRows: i32 = 0;
let output: usize = 0; // u8[outW * outH * 4]

/** Source bytes the staging area holds at most (whole bands of k rows; at least one band). */
const STAGING_BYTES: u64 = 1 << 20;

/** The plane's shape and running state for a `width` x `height` image reduced by `k`; false for a bad shape. */
function planeShape(width: i32, height: i32, k: i32): bool {
  if (width <= 0 || height <= 0 || k < 1) return false;
  srcW = width;
  srcH = height;
  factor = k;
  outW = (width + k - 1) / k;
  outH = (height + k - 1) / k;
  band = 0;
  alphaAnd = 255;
  return true;
}

/**
 * Lays out a plane of a `width` x `height` image reduced by `k`; returns the staging address, or 0. The staging
 * area holds planeStagingRows() rows (whole bands), so a chunk of many bands goes in with one copy and one call.
 */
export function planeBegin(width: i32, height: i32, k: i32): usize {
  if (!planeShape(width, height, k)) return 0;
  const bandBytes = <u64>width * <u64>k * 4;
  const bands = max<u64>(1, min<u64>(STAGING_BYTES / bandBytes, <u64>outH));
  stagingRows = <i32>bands * k;
  staging = workBase();
  let end: u64 = <u64>staging + align16(bands * bandBytes);
  output = <usize>end;
  end += align16(<u64>outW * <u64>outH * 4);
  return reserve(end) ? staging : 0;
}

/**
 * planeBegin without a staging area, the plane at `base` (16-aligned up): for rows that are already in the kernel's
 * memory (planeRowsFrom), e.g. PDQ's staging chunks (pdqWorkEnd is then the base). Returns 1, or 0 when the memory
 * cannot grow.
 */
export function planeBeginAt(width: i32, height: i32, k: i32, base: usize): i32 {
  if (!planeShape(width, height, k)) return 0;
  staging = 0;
  stagingRows = 0;
  output = <usize>align16(<u64>base);
  return reserve(<u64>output + align16(<u64>outW * <u64>outH * 4)) ? 1 : 0;
}

/** Rows of the image the staging area holds (a multiple of k). */
export function planeStagingRows(): i32 {
  return stagingRows;
}

/**
 * Reduces the next `rows` source rows from the staging area: whole bands of k rows, the last band of the image
 * with the rows it has.
 */
export function planeRows(rows: i32): void {
  planeRowsFrom(staging, rows);
}

/** planeRows of `rows` source rows at `src` (whole bands of k rows; the image's last band with the rows it has). */
export function planeRowsFrom(src: usize, rows: i32): void {
  const k = factor;
  let at = src;
  for (let r: i32 = 0; r < rows && band < outH; r += k) {
    const n = min<i32>(k, rows - r);
    reduceBand(at, n);
    at += <usize>n * <usize>srcW * 4;
  }
}

/** Reduces one band (`rows` source rows at `src`, k except at the bottom edge) into the next plane row. */
function reduceBand(src: usize, rows: i32): void {
  const k = factor;
  const o = output + <usize>band * <usize>outW * 4;
  // Each output channel is the rounded mean of its block, in integers (the same plane on every runtime); the SIMD
  // paths add the same integers, so every plane is bit for bit the scalar one's (test/node/media/query-plane.test.ts).
  if (k == 2 && rows == 2) halveBand(src, o);
  else for (let bx: i32 = 0; bx < outW; bx++) sumBlock(src, rows, bx, o);
  band++;
}

/**
 * A full band of factor 2: four output pixels (a 32-byte run of two rows) at a time, the 2 x 2 sums in u16 lanes
 * (at most 1,020), (sum + 2) >> 2 as the general path's (sum + n/2) / n with n = 4; a last odd column by sumBlock.
 */
function halveBand(src: usize, o: usize): void {
  const r0 = src;
  const r1 = src + <usize>srcW * 4;
  const pairs = srcW >> 1; // output pixels with a full 2 x 2 block
  let alpha = i32x4.splat(-1);
  let bx: i32 = 0;
  for (; bx + 4 <= pairs; bx += 4) {
    const at = <usize>bx << 3;
    const a0 = v128.load(r0 + at);
    const a1 = v128.load(r0 + at, 16);
    const b0 = v128.load(r1 + at);
    const b1 = v128.load(r1 + at, 16);
    alpha = v128.and(alpha, v128.and(v128.and(a0, a1), v128.and(b0, b1)));
    // per source pixel, the two rows' sums: [p0 p1] [p2 p3] [p4 p5] [p6 p7], 4 channels each
    const s01 = i16x8.add(i16x8.extend_low_i8x16_u(a0), i16x8.extend_low_i8x16_u(b0));
    const s23 = i16x8.add(i16x8.extend_high_i8x16_u(a0), i16x8.extend_high_i8x16_u(b0));
    const s45 = i16x8.add(i16x8.extend_low_i8x16_u(a1), i16x8.extend_low_i8x16_u(b1));
    const s67 = i16x8.add(i16x8.extend_high_i8x16_u(a1), i16x8.extend_high_i8x16_u(b1));
    // even pixels plus odd pixels: output pixels [q0 q1] and [q2 q3]
    const q01 = i16x8.add(v128.shuffle<u16>(s01, s23, 0, 1, 2, 3, 8, 9, 10, 11), v128.shuffle<u16>(s01, s23, 4, 5, 6, 7, 12, 13, 14, 15));
    const q23 = i16x8.add(v128.shuffle<u16>(s45, s67, 0, 1, 2, 3, 8, 9, 10, 11), v128.shuffle<u16>(s45, s67, 4, 5, 6, 7, 12, 13, 14, 15));
    const two = i16x8.splat(2);
    const m01 = i16x8.shr_u(i16x8.add(q01, two), 2);
    const m23 = i16x8.shr_u(i16x8.add(q23, two), 2);
    v128.store(o + (<usize>bx << 2), i8x16.narrow_i16x8_u(m01, m23));
  }
  const a = v128.and(alpha, v128.shuffle<u32>(alpha, alpha, 2, 3, 0, 1));
  const lanes = i32x4.extract_lane(v128.and(a, v128.shuffle<u32>(a, a, 1, 0, 3, 2)), 0);
  alphaAnd &= <u32>lanes >>> 24;
  for (; bx < outW; bx++) sumBlock(src, 2, bx, o);
}

/** Output pixel `bx` of the band (`rows` source rows): its channels' sums in u32 lanes, then their rounded means. */
@inline
function sumBlock(src: usize, rows: i32, bx: i32, o: usize): void {
  const k = factor;
  const x0 = bx * k;
  const xEnd = min<i32>(srcW, x0 + k);
  let sum = i32x4.splat(0);
  let and: u32 = 255;
  for (let r: i32 = 0; r < rows; r++) {
    let p = src + (<usize>r * <usize>srcW + <usize>x0) * 4;
    for (let x = x0; x < xEnd; x++, p += 4) {
      const v = load<u32>(p);
      and &= v >>> 24;
      sum = i32x4.add(sum, i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p))));
    }
  }
  alphaAnd &= and;
  const n = <u32>(rows * (xEnd - x0));
  const half = n >> 1;
  const q = o + (<usize>bx << 2);
  // rounded to the nearest level, in integers (the same plane on every runtime)
  store<u8>(q, <u8>((<u32>i32x4.extract_lane(sum, 0) + half) / n));
  store<u8>(q, <u8>((<u32>i32x4.extract_lane(sum, 1) + half) / n), 1);
  store<u8>(q, <u8>((<u32>i32x4.extract_lane(sum, 2) + half) / n), 2);
  store<u8>(q, <u8>((<u32>i32x4.extract_lane(sum, 3) + half) / n), 3);
}

export function planeOutput(): usize {
  return output;
}

/** 1 when every source pixel pushed so far had alpha 255. */
export function planeOpaque(): i32 {
  return alphaAnd == 255 ? 1 : 0;
}
