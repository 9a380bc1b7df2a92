// ISCC Content-Code Image v0 (ISO 24138), our implementation.
//
// Two steps, as iscc-sdk + iscc-core define them:
//  1. Normalization (iscc-sdk `image_normalize` on a Pillow image): white background under transparency, trim of
//     the uniform border (the bounding box of every pixel that differs from the top-left one), grayscale with
//     PIL's "L" formula, resize to 32x32 with PIL's BICUBIC resampler (a separable two-pass convolution with
//     22-bit fixed-point coefficients, horizontal pass first, each pass rounded to 8 bits).
//  2. Hash (iscc-core `soft_hash_image_v0`): 2-D DCT of the 32x32 pixels (the recursive DCT of iscc-core, in
//     f64 and in the same operation order), then for four 8x8 blocks of low frequencies one bit per coefficient:
//     greater than the block's median.
//
// The image arrives in chunks of RGBA bytes (the JS side copies them into the staging area) so that nothing of
// full image size is ever held here: pass 1 finds the trim box; pass 2 streams the rows inside it, one gray row at
// a time, through the horizontal pass (PIL's dot products over a coefficient table) and adds each finished 32-pixel
// row into the 32x32 accumulators of the output rows whose window holds it (coefficients computed per row, so a
// tall image needs no table). Integer sums do not depend on the order of their terms, so this equals PIL exactly.
// Crops too wide for a coefficient table instead scatter each pixel into the output columns whose window holds
// it, with coefficients computed per pixel: the same integers again.

import { align16, compositeWhite, reserve, workBase } from "./mem";

// ---------------------------------------------------------------- outputs shared with JS

/** The 32x32 normalized gray pixels (input of the hash step; JS may write them to hash given pixels). */
export const ISCC_PIXELS: usize = memory.data(1024, 16);
/** The hash digest (up to 32 bytes). */
export const ISCC_DIGEST: usize = memory.data(32, 16);
/** i32 results for JS: [0] first row to send in pass 2, [1] row after the last, [2..5] trim box x, y, w, h. */
export const ISCC_INFO: usize = memory.data(32, 16);

// ---------------------------------------------------------------- state

let imgW: i32 = 0;
let imgH: i32 = 0;
let staging: usize = 0;
let stagingBytes: i32 = 0;
let curX: i32 = 0;
let curY: i32 = 0;

// pass 1: trim box
let refColor: u32 = 0;
let found: bool = false;
let boxX0: i32 = 0;
let boxX1: i32 = 0; // inclusive
let boxY0: i32 = 0;
let boxY1: i32 = 0; // inclusive
let rowFirst: i32 = -1;
let rowLast: i32 = -1;

// pass 2: resample of the crop (cropX, cropY, cropW, cropH) to 32x32
let cropX: i32 = 0;
let cropY: i32 = 0;
let cropW: i32 = 0;
let cropH: i32 = 0;
let needH: bool = false;
let needV: bool = false;
let hInv: f64 = 0;
let vInv: f64 = 0;
let hTable: usize = 0; // i32 coefficients per output column, or 0: computed per pixel
let grayRow: usize = 0; // u8 x cropW: the gray row for the table form, or 0: scatter each pixel
let hFirst: i32 = 0;
let vFirst: i32 = 0;

const H_START: usize = memory.data(32 * 4, 16);
const H_END: usize = memory.data(32 * 4, 16);
const H_OFF: usize = memory.data(32 * 4, 16);
const H_CENTER: usize = memory.data(32 * 8, 16);
const H_SUM: usize = memory.data(32 * 8, 16);
const V_START: usize = memory.data(32 * 4, 16);
const V_END: usize = memory.data(32 * 4, 16);
const V_CENTER: usize = memory.data(32 * 8, 16);
const V_SUM: usize = memory.data(32 * 8, 16);
const H_ACC: usize = memory.data(32 * 4, 16);
const V_ACC: usize = memory.data(1024 * 4, 16);
const H_ROW: usize = memory.data(32, 16);

/** Largest horizontal coefficient table kept (bytes, about 16 per input column); wider crops scatter. */
const TABLE_MAX: u64 = 4 << 20;
/** PIL's PRECISION_BITS for 8-bit images (32 - 8 - 2). */
const PRECISION_BITS: i32 = 22;
const ROUND_HALF: i32 = 1 << (PRECISION_BITS - 1);

// ---------------------------------------------------------------- pixel helpers

/** PIL "L" from RGB: ITU-R 601-2 luma in 16-bit fixed point, rounded. */
@inline
function grayOf(rgb: u32): i32 {
  return <i32>(((rgb & 255) * 19595 + ((rgb >> 8) & 255) * 38470 + ((rgb >> 16) & 255) * 7471 + 0x8000) >> 16);
}

@inline
function clip8(v: i32): i32 {
  const s = v >> PRECISION_BITS;
  return s < 0 ? 0 : s > 255 ? 255 : s;
}

/** Keys' cubic convolution kernel with a = -0.5 (PIL's BICUBIC), evaluated in PIL's operation order. */
@inline
function bicubic(x: f64): f64 {
  if (x < 0.0) x = -x;
  if (x < 1.0) return (1.5 * x - 2.5) * x * x + 1.0;
  if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * -0.5;
  return 0.0;
}

/** A normalized filter weight in PIL's 8-bit fixed point. */
@inline
function fixedWeight(w: f64, sum: f64): i32 {
  const k = sum != 0.0 ? w / sum : w;
  return k < 0.0 ? <i32>(-0.5 + k * 4194304.0) : <i32>(0.5 + k * 4194304.0);
}

/**
 * Windows of the 32 output samples along one axis of `inSize` input samples (PIL's precompute_coeffs: support
 * 2 scaled by the downscale factor, centers at (i + 0.5) * scale, bounds rounded and clamped). Returns the
 * filter's inverse scale; fills start, end (exclusive), center and the sum of the window's raw weights.
 */
function setupAxis(inSize: i32, start: usize, end: usize, center: usize, sum: usize): f64 {
  // PIL: (double)(box1 - box0) / outSize with float box coordinates.
  const scale: f64 = <f64>(<f32>inSize) / 32.0;
  const filterscale = scale < 1.0 ? 1.0 : scale;
  const support = 2.0 * filterscale;
  const inv = 1.0 / filterscale;
  for (let i = 0; i < 32; i++) {
    const c = (<f64>i + 0.5) * scale;
    let lo = <i32>(c - support + 0.5);
    if (lo < 0) lo = 0;
    let hi = <i32>(c + support + 0.5);
    if (hi > inSize) hi = inSize;
    let s = 0.0;
    for (let x = lo; x < hi; x++) s += bicubic((<f64>x - c + 0.5) * inv);
    store<i32>(start + (<usize>i << 2), lo);
    store<i32>(end + (<usize>i << 2), hi);
    store<f64>(center + (<usize>i << 3), c);
    store<f64>(sum + (<usize>i << 3), s);
  }
  return inv;
}

// ---------------------------------------------------------------- pass 1: trim box

/**
 * Starts a normalization of a `width` x `height` RGBA image; returns the staging area for chunks of up to
 * `chunkBytes` bytes (a multiple of 4), or 0 when the memory cannot grow.
 */
export function isccBegin(width: i32, height: i32, chunkBytes: i32): usize {
  if (chunkBytes < 4) return 0;
  return begin(width, height, workBase(), chunkBytes);
}

/**
 * isccBegin without a staging area, its work area from `base` (16-aligned up): for pixels that are already in the
 * kernel's memory (isccResampleFrom), e.g. PDQ's staging chunks, with `base` past PDQ's work area. Returns a
 * non-zero address, or 0 when the memory cannot grow.
 */
export function isccBeginAt(width: i32, height: i32, base: usize): usize {
  return begin(width, height, <usize>align16(<u64>base), 0);
}

function begin(width: i32, height: i32, at: usize, chunkBytes: i32): usize {
  if (width <= 0 || height <= 0) return 0;
  imgW = width;
  imgH = height;
  staging = at;
  stagingBytes = chunkBytes;
  if (!reserve(<u64>staging + align16(<u64>chunkBytes))) return 0;
  curX = 0;
  curY = 0;
  found = false;
  boxX0 = width;
  boxX1 = -1;
  boxY0 = height;
  boxY1 = -1;
  rowFirst = -1;
  rowLast = -1;
  refColor = 0;
  return staging;
}

@inline
function differs(p: usize, ref: u32): bool {
  const px = load<u32>(p);
  // Opaque pixels (the common case) compare without compositing.
  return (px >= 0xff000000 ? px & 0xffffff : compositeWhite(px)) != ref;
}

/**
 * Pass 1: scans the next `bytes` bytes of the image (row-major RGBA) for pixels unlike the top-left one. Per row
 * only the first and the last such pixel matter: the scan runs forward to the first, then backward to the last.
 */
export function isccScan(bytes: i32): void {
  let n = bytes >> 2;
  let p = staging;
  const w = imgW;
  let x = curX;
  let first = rowFirst;
  let last = rowLast;
  if (n > 0 && x == 0 && curY == 0) refColor = compositeWhite(load<u32>(p));
  const ref = refColor;
  while (n > 0 && curY < imgH) {
    const take = min(n, w - x);
    const stop = x + take;
    let from = x;
    if (first < 0) {
      let q = p;
      for (; from < stop; from++, q += 4) {
        if (differs(q, ref)) {
          first = from;
          last = from;
          from++;
          break;
        }
      }
    }
    if (first >= 0) {
      let q = p + (<usize>(stop - 1 - x) << 2);
      for (let i = stop - 1; i >= from; i--, q -= 4) {
        if (differs(q, ref)) {
          last = i;
          break;
        }
      }
    }
    p += <usize>take << 2;
    n -= take;
    x = stop;
    if (x == w) {
      if (first >= 0) {
        if (!found) {
          found = true;
          boxY0 = curY;
        }
        boxY1 = curY;
        if (first < boxX0) boxX0 = first;
        if (last > boxX1) boxX1 = last;
      }
      first = -1;
      last = -1;
      x = 0;
      curY++;
    }
  }
  curX = x;
  rowFirst = first;
  rowLast = last;
}

/**
 * Pass 1's result without the scan, when the caller found on each of the four borders a pixel unlike the top-left
 * one: the box of such pixels is then the whole image, whatever the inside holds.
 */
export function isccWholeBox(): void {
  found = true;
  boxX0 = 0;
  boxY0 = 0;
  boxX1 = imgW - 1;
  boxY1 = imgH - 1;
}

// ---------------------------------------------------------------- pass 2: grayscale + resample

/**
 * Ends pass 1: fixes the crop (PIL's getbbox of the difference to the top-left color; no difference, no crop)
 * and prepares the resampler. Writes the row range JS must send next into ISCC_INFO; returns 0 when the memory
 * cannot grow, else 1.
 */
export function isccPrepare(): i32 {
  if (found) {
    cropX = boxX0;
    cropY = boxY0;
    cropW = boxX1 + 1 - boxX0;
    cropH = boxY1 + 1 - boxY0;
  } else {
    cropX = 0;
    cropY = 0;
    cropW = imgW;
    cropH = imgH;
  }
  // PIL resizes only along the axes whose size changes (and copies when none does).
  needH = cropW != 32;
  needV = cropH != 32;
  let rowLo = 0;
  let rowHi = cropH;
  hTable = 0;
  grayRow = 0;
  if (needH) {
    hInv = setupAxis(cropW, H_START, H_END, H_CENTER, H_SUM);
    let taps: u64 = 0;
    for (let i = 0; i < 32; i++) {
      const lo = load<i32>(H_START + (<usize>i << 2));
      const hi = load<i32>(H_END + (<usize>i << 2));
      store<i32>(H_OFF + (<usize>i << 2), <i32>taps - lo);
      taps += <u64>max(hi - lo, 0);
    }
    if (taps * 4 <= TABLE_MAX) {
      const table = staging + <usize>align16(<u64>stagingBytes);
      const row = <u64>table + align16(taps * 4);
      if (!reserve(row + <u64>cropW)) return 0;
      hTable = table;
      grayRow = <usize>row;
      for (let i = 0; i < 32; i++) {
        const lo = load<i32>(H_START + (<usize>i << 2));
        const hi = load<i32>(H_END + (<usize>i << 2));
        const c = load<f64>(H_CENTER + (<usize>i << 3));
        const s = load<f64>(H_SUM + (<usize>i << 3));
        const off = load<i32>(H_OFF + (<usize>i << 2));
        for (let x = lo; x < hi; x++) {
          store<i32>(table + (<usize>(off + x) << 2), fixedWeight(bicubic((<f64>x - c + 0.5) * hInv), s));
        }
      }
    }
  }
  if (needV) {
    vInv = setupAxis(cropH, V_START, V_END, V_CENTER, V_SUM);
    // Only rows inside some output row's window matter (PIL's ybox_first .. ybox_last).
    rowLo = load<i32>(V_START);
    rowHi = load<i32>(V_END + 31 * 4);
  }
  for (let i = 0; i < 32; i++) store<i32>(H_ACC + (<usize>i << 2), ROUND_HALF);
  for (let i = 0; i < 1024; i++) store<i32>(V_ACC + (<usize>i << 2), ROUND_HALF);
  hFirst = 0;
  vFirst = 0;
  curX = 0;
  curY = cropY + rowLo;
  store<i32>(ISCC_INFO, cropY + rowLo);
  store<i32>(ISCC_INFO + 4, cropY + rowHi);
  store<i32>(ISCC_INFO + 8, cropX);
  store<i32>(ISCC_INFO + 12, cropY);
  store<i32>(ISCC_INFO + 16, cropW);
  store<i32>(ISCC_INFO + 20, cropH);
  return 1;
}

/** Adds one gray pixel at crop column `lx` to the output columns whose window holds it. */
@inline
function scatterH(lx: i32, g: i32): void {
  let i = hFirst;
  while (i < 32 && load<i32>(H_END + (<usize>i << 2)) <= lx) i++;
  hFirst = i;
  const table = hTable;
  for (; i < 32; i++) {
    const lo = load<i32>(H_START + (<usize>i << 2));
    if (lo > lx) break;
    let k: i32;
    if (table != 0) {
      k = load<i32>(table + (<usize>(load<i32>(H_OFF + (<usize>i << 2)) + lx) << 2));
    } else {
      const c = load<f64>(H_CENTER + (<usize>i << 3));
      k = fixedWeight(bicubic((<f64>lx - c + 0.5) * hInv), load<f64>(H_SUM + (<usize>i << 3)));
    }
    const a = H_ACC + (<usize>i << 2);
    store<i32>(a, load<i32>(a) + g * k);
  }
}

/** A crop row is complete: round the horizontal pass to 8 bits and add the row to the vertical pass. */
function endRow(ly: i32): void {
  if (grayRow != 0) {
    const table = hTable;
    const gray = grayRow;
    for (let i = 0; i < 32; i++) {
      const lo = load<i32>(H_START + (<usize>i << 2));
      const hi = load<i32>(H_END + (<usize>i << 2));
      let k = table + (<usize>(load<i32>(H_OFF + (<usize>i << 2)) + lo) << 2);
      let g = gray + <usize>lo;
      // four products per i32x4 op: integer sums do not depend on their order, so this is the scalar sum
      let acc4 = i32x4.splat(0);
      let x = lo;
      for (; x + 4 <= hi; x += 4) {
        const px = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(g)));
        acc4 = i32x4.add(acc4, i32x4.mul(px, v128.load(k)));
        g += 4;
        k += 16;
      }
      let acc =
        ROUND_HALF +
        i32x4.extract_lane(acc4, 0) +
        i32x4.extract_lane(acc4, 1) +
        i32x4.extract_lane(acc4, 2) +
        i32x4.extract_lane(acc4, 3);
      for (; x < hi; x++) {
        acc += <i32>load<u8>(g) * load<i32>(k);
        g++;
        k += 4;
      }
      store<u8>(H_ROW + <usize>i, <u8>clip8(acc));
    }
  } else if (needH) {
    for (let i = 0; i < 32; i++) {
      const a = H_ACC + (<usize>i << 2);
      store<u8>(H_ROW + <usize>i, <u8>clip8(load<i32>(a)));
      store<i32>(a, ROUND_HALF);
    }
    hFirst = 0;
  }
  if (!needV) {
    if (ly >= 0 && ly < 32) memory.copy(ISCC_PIXELS + (<usize>ly << 5), H_ROW, 32);
    return;
  }
  let j = vFirst;
  while (j < 32 && load<i32>(V_END + (<usize>j << 2)) <= ly) j++;
  vFirst = j;
  for (; j < 32; j++) {
    if (load<i32>(V_START + (<usize>j << 2)) > ly) break;
    const c = load<f64>(V_CENTER + (<usize>j << 3));
    const k = fixedWeight(bicubic((<f64>ly - c + 0.5) * vInv), load<f64>(V_SUM + (<usize>j << 3)));
    const acc = V_ACC + (<usize>j << 7);
    for (let i = 0; i < 32; i++) {
      const a = acc + (<usize>i << 2);
      store<i32>(a, load<i32>(a) + <i32>load<u8>(H_ROW + <usize>i) * k);
    }
  }
}

/** Pass 2: the next `bytes` bytes of the rows announced by isccPrepare (row-major RGBA, whole image width). */
export function isccResample(bytes: i32): void {
  isccResampleFrom(staging, bytes);
}

/** isccResample of `bytes` bytes at `src` in the kernel's memory (the next bytes of the rows isccPrepare named). */
export function isccResampleFrom(src: usize, bytes: i32): void {
  let n = bytes >> 2;
  let p = src;
  const w = imgW;
  const x0 = cropX;
  const x1 = cropX + cropW;
  let x = curX;
  while (n > 0) {
    const take = min(n, w - x);
    const stop = x + take;
    const a = max(x, x0);
    const b = min(stop, x1);
    if (a < b) {
      let q = p + (<usize>(a - x) << 2);
      if (needH && grayRow == 0) {
        for (let i = a; i < b; i++) {
          const px = load<u32>(q);
          q += 4;
          scatterH(i - x0, grayOf(px >= 0xff000000 ? px : compositeWhite(px)));
        }
      } else {
        // Table form (or no horizontal pass): buffer the gray row.
        let g = (needH ? grayRow : H_ROW) + <usize>(a - x0);
        let i = a;
        // four opaque pixels at a time, in grayOf's integer arithmetic
        for (; i + 4 <= b; i += 4) {
          const px = v128.load(q);
          if (!i32x4.all_true(i32x4.eq(v128.and(px, i32x4.splat(0xff000000)), i32x4.splat(0xff000000)))) break;
          const m = i32x4.splat(255);
          const y = i32x4.add(
            i32x4.add(i32x4.mul(v128.and(px, m), i32x4.splat(19595)), i32x4.mul(v128.and(i32x4.shr_u(px, 8), m), i32x4.splat(38470))),
            i32x4.add(i32x4.mul(v128.and(i32x4.shr_u(px, 16), m), i32x4.splat(7471)), i32x4.splat(0x8000)),
          );
          const v = i32x4.shr_u(y, 16);
          const h = i16x8.narrow_i32x4_u(v, v);
          store<u32>(g, i32x4.extract_lane(i8x16.narrow_i16x8_u(h, h), 0));
          q += 16;
          g += 4;
        }
        for (; i < b; i++) {
          const px = load<u32>(q);
          q += 4;
          store<u8>(g, <u8>grayOf(px >= 0xff000000 ? px : compositeWhite(px)));
          g++;
        }
      }
    }
    p += <usize>take << 2;
    n -= take;
    x = stop;
    if (x == w) {
      endRow(curY - cropY);
      x = 0;
      curY++;
    }
  }
  curX = x;
}

/** Ends pass 2 and hashes: fills ISCC_PIXELS and ISCC_DIGEST; returns the digest length in bytes (0: bad bits). */
export function isccFinish(bits: i32): i32 {
  if (needV) {
    for (let i = 0; i < 1024; i++) store<u8>(ISCC_PIXELS + <usize>i, <u8>clip8(load<i32>(V_ACC + (<usize>i << 2))));
  }
  return isccHashPixels(bits);
}

// ---------------------------------------------------------------- hash (iscc-core soft_hash_image_v0)

// 2*cos((i + 0.5) * pi / n) for n = 32, 16, 8, 4, 2 (i < n/2): the divisors of iscc-core's recursive DCT, as
// CPython's math.cos gives them (glibc, correctly rounded here), so the DCT matches iscc-core bit for bit.
const DCT_DIV: usize = memory.data<f64>([
  // n = 32
  1.9975909124103448, 1.978353019929562, 1.940062506389088, 1.8830881303660416, 1.8079785862468867,
  1.7154572200005442, 1.6064150629612899, 1.4819022507099182, 1.3431179096940367, 1.191398608984867,
  1.0282054883864433, 0.8551101868605644, 0.6737797067844401, 0.48596035980652796, 0.2934609489107235,
  0.09813534865483625,
  // n = 16
  1.9903694533443939, 1.9138806714644176, 1.76384252869671, 1.546020906725474, 1.268786568327291,
  0.9427934736519956, 0.5805693545089247, 0.19603428065912154,
  // n = 8
  1.9615705608064609, 1.6629392246050905, 1.1111404660392046, 0.39018064403225666,
  // n = 4
  1.8477590650225735, 0.7653668647301797,
  // n = 2
  1.4142135623730951,
]);

@inline
function divOffset(n: i32): i32 {
  return n == 32 ? 0 : n == 16 ? 16 : n == 8 ? 24 : n == 4 ? 28 : 30;
}

const DCT_IN: usize = memory.data(32 * 8, 16);
const DCT_OUT: usize = memory.data(32 * 8, 16);
const DCT_TMP: usize = memory.data(256 * 8, 16);
const MATRIX: usize = memory.data(1024 * 8, 16);
const BLOCK: usize = memory.data(64 * 8, 16);

/**
 * iscc-core's alg_dct (Nayuki's fast recursive DCT-II, unscaled) of `n` f64 at `v` into `out`: split into sums
 * and scaled differences of mirrored pairs, transform both halves, interleave.
 */
function dct(v: usize, n: i32, out: usize, tmp: usize): void {
  if (n == 1) {
    store<f64>(out, load<f64>(v));
    return;
  }
  const half = n >> 1;
  const alpha = tmp;
  const beta = tmp + (<usize>half << 3);
  const alphaOut = tmp + (<usize>n << 3);
  const betaOut = alphaOut + (<usize>half << 3);
  const next = tmp + (<usize>n << 4);
  const div = DCT_DIV + (<usize>divOffset(n) << 3);
  for (let i = 0; i < half; i++) {
    const a = load<f64>(v + (<usize>i << 3));
    const b = load<f64>(v + (<usize>(n - 1 - i) << 3));
    store<f64>(alpha + (<usize>i << 3), a + b);
    store<f64>(beta + (<usize>i << 3), (a - b) / load<f64>(div + (<usize>i << 3)));
  }
  dct(alpha, half, alphaOut, next);
  dct(beta, half, betaOut, next);
  for (let i = 0; i < half - 1; i++) {
    store<f64>(out + (<usize>(2 * i) << 3), load<f64>(alphaOut + (<usize>i << 3)));
    store<f64>(
      out + (<usize>(2 * i + 1) << 3),
      load<f64>(betaOut + (<usize>i << 3)) + load<f64>(betaOut + (<usize>(i + 1) << 3)),
    );
  }
  store<f64>(out + (<usize>(n - 2) << 3), load<f64>(alphaOut + (<usize>(half - 1) << 3)));
  store<f64>(out + (<usize>(n - 1) << 3), load<f64>(betaOut + (<usize>(half - 1) << 3)));
}

/**
 * Hashes the 32x32 pixels in ISCC_PIXELS into ISCC_DIGEST: `bits` (32..256, a multiple of 32) rounded up to whole
 * 64-bit blocks are computed, the first bits/8 bytes are the digest. Returns bits/8, or 0 for an invalid `bits`.
 */
export function isccHashPixels(bits: i32): i32 {
  if (bits < 32 || bits > 256 || bits % 32 != 0) return 0;
  // Rows, then columns (iscc-core transposes, transforms each list, transposes back).
  for (let r = 0; r < 32; r++) {
    for (let c = 0; c < 32; c++) store<f64>(DCT_IN + (<usize>c << 3), <f64>load<u8>(ISCC_PIXELS + <usize>(r * 32 + c)));
    dct(DCT_IN, 32, MATRIX + (<usize>(r * 32) << 3), DCT_TMP);
  }
  for (let c = 0; c < 32; c++) {
    for (let r = 0; r < 32; r++) store<f64>(DCT_IN + (<usize>r << 3), load<f64>(MATRIX + (<usize>(r * 32 + c) << 3)));
    dct(DCT_IN, 32, DCT_OUT, DCT_TMP);
    for (let r = 0; r < 32; r++) store<f64>(MATRIX + (<usize>(r * 32 + c) << 3), load<f64>(DCT_OUT + (<usize>r << 3)));
  }
  memory.fill(ISCC_DIGEST, 0, 32);
  // 8x8 blocks at (column, row) offsets (0,0), (1,0), (0,1), (1,1), each row-major.
  let bit = 0;
  for (let s = 0; s < 4; s++) {
    const bx = s & 1;
    const by = s >> 1;
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        store<f64>(BLOCK + (<usize>(r * 8 + c) << 3), load<f64>(MATRIX + (<usize>((r + by) * 32 + c + bx) << 3)));
      }
    }
    const median = medianOf64(BLOCK);
    for (let i = 0; i < 64; i++) {
      if (load<f64>(BLOCK + (<usize>i << 3)) > median) {
        const byte = ISCC_DIGEST + <usize>(bit >> 3);
        store<u8>(byte, load<u8>(byte) | <u8>(<u32>0x80 >> <u32>(bit & 7)));
      }
      bit++;
    }
    if (bit >= bits) break;
  }
  return bits >> 3;
}

const SORTED: usize = memory.data(64 * 8, 16);

/** Python's statistics.median of 64 values: the mean of the two middle values of the sorted list. */
function medianOf64(values: usize): f64 {
  memory.copy(SORTED, values, 64 * 8);
  for (let i = 1; i < 64; i++) {
    const v = load<f64>(SORTED + (<usize>i << 3));
    let j = i - 1;
    while (j >= 0 && load<f64>(SORTED + (<usize>j << 3)) > v) {
      store<f64>(SORTED + (<usize>(j + 1) << 3), load<f64>(SORTED + (<usize>j << 3)));
      j--;
    }
    store<f64>(SORTED + (<usize>(j + 1) << 3), v);
  }
  return (load<f64>(SORTED + 31 * 8) + load<f64>(SORTED + 32 * 8)) / 2.0;
}
