// PDQ (Meta's 256-bit perceptual image hash with a quality score), our implementation of the algorithm of the
// C++ reference (ThreatExchange pdq/cpp/hashing/pdqhashing.cpp, downscaling.cpp, torben.cpp):
//
//   luma (f32, 0.299 R + 0.587 G + 0.114 B) -> Jarosz tent filter: two rounds of [1-D box filter along every
//   row, then along every column], window ceil-ish(size / 128) -> decimation to 64x64 (sample at the centers)
//   -> quality (sum of quantized neighbour gradients / 90, at most 100) -> 16x16 low-frequency block of the
//   64x64 DCT-II (D A D^T with a 16x64 matrix) -> bit per coefficient: greater than the median (Torben's
//   selection). Images with a side under 5 pixels hash to zero with quality 0, as upstream.
//
// All in f32 and in the reference's operation order. The reference filters whole-image float buffers; here the
// image streams row by row through the same operations: the row filters run on one row (into a second one), each column
// filter keeps per column its running sum and a ring of the last `window` rows it added (what it will subtract),
// and only the 64x64 samples of the last stage are ever divided out. Each output value therefore undergoes the
// very same sequence of float operations as in the reference; memory is a few rows, not the image.
//
// Rows may be the image's columns (the JS side then feeds the transposed image, for images too wide for a row
// buffer); the 64x64 result is transposed back. That ordering differs from the reference only in float rounding.

import { align16, compositeWhite, reserve, workBase } from "./mem";

/** The 256 hash bits, 32 bytes in the order of the reference's 64-digit hex form. */
export const PDQ_HASH: usize = memory.data(32, 16);

const BUF64: usize = memory.data(64 * 64 * 4, 16);
const BUF64T: usize = memory.data(64 * 64 * 4, 16);
const T16X64: usize = memory.data(16 * 64 * 4, 16);
const B16X16: usize = memory.data(16 * 16 * 4, 16);
/**
 * After pdqFinish: the 256 DCT coefficients the bits are thresholded from (f32, row-major 16x16), the frame
 * feature TMK+PDQF ("PDQ float") accumulates. Zero for a degenerate image.
 */
export const PDQ_FLOATS: usize = B16X16;
const DCT_MATRIX: usize = memory.data(16 * 64 * 4, 16);
const DCT_MATRIX_T: usize = memory.data(64 * 16 * 4, 16); // its transpose, for the second product's lanes
const ROW_IDX: usize = memory.data(64 * 4, 16);
const COL_IDX: usize = memory.data(64 * 4, 16);

/** Bytes of one row of the 64 sampled columns (f32). */
const SAMPLED_BYTES: usize = 64 * 4;

const LUMA_R: f32 = 0.299;
const LUMA_G: f32 = 0.587;
const LUMA_B: f32 = 0.114;
const MIN_HASHABLE_DIM: i32 = 5;

let dctReady: bool = false;

let cols: i32 = 0; // length of a (kernel) row
let rows: i32 = 0;
let transposed: bool = false;
let degenerate: bool = false;
let direct: bool = false; // already 64x64: no filtering, as upstream
let staging: usize = 0;
let curX: i32 = 0;
let curY: i32 = 0;

let winRow: i32 = 0; // window of the filter along rows
let halfRow: i32 = 0;
let winCol: i32 = 0; // window of the filter along columns
let halfCol: i32 = 0;

let row: usize = 0; // f32 x cols: the row being filled (a slot of queue1)
let flushRow: usize = 0; // f32 x cols: a row of the first column filter's end
let rowOut: usize = 0; // f32 x cols: a row filter's output
// The row filters run on QUEUE rows at once (boxRowQueue): the rows wait in a queue per stage, in order.
let rowStride: usize = 0; // bytes per row slot
let queueSize: i32 = 1; // QUEUE, or 1 for rows longer than QUEUED_ROW_MAX
let queue1: usize = 0; // queueSize rows of luma, filtered along the row when full (`row` is the slot being filled)
let queued1: i32 = 0;
let boxed1: usize = 0; // their filtered rows, fed to the first column filter in order
let queue2: usize = 0; // queueSize rows out of the first column filter
let queued2: i32 = 0;
let boxed2: usize = 0;
let il: usize = 0; // f32 x QUEUE x cols: the queue's rows interleaved, four by four
let ol: usize = 0;
let sum1: usize = 0; // f32 x cols: running sums of the first column filter
let ring1: usize = 0; // f32 x winCol x cols
let sum2: usize = 0; // f32 x 64: the second column filter runs only on the 64 sampled columns (COL_IDX)
let ring2: usize = 0; // f32 x winCol x 64
let pick2: usize = 0; // f32 x 64: a row out of the second row filter, at the sampled columns
let fed1: i32 = 0;
let fed2: i32 = 0;
let count1: i32 = 0;
let count2: i32 = 0;
let slot1: i32 = 0;
let slot2: i32 = 0;
let nextOut: i32 = 0; // next 64x64 output row to fill

/** The reference's computeJaroszFilterWindowSize(old, 64). */
@inline
function windowSize(oldDimension: i32): i32 {
  return (oldDimension + 2 * 64 - 1) / (2 * 64);
}

function setupDct(): void {
  // As the reference: float scale sqrt(2/64), entries computed in double and stored as float.
  const scale: f32 = <f32>Math.sqrt(2.0 / 64.0);
  const step: f64 = 3.14159265358979323846 / 2.0 / 64.0;
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) {
      const v = <f64>scale * Math.cos(step * <f64>(i + 1) * <f64>(2 * j + 1));
      store<f32>(DCT_MATRIX + (<usize>(i * 64 + j) << 2), <f32>v);
      store<f32>(DCT_MATRIX_T + (<usize>(j * 16 + i) << 2), <f32>v);
    }
  }
  dctReady = true;
}

/**
 * Starts a hash of an image whose kernel rows are `rowLength` pixels long, `rowCount` of them (`isTransposed`: the
 * kernel rows are the image's columns). Returns the staging area for chunks of up to `chunkBytes` bytes, or 0
 * when the memory cannot grow.
 */
export function pdqBegin(rowLength: i32, rowCount: i32, chunkBytes: i32, isTransposed: i32): usize {
  if (rowLength <= 0 || rowCount <= 0 || chunkBytes < 4) return 0;
  lumaW = 0; // its work area overwrites any luma plane (and the row cache after it)
  lumaH = 0;
  cacheBase = 0;
  cacheOn = false;
  return layout(rowLength, rowCount, chunkBytes, isTransposed, workBase());
}

/** The end of the work area pdqBegin laid out last (its staging area and filter buffers). */
let layoutEnd: u64 = 0;

/**
 * The first byte after the work area of the last pdqBegin: memory from there on is free until the next computation
 * begins (the verify path reduces the query windows' image there from the very chunks PDQ reads, plane.ts
 * planeBeginAt).
 */
export function pdqWorkEnd(): usize {
  return <usize>align16(layoutEnd);
}

/** pdqBegin's work: the staging area (`chunkBytes`) at `base`, then the filter's buffers. */
function layout(rowLength: i32, rowCount: i32, chunkBytes: i32, isTransposed: i32, base: usize): usize {
  if (!dctReady) {
    setupDct();
    setupLuma();
  }
  cols = rowLength;
  rows = rowCount;
  transposed = isTransposed != 0;
  degenerate = rowLength < MIN_HASHABLE_DIM || rowCount < MIN_HASHABLE_DIM;
  direct = rowLength == 64 && rowCount == 64;
  curX = 0;
  curY = 0;
  staging = base;
  let end: u64 = <u64>staging + align16(<u64>chunkBytes);
  layoutEnd = end;
  if (degenerate || direct) return reserve(end) ? staging : 0;

  winRow = windowSize(cols);
  halfRow = (winRow + 2) / 2;
  winCol = windowSize(rows);
  halfCol = (winCol + 2) / 2;
  const rowBytes = align16(<u64>cols * 4);
  flushRow = <usize>end;
  end += rowBytes;
  rowOut = <usize>end;
  end += rowBytes;
  rowStride = <usize>rowBytes;
  // The queues cost 6 QUEUE rows: rows longer than QUEUED_ROW_MAX go through one at a time (the same values).
  queueSize = cols <= QUEUED_ROW_MAX ? QUEUE : 1;
  const q = <u64>queueSize;
  queue1 = <usize>end;
  end += q * rowBytes;
  boxed1 = <usize>end;
  end += q * rowBytes;
  queue2 = <usize>end;
  end += q * rowBytes;
  boxed2 = <usize>end;
  end += q * rowBytes;
  if (queueSize == QUEUE) {
    il = <usize>end;
    end += q * <u64>cols * 4;
    ol = <usize>end;
    end += q * <u64>cols * 4;
  }
  queued1 = 0;
  queued2 = 0;
  row = queue1;
  sum1 = <usize>end;
  end += rowBytes;
  sum2 = <usize>end;
  end += SAMPLED_BYTES;
  pick2 = <usize>end;
  end += SAMPLED_BYTES;
  ring1 = <usize>end;
  end += <u64>winCol * rowBytes;
  ring2 = <usize>end;
  end += <u64>winCol * SAMPLED_BYTES;
  layoutEnd = end;
  if (!reserve(end)) return 0;
  memory.fill(sum1, 0, <usize>rowBytes);
  memory.fill(sum2, 0, <usize>SAMPLED_BYTES);
  fed1 = 0;
  fed2 = 0;
  count1 = 0;
  count2 = 0;
  slot1 = 0;
  slot2 = 0;
  nextOut = 0;
  // Decimation: sample the centers of a 64x64 grid, as the reference's decimateFloat.
  for (let i = 0; i < 64; i++) {
    store<i32>(ROW_IDX + (<usize>i << 2), <i32>(((<f64>i + 0.5) * <f64>rows) / 64.0));
    store<i32>(COL_IDX + (<usize>i << 2), <i32>(((<f64>i + 0.5) * <f64>cols) / 64.0));
  }
  return staging;
}

// Windows of one image (src/media/fingerprint/regions.ts): the image's luma is computed once into a plane at the
// work base (f32 per pixel), and each window's hash reads its rows of that plane, instead of converting (and JS
// copying) the window's pixels again. A luma value depends on its pixel alone, so every window sees the very values
// its own pdqBegin/pdqPush would compute, and the filter after it runs unchanged: the same hash, bit for bit.

let lumaW: i32 = 0;
let lumaH: i32 = 0;
let lumaPlane: usize = 0;
let lumaEnd: u64 = 0; // where the windows' buffers start: after the plane, its staging area and its row cache (no cache: at the staging area)
let lumaFilled: i32 = 0; // pixels converted so far
let lumaStaging: usize = 0;

// The row cache of the windows: each window's rows out of the first row filter (stage 1), kept by the plane row
// they came from. That row depends only on the plane row, the window's left edge x and its width w (the running sum
// starts at x; the window shrinks at x + w), so a window with the same x and w (another corner of the same size, a
// border cut) reads the rows both windows cover from here instead of filtering them again: the same values, so the
// same hash bit for bit. Only for planes up to CACHE_MAX_PLANE bytes (the cache is as large as the plane).
const CACHE_MAX_PLANE: u64 = 4 << 20;
let cacheBase: usize = 0; // 0: no cache for this plane
let cacheStride: usize = 0; // bytes per cached row (the plane's row, 16-aligned)
let cacheX: i32 = -1; // the x and w of the rows in the cache (-1: none)
let cacheW: i32 = -1;
let cacheLo: i32 = 0; // plane rows [cacheLo, cacheHi) are in the cache
let cacheHi: i32 = 0;
let cacheOn: bool = false; // the window being hashed reads and fills the cache
// A window's rows are not copied into stage 1's queue: the row filter reads them where they are in the plane.
let fromPlane: bool = false;
let winX: i32 = 0; // the window's left edge (while fromPlane)
let q1y: i32 = 0; // plane row of the first row in stage 1's queue (while fromPlane)

@inline function cacheRow(y: i32): usize {
  return cacheBase + <usize>y * cacheStride;
}

/** Row k of stage 1's queue: in the plane (a window's), or the queue's own slot (pushed pixels). */
@inline function queuedRow(k: i32): usize {
  return fromPlane ? lumaPlane + ((<usize>(q1y + k) * <usize>lumaW + <usize>winX) << 2) : queue1 + <usize>k * rowStride;
}

/** Bytes between two rows of stage 1's queue. */
@inline function queuedStride(): usize {
  return fromPlane ? <usize>lumaW << 2 : rowStride;
}

/**
 * Starts the luma plane of a `width` x `height` image: returns the staging area for chunks of up to `chunkBytes`
 * bytes of RGBA (pushed with pdqLumaPush), or 0 when the memory cannot grow.
 */
export function pdqLumaBegin(width: i32, height: i32, chunkBytes: i32): usize {
  if (width <= 0 || height <= 0 || chunkBytes < 4) return 0;
  if (!dctReady) {
    setupDct();
    setupLuma();
  }
  lumaW = 0; // no plane until this one is laid out
  lumaH = 0;
  lumaFilled = 0;
  cacheBase = 0;
  cacheOn = false;
  cacheX = -1;
  lumaPlane = workBase();
  const planeBytes = align16(<u64>width * <u64>height * 4);
  lumaStaging = <usize>(<u64>lumaPlane + planeBytes);
  const stagingEnd = <u64>lumaStaging + align16(<u64>chunkBytes);
  // without a cache the windows' buffers reuse the staging area (the plane is complete before any window)
  lumaEnd = <u64>lumaStaging;
  // the cache after the staging area (a chunk pushed after the plane is complete cannot land in it)
  if (planeBytes <= CACHE_MAX_PLANE) {
    cacheStride = <usize>align16(<u64>width * 4);
    cacheBase = <usize>stagingEnd;
    lumaEnd = stagingEnd + <u64>cacheStride * <u64>height;
  }
  if (!reserve(max<u64>(lumaEnd, stagingEnd))) {
    cacheBase = 0;
    return 0;
  }
  lumaW = width;
  lumaH = height;
  return lumaStaging;
}

/** Converts the next `bytes` bytes of RGBA pixels (row-major) from the staging area into the plane. */
export function pdqLumaPush(bytes: i32): void {
  lumaPushFrom(lumaStaging, bytes);
}

/**
 * pdqLumaPush of `bytes` bytes of RGBA pixels already in the kernel's memory at `src` (e.g. planeOutput(): the
 * windows' reduced image, never copied out to JS and back), or 0 when `src` lies before the plane's next value: the
 * conversion writes 4 bytes of luma over each 4 bytes of pixels it has read, in order, so a source at or after that
 * value is read before anything is written over it (4 pixels read, then 4 written, never ahead of the reading).
 */
export function pdqLumaPushFrom(src: usize, bytes: i32): i32 {
  if (src < lumaPlane + (<usize>lumaFilled << 2)) return 0;
  lumaPushFrom(src, bytes);
  return 1;
}

function lumaPushFrom(src: usize, bytes: i32): void {
  const n = min<i32>(bytes >> 2, lumaW * lumaH - lumaFilled);
  if (n <= 0) return;
  let p = src;
  let out = lumaPlane + (<usize>lumaFilled << 2);
  let i = 0;
  // as pushFrom: four opaque pixels by f32x4 (the table's products lane by lane), others through the table
  for (; i + 4 <= n; i += 4) {
    const px = v128.load(p);
    if (i32x4.all_true(i32x4.eq(v128.and(px, i32x4.splat(0xff000000)), i32x4.splat(0xff000000)))) {
      const m = i32x4.splat(255);
      const r = f32x4.convert_i32x4_s(v128.and(px, m));
      const g = f32x4.convert_i32x4_s(v128.and(i32x4.shr_u(px, 8), m));
      const b = f32x4.convert_i32x4_s(v128.and(i32x4.shr_u(px, 16), m));
      v128.store(out, f32x4.add(f32x4.add(f32x4.mul(r, f32x4.splat(LUMA_R)), f32x4.mul(g, f32x4.splat(LUMA_G))), f32x4.mul(b, f32x4.splat(LUMA_B))));
    } else {
      for (let j = 0; j < 4; j++) store<f32>(out + (<usize>j << 2), lumaOf(load<u32>(p + (<usize>j << 2))));
    }
    p += 16;
    out += 16;
  }
  for (; i < n; i++, p += 4, out += 4) store<f32>(out, lumaOf(load<u32>(p)));
  lumaFilled += n;
}

/**
 * The hash of the `w` x `h` window at (`x`, `y`) of the luma plane (complete): returns the quality, with the hash in
 * PDQ_HASH, as pdqFinish; -1 when there is no complete plane or the window is not inside it, -2 when the memory
 * cannot grow. The plane stays for the next window.
 */
export function pdqWindow(x: i32, y: i32, w: i32, h: i32): i32 {
  if (lumaW <= 0 || lumaFilled != lumaW * lumaH) return -1;
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x > lumaW - w || y > lumaH - h) return -1;
  if (!layout(w, h, 16, 0, <usize>lumaEnd)) {
    cacheOn = false;
    return -2;
  }
  fromPlane = !direct && !degenerate;
  winX = x;
  cacheOn = cacheBase != 0 && fromPlane;
  if (cacheOn) {
    // the cached rows stay only when they are this window's (same x and w) and the rows it adds join them into one run
    if (x != cacheX || w != cacheW || y > cacheHi || y + h < cacheLo) {
      cacheX = x;
      cacheW = w;
      cacheLo = y;
      cacheHi = y;
    }
  }
  const rowBytes = <usize>w << 2;
  for (let r = 0; r < h; r++) {
    const py = y + r;
    const src = lumaPlane + ((<usize>py * <usize>lumaW + <usize>x) << 2);
    if (direct) {
      memory.copy(BUF64 + (<usize>(r * 64) << 2), src, rowBytes);
    } else if (!degenerate) {
      if (cacheOn && py >= cacheLo && py < cacheHi) {
        // filtered for an earlier window: the rows queued before it go first, then this one, in row order
        if (queued1 > 0) drainQueue1();
        feed1(cacheRow(py));
        continue;
      }
      // queued where it is: stage 1 reads the queue's rows out of the plane (queuedRow)
      if (queued1 == 0) q1y = py;
      if (++queued1 == queueSize) runQueue1();
    }
  }
  curY = h;
  const quality = pdqFinish();
  if (cacheOn) {
    // every row of the window is in the cache now (filtered here or before)
    cacheLo = min<i32>(cacheLo, y);
    cacheHi = max<i32>(cacheHi, y + h);
  }
  cacheOn = false;
  fromPlane = false;
  return quality;
}

/** Stage 1's queued rows one at a time (boxRow: each lane of boxRowQueue runs its operations), into the cache and on. */
function drainQueue1(): void {
  for (let k = 0; k < queued1; k++) {
    const dst = cacheRow(q1y + k);
    boxRow(queuedRow(k), dst);
    feed1(dst);
  }
  queued1 = 0;
  row = queue1;
}

// The three products coefficient * channel of the reference's luma, tabulated (the same f32 products).
const LUMA_TABLE: usize = memory.data(3 * 256 * 4, 16);

function setupLuma(): void {
  for (let v = 0; v < 256; v++) {
    store<f32>(LUMA_TABLE + (<usize>v << 2), LUMA_R * <f32>v);
    store<f32>(LUMA_TABLE + 1024 + (<usize>v << 2), LUMA_G * <f32>v);
    store<f32>(LUMA_TABLE + 2048 + (<usize>v << 2), LUMA_B * <f32>v);
  }
}

/** 0.299 R + 0.587 G + 0.114 B in f32, summed left to right as the reference. */
@inline
function lumaOf(px: u32): f32 {
  const c = px >= 0xff000000 ? px : compositeWhite(px);
  return (
    load<f32>(LUMA_TABLE + (<usize>(c & 255) << 2)) +
    load<f32>(LUMA_TABLE + 1024 + (<usize>((c >> 8) & 255) << 2)) +
    load<f32>(LUMA_TABLE + 2048 + (<usize>((c >> 16) & 255) << 2))
  );
}

/** Feeds the next `bytes` bytes of RGBA pixels (kernel rows in order). */
export function pdqPush(bytes: i32): void {
  pushFrom(staging, bytes);
}

/**
 * Feeds `rowCount` kernel rows that lie `strideBytes` apart in the staging area (the first at its start): a window
 * of a larger image, whose rows JS copies in one block with the pixels between them (see computeWindow).
 */
export function pdqPushRows(rowCount: i32, strideBytes: i32): void {
  const rowBytes = cols << 2;
  if (curX != 0 || strideBytes < rowBytes) return; // not at a row start, or rows overlap: pdqFinish then reports -1
  for (let r = 0; r < rowCount; r++) pushFrom(staging + <usize>r * <usize>strideBytes, rowBytes);
}

function pushFrom(at: usize, bytes: i32): void {
  let n = bytes >> 2;
  let p = at;
  let x = curX;
  while (n > 0 && curY < rows) {
    const take = min(n, cols - x);
    const stop = x + take;
    if (degenerate) {
      p += <usize>take << 2;
    } else if (direct) {
      const out = BUF64 + (<usize>(curY * 64) << 2);
      for (; x < stop; x++) {
        store<f32>(out + (<usize>x << 2), lumaOf(load<u32>(p)));
        p += 4;
      }
    } else {
      const out = row;
      // four opaque pixels at a time: the table's products are f32 products, so lane by lane the same values (the
      // signed conversion: channels are 0..255, and it is one instruction where the unsigned one is several)
      for (; x + 4 <= stop; x += 4) {
        const px = v128.load(p);
        if (i32x4.all_true(i32x4.eq(v128.and(px, i32x4.splat(0xff000000)), i32x4.splat(0xff000000)))) {
          const m = i32x4.splat(255);
          const r = f32x4.convert_i32x4_s(v128.and(px, m));
          const g = f32x4.convert_i32x4_s(v128.and(i32x4.shr_u(px, 8), m));
          const b = f32x4.convert_i32x4_s(v128.and(i32x4.shr_u(px, 16), m));
          const y = f32x4.add(f32x4.add(f32x4.mul(r, f32x4.splat(LUMA_R)), f32x4.mul(g, f32x4.splat(LUMA_G))), f32x4.mul(b, f32x4.splat(LUMA_B)));
          v128.store(out + (<usize>x << 2), y);
        } else {
          for (let j = 0; j < 4; j++) store<f32>(out + (<usize>(x + j) << 2), lumaOf(load<u32>(p + (<usize>j << 2))));
        }
        p += 16;
      }
      for (; x < stop; x++) {
        store<f32>(out + (<usize>x << 2), lumaOf(load<u32>(p)));
        p += 4;
      }
    }
    x = stop;
    n -= take;
    if (x == cols) {
      if (!degenerate && !direct) {
        if (++queued1 == queueSize) runQueue1();
        row = queue1 + <usize>queued1 * rowStride;
      }
      x = 0;
      curY++;
    }
  }
  curX = x;
}

/**
 * The reference's box1DFloat along one row, from `v` into `out`: a running sum over a window of `winRow` samples
 * centered (for even windows, one more to the right), divided by the number of samples inside the row. The input
 * stays whole, so the sample leaving the window is read back from it.
 */
function boxRow(v: usize, out: usize): void {
  const n = cols;
  const w = winRow;
  const lead = halfRow - 1;
  let sum: f32 = 0;
  let count: i32 = 0;
  let ri = 0;
  // Phase 1: accumulate, no writes.
  for (; ri < lead; ri++) {
    sum += load<f32>(v + (<usize>ri << 2));
    count++;
  }
  // Phase 2: writes with a growing window.
  for (; ri < w; ri++) {
    sum += load<f32>(v + (<usize>ri << 2));
    count++;
    store<f32>(out + (<usize>(ri - lead) << 2), sum / <f32>count);
  }
  // Phase 3: full window: add the new sample, subtract the one leaving.
  const div = <f32>count;
  for (; ri < n; ri++) {
    const a = v + (<usize>ri << 2);
    sum += load<f32>(a);
    sum -= load<f32>(a - (<usize>w << 2));
    store<f32>(out + (<usize>(ri - lead) << 2), sum / div);
  }
  // Phase 4: shrinking window at the end: the last w inputs leave, oldest first.
  let oi = n - lead;
  for (let i = 0; i < lead; i++) {
    sum -= load<f32>(v + (<usize>(n - w + i) << 2));
    count--;
    store<f32>(out + (<usize>oi << 2), sum / <f32>count);
    oi++;
  }
}

/** Rows filtered at once by boxRowQueue: two groups of four, whose running sums advance side by side. */
const QUEUE: i32 = 8;
/** The longest row queued (its queues then take at most 1.5 MiB; a wasm memory never shrinks). */
const QUEUED_ROW_MAX: i32 = 8192;

/**
 * boxRow on QUEUE rows at once (slots of rowStride bytes from `src` into slots from `dst`): each group of four
 * rows is interleaved (sample x of row k in lane k), so the running sum, a serial chain of additions, advances
 * four rows per f32x4 step, and the two groups' chains overlap. Each lane runs boxRow's very operations, so each
 * row is boxRow's.
 */
function boxRowQueue(src: usize, stride: usize, dst: usize, dstStride: usize): void {
  const n = cols;
  const w = winRow;
  const lead = halfRow - 1;
  const group = <usize>n << 4; // bytes of one interleaved group
  interleave4(src, stride, il, n);
  interleave4(src + 4 * stride, stride, il + group, n);
  const v = il;
  const out = ol;
  let sumA = f32x4.splat(0.0);
  let sumB = sumA;
  let count: i32 = 0;
  let ri = 0;
  for (; ri < lead; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.add(sumA, v128.load(a));
    sumB = f32x4.add(sumB, v128.load(a + group));
    count++;
  }
  for (; ri < w; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.add(sumA, v128.load(a));
    sumB = f32x4.add(sumB, v128.load(a + group));
    count++;
    const d = f32x4.splat(<f32>count);
    const o = out + (<usize>(ri - lead) << 4);
    v128.store(o, f32x4.div(sumA, d));
    v128.store(o + group, f32x4.div(sumB, d));
  }
  const div = f32x4.splat(<f32>count);
  const back = <usize>w << 4;
  for (; ri < n; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.sub(f32x4.add(sumA, v128.load(a)), v128.load(a - back));
    sumB = f32x4.sub(f32x4.add(sumB, v128.load(a + group)), v128.load(a + group - back));
    const o = out + (<usize>(ri - lead) << 4);
    v128.store(o, f32x4.div(sumA, div));
    v128.store(o + group, f32x4.div(sumB, div));
  }
  let oi = n - lead;
  for (let i = 0; i < lead; i++) {
    const a = v + (<usize>(n - w + i) << 4);
    sumA = f32x4.sub(sumA, v128.load(a));
    sumB = f32x4.sub(sumB, v128.load(a + group));
    count--;
    const d = f32x4.splat(<f32>count);
    const o = out + (<usize>oi << 4);
    v128.store(o, f32x4.div(sumA, d));
    v128.store(o + group, f32x4.div(sumB, d));
    oi++;
  }
  deinterleave4(out, dst, dstStride, n);
  deinterleave4(out + group, dst + 4 * dstStride, dstStride, n);
}

/** boxRowQueue's output of the second row filter, at the 64 sampled columns only: QUEUE rows of 64 f32. */
const PICKED_QUEUE: usize = memory.data(QUEUE * 64 * 4, 16);

/**
 * boxRowQueue for the second row filter, whose output the second column filter reads at the 64 sampled columns
 * only: the running sums advance through every column as in boxRowQueue (the same chain of additions), but only
 * the sampled columns' sums are divided, by the count boxRowQueue divides that column by, into PICKED_QUEUE.
 */
function boxRowQueuePicked(src: usize): void {
  const n = cols;
  const w = winRow;
  const lead = halfRow - 1;
  const stride = rowStride;
  const group = <usize>n << 4;
  interleave4(src, stride, il, n);
  interleave4(src + 4 * stride, stride, il + group, n);
  const v = il;
  const out = ol; // the sums (not divided) of output column o at o * 16, lane k
  let sumA = f32x4.splat(0.0);
  let sumB = sumA;
  let ri = 0;
  for (; ri < lead; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.add(sumA, v128.load(a));
    sumB = f32x4.add(sumB, v128.load(a + group));
  }
  const back = <usize>w << 4;
  for (; ri < w; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.add(sumA, v128.load(a));
    sumB = f32x4.add(sumB, v128.load(a + group));
    const o = out + (<usize>(ri - lead) << 4);
    v128.store(o, sumA);
    v128.store(o + group, sumB);
  }
  for (; ri < n; ri++) {
    const a = v + (<usize>ri << 4);
    sumA = f32x4.sub(f32x4.add(sumA, v128.load(a)), v128.load(a - back));
    sumB = f32x4.sub(f32x4.add(sumB, v128.load(a + group)), v128.load(a + group - back));
    const o = out + (<usize>(ri - lead) << 4);
    v128.store(o, sumA);
    v128.store(o + group, sumB);
  }
  let oi = n - lead;
  for (let i = 0; i < lead; i++) {
    const a = v + (<usize>(n - w + i) << 4);
    sumA = f32x4.sub(sumA, v128.load(a));
    sumB = f32x4.sub(sumB, v128.load(a + group));
    const o = out + (<usize>oi << 4);
    v128.store(o, sumA);
    v128.store(o + group, sumB);
    oi++;
  }
  // boxRowQueue's divisor of output column o: the window growing at the left edge, w, shrinking at the right edge
  for (let j = 0; j < 64; j++) {
    const o = load<i32>(COL_IDX + (<usize>j << 2));
    const count = o < w - lead ? o + lead + 1 : o >= n - lead ? w - 1 - (o - (n - lead)) : w;
    const q = f32x4.div(v128.load(out + (<usize>o << 4)), f32x4.splat(<f32>count));
    const q2 = f32x4.div(v128.load(out + group + (<usize>o << 4)), f32x4.splat(<f32>count));
    const at = PICKED_QUEUE + (<usize>j << 2);
    store<f32>(at, f32x4.extract_lane(q, 0));
    store<f32>(at + 256, f32x4.extract_lane(q, 1));
    store<f32>(at + 512, f32x4.extract_lane(q, 2));
    store<f32>(at + 768, f32x4.extract_lane(q, 3));
    store<f32>(at + 1024, f32x4.extract_lane(q2, 0));
    store<f32>(at + 1280, f32x4.extract_lane(q2, 1));
    store<f32>(at + 1536, f32x4.extract_lane(q2, 2));
    store<f32>(at + 1792, f32x4.extract_lane(q2, 3));
  }
}

/** Four rows (slots `stride` bytes apart from `src`) into `dst` interleaved: dst[4x + k] = row k[x]. */
function interleave4(src: usize, stride: usize, dst: usize, n: i32): void {
  let x = 0;
  for (; x + 4 <= n; x += 4) {
    const o = <usize>x << 2;
    const a0 = v128.load(src + o);
    const a1 = v128.load(src + stride + o);
    const a2 = v128.load(src + 2 * stride + o);
    const a3 = v128.load(src + 3 * stride + o);
    const t0 = f32x4.shuffle(a0, a1, 0, 4, 1, 5);
    const t1 = f32x4.shuffle(a0, a1, 2, 6, 3, 7);
    const t2 = f32x4.shuffle(a2, a3, 0, 4, 1, 5);
    const t3 = f32x4.shuffle(a2, a3, 2, 6, 3, 7);
    const d = dst + (<usize>x << 4);
    v128.store(d, f32x4.shuffle(t0, t2, 0, 1, 4, 5));
    v128.store(d, f32x4.shuffle(t0, t2, 2, 3, 6, 7), 16);
    v128.store(d, f32x4.shuffle(t1, t3, 0, 1, 4, 5), 32);
    v128.store(d, f32x4.shuffle(t1, t3, 2, 3, 6, 7), 48);
  }
  for (; x < n; x++)
    for (let k = 0; k < 4; k++) store<f32>(dst + (<usize>(4 * x + k) << 2), load<f32>(src + <usize>k * stride + (<usize>x << 2)));
}

/** The inverse of interleave4. */
function deinterleave4(src: usize, dst: usize, stride: usize, n: i32): void {
  let x = 0;
  for (; x + 4 <= n; x += 4) {
    const s = src + (<usize>x << 4);
    const a0 = v128.load(s);
    const a1 = v128.load(s, 16);
    const a2 = v128.load(s, 32);
    const a3 = v128.load(s, 48);
    const t0 = f32x4.shuffle(a0, a1, 0, 4, 1, 5);
    const t1 = f32x4.shuffle(a0, a1, 2, 6, 3, 7);
    const t2 = f32x4.shuffle(a2, a3, 0, 4, 1, 5);
    const t3 = f32x4.shuffle(a2, a3, 2, 6, 3, 7);
    const o = <usize>x << 2;
    v128.store(dst + o, f32x4.shuffle(t0, t2, 0, 1, 4, 5));
    v128.store(dst + stride + o, f32x4.shuffle(t0, t2, 2, 3, 6, 7));
    v128.store(dst + 2 * stride + o, f32x4.shuffle(t1, t3, 0, 1, 4, 5));
    v128.store(dst + 3 * stride + o, f32x4.shuffle(t1, t3, 2, 3, 6, 7));
  }
  for (; x < n; x++)
    for (let k = 0; k < 4; k++) store<f32>(dst + <usize>k * stride + (<usize>x << 2), load<f32>(src + (<usize>(4 * x + k) << 2)));
}

/** Stage 1's queue is full: filters its rows along the row, then feeds them to the first column filter. */
function runQueue1(): void {
  // a window's filtered rows go to the cache (by plane row), for the next window of the same x and w
  const dst = cacheOn ? cacheRow(q1y) : boxed1;
  const stride = cacheOn ? cacheStride : rowStride;
  if (queueSize == QUEUE) boxRowQueue(queuedRow(0), queuedStride(), dst, stride);
  else boxRow(queuedRow(0), dst);
  queued1 = 0;
  for (let k = 0; k < queueSize; k++) feed1(dst + <usize>k * stride);
}

/** Stage 2's queue is full: filters its rows along the row, then feeds them to the second column filter. */
function runQueue2(): void {
  queued2 = 0;
  if (queueSize == QUEUE) {
    boxRowQueuePicked(queue2);
    for (let k = 0; k < QUEUE; k++) feed2Picked(PICKED_QUEUE + (<usize>k << 8));
  } else {
    boxRow(queue2, boxed2);
    feed2(boxed2);
  }
}

// The column filters' steps over one row, four columns per f32x4 op: each lane runs the scalar steps (add, then
// subtract, then divide), so every value is the scalar one. The buffers are 16-aligned; the tail is scalar.

/** sum += v; ring = v. */
function addInto(sum: usize, v: usize, ring: usize, n: i32): void {
  let c = 0;
  for (; c + 4 <= n; c += 4) {
    const o = <usize>c << 2;
    const x = v128.load(v + o);
    v128.store(sum + o, f32x4.add(v128.load(sum + o), x));
    v128.store(ring + o, x);
  }
  for (; c < n; c++) {
    const o = <usize>c << 2;
    const x = load<f32>(v + o);
    store<f32>(sum + o, load<f32>(sum + o) + x);
    store<f32>(ring + o, x);
  }
}

/** sum += v; ring = v; dst = sum / div. */
function addDivide(sum: usize, v: usize, ring: usize, dst: usize, n: i32, div: f32): void {
  const d = f32x4.splat(div);
  let c = 0;
  for (; c + 4 <= n; c += 4) {
    const o = <usize>c << 2;
    const x = v128.load(v + o);
    const s = f32x4.add(v128.load(sum + o), x);
    v128.store(sum + o, s);
    v128.store(ring + o, x);
    v128.store(dst + o, f32x4.div(s, d));
  }
  for (; c < n; c++) {
    const o = <usize>c << 2;
    const x = load<f32>(v + o);
    const s = load<f32>(sum + o) + x;
    store<f32>(sum + o, s);
    store<f32>(ring + o, x);
    store<f32>(dst + o, s / div);
  }
}

/** sum = sum + v - ring; ring = v. */
function slide(sum: usize, v: usize, ring: usize, n: i32): void {
  let c = 0;
  for (; c + 4 <= n; c += 4) {
    const o = <usize>c << 2;
    const x = v128.load(v + o);
    v128.store(sum + o, f32x4.sub(f32x4.add(v128.load(sum + o), x), v128.load(ring + o)));
    v128.store(ring + o, x);
  }
  for (; c < n; c++) {
    const o = <usize>c << 2;
    const x = load<f32>(v + o);
    let s = load<f32>(sum + o) + x;
    s -= load<f32>(ring + o);
    store<f32>(sum + o, s);
    store<f32>(ring + o, x);
  }
}

/** sum = sum + v - ring; ring = v; dst = sum / div. */
function slideDivide(sum: usize, v: usize, ring: usize, dst: usize, n: i32, div: f32): void {
  const d = f32x4.splat(div);
  let c = 0;
  for (; c + 4 <= n; c += 4) {
    const o = <usize>c << 2;
    const x = v128.load(v + o);
    const s = f32x4.sub(f32x4.add(v128.load(sum + o), x), v128.load(ring + o));
    v128.store(sum + o, s);
    v128.store(ring + o, x);
    v128.store(dst + o, f32x4.div(s, d));
  }
  for (; c < n; c++) {
    const o = <usize>c << 2;
    const x = load<f32>(v + o);
    let s = load<f32>(sum + o) + x;
    s -= load<f32>(ring + o);
    store<f32>(sum + o, s);
    store<f32>(ring + o, x);
    store<f32>(dst + o, s / div);
  }
}

/** Adds filtered row `v` to the first column filter; a row it yields joins stage 2's queue. */
function feed1(v: usize): void {
  const r = fed1;
  const n = cols;
  const sum = sum1;
  const ring = ring1 + <usize>slot1 * rowStride;
  const dst = queue2 + <usize>queued2 * rowStride;
  if (r < halfCol - 1) {
    count1++;
    addInto(sum, v, ring, n);
  } else if (r < winCol) {
    count1++;
    addDivide(sum, v, ring, dst, n, <f32>count1);
  } else {
    slideDivide(sum, v, ring, dst, n, <f32>count1);
  }
  fed1 = r + 1;
  if (++slot1 == winCol) slot1 = 0;
  if (r >= halfCol - 1 && ++queued2 == queueSize) runQueue2();
}

/**
 * Adds filtered row `v` to the second column filter; samples the 64x64 grid from the rows it yields. Only the 64
 * sampled columns are ever read out of this filter and each column's sums are its own, so it runs on those columns
 * alone: the same operations on the same values as over the whole row, for each column that is read.
 */
function feed2(v: usize): void {
  const picked = pick2;
  for (let j = 0; j < 64; j++) {
    const o = <usize>j << 2;
    store<f32>(picked + o, load<f32>(v + (<usize>load<i32>(COL_IDX + o) << 2)));
  }
  feed2Picked(picked);
}

/** feed2 of a row already reduced to the 64 sampled columns. */
function feed2Picked(picked: usize): void {
  const r = fed2;
  const sum = sum2;
  const ring = ring2 + (<usize>slot2 << 8);
  if (r < winCol) {
    count2++;
    addInto(sum, picked, ring, 64);
  } else {
    slide(sum, picked, ring, 64);
  }
  fed2 = r + 1;
  if (++slot2 == winCol) slot2 = 0;
  if (r >= halfCol - 1) sample2(r - (halfCol - 1));
}

/** Output row `oi` of the last column filter is current in sum2 / count2: take the grid samples it holds. */
function sample2(oi: i32): void {
  const div = <f32>count2;
  while (nextOut < 64 && load<i32>(ROW_IDX + (<usize>nextOut << 2)) == oi) {
    const out = BUF64 + (<usize>(nextOut * 64) << 2);
    for (let j = 0; j < 64; j++) store<f32>(out + (<usize>j << 2), load<f32>(sum2 + (<usize>j << 2)) / div);
    nextOut++;
  }
}

/** Phase 4 of both column filters: the last rows, with windows shrinking to the bottom edge. */
function flush(): void {
  // the rows still queued first, in order, one at a time
  if (cacheOn) drainQueue1();
  for (let k = 0; k < queued1; k++) {
    boxRow(queuedRow(k), rowOut);
    feed1(rowOut);
  }
  queued1 = 0;
  for (let k = 0; k < queued2; k++) {
    boxRow(queue2 + <usize>k * rowStride, rowOut);
    feed2(rowOut);
  }
  queued2 = 0;
  const row = flushRow;
  const n = cols;
  const rowBytes = <usize>align16(<u64>n * 4);
  const lead = halfCol - 1;
  // Ring slot of the oldest row still in each window: rows - winCol, modulo winCol, is where slot1 points now.
  let s1 = slot1;
  let oi = rows - lead;
  for (let k = 0; k < lead; k++) {
    const ring = ring1 + <usize>s1 * rowBytes;
    if (++s1 == winCol) s1 = 0;
    count1--;
    const div = <f32>count1;
    let c = 0;
    for (; c + 4 <= n; c += 4) {
      const o = <usize>c << 2;
      const s = f32x4.sub(v128.load(sum1 + o), v128.load(ring + o));
      v128.store(sum1 + o, s);
      v128.store(row + o, f32x4.div(s, f32x4.splat(div)));
    }
    for (; c < n; c++) {
      const o = <usize>c << 2;
      const s = load<f32>(sum1 + o) - load<f32>(ring + o);
      store<f32>(sum1 + o, s);
      store<f32>(row + o, s / div);
    }
    boxRow(row, rowOut);
    feed2(rowOut);
    oi++;
  }
  let s2 = slot2;
  oi = rows - lead;
  for (let k = 0; k < lead; k++) {
    const ring = ring2 + (<usize>s2 << 8);
    if (++s2 == winCol) s2 = 0;
    count2--;
    for (let o: usize = 0; o < SAMPLED_BYTES; o += 16) v128.store(sum2 + o, f32x4.sub(v128.load(sum2 + o), v128.load(ring + o)));
    sample2(oi);
    oi++;
  }
}

/**
 * Ends the image: finishes the filter, then quality, DCT and bits. Returns the quality (0..100) with the hash in
 * PDQ_HASH, or -1 when not every pixel was fed.
 */
export function pdqFinish(): i32 {
  memory.fill(PDQ_HASH, 0, 32);
  memory.fill(B16X16, 0, 16 * 16 * 4);
  if (curY != rows || curX != 0) return -1;
  if (degenerate) return 0;
  if (!direct) flush();
  let buf = BUF64;
  if (transposed) {
    for (let i = 0; i < 64; i++) {
      for (let j = 0; j < 64; j++) {
        store<f32>(BUF64T + (<usize>(j * 64 + i) << 2), load<f32>(BUF64 + (<usize>(i * 64 + j) << 2)));
      }
    }
    buf = BUF64T;
  }
  const quality = qualityOf(buf);
  dct64To16(buf);
  toBits();
  return quality;
}

/**
 * The reference's image-domain quality metric: quantized gradients (in 1/100 of full scale) summed, / 90. Four
 * gradients per f32x4: each lane runs the scalar steps ((u - v) * 100 / 255 in f32, truncated), and the integer
 * sum does not depend on its order, so the total is the scalar one's (test/node/media/pdq*.golden.test.ts).
 */
function qualityOf(a: usize): i32 {
  const hundred = f32x4.splat(<f32>100);
  const full = f32x4.splat(<f32>255);
  let acc = i32x4.splat(0);
  // down the columns: rows i and i + 1, four columns at a time
  for (let i = 0; i < 63; i++) {
    const r0 = a + (<usize>(i * 64) << 2);
    for (let j = 0; j < 64; j += 4) {
      const o = <usize>j << 2;
      const d = f32x4.div(f32x4.mul(f32x4.sub(v128.load(r0 + o), v128.load(r0 + o, 256)), hundred), full);
      acc = i32x4.add(acc, i32x4.abs(i32x4.trunc_sat_f32x4_s(d)));
    }
  }
  let total = 0;
  // along the rows: columns j and j + 1, four at a time up to column 59, the last three one at a time
  for (let i = 0; i < 64; i++) {
    const r0 = a + (<usize>(i * 64) << 2);
    for (let j = 0; j < 60; j += 4) {
      const o = <usize>j << 2;
      const d = f32x4.div(f32x4.mul(f32x4.sub(v128.load(r0 + o), v128.load(r0 + o, 4)), hundred), full);
      acc = i32x4.add(acc, i32x4.abs(i32x4.trunc_sat_f32x4_s(d)));
    }
    for (let j = 60; j < 63; j++) {
      const u = load<f32>(r0 + (<usize>j << 2));
      const v = load<f32>(r0 + (<usize>(j + 1) << 2));
      total += abs(<i32>(((u - v) * <f32>100) / <f32>255));
    }
  }
  total += i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3);
  const q = total / 90;
  return q > 100 ? 100 : q;
}

/**
 * B = D A D^T restricted to frequencies 1..16 in each direction, f32 sums in the reference's order. Four outputs
 * (j .. j+3) per f32x4: each lane sums its own products over k in order, separate multiply then add, as the scalar
 * loop `s += d[k] * a[k][j]` (f32 products commute exactly), so every coefficient is the scalar one. Several
 * vectors of outputs are summed side by side (independent chains, so the adds overlap); each lane's order is unchanged.
 */
function dct64To16(a: usize): void {
  for (let i = 0; i < 16; i++) {
    const d = DCT_MATRIX + (<usize>(i * 64) << 2);
    for (let j = 0; j < 64; j += 32) {
      let s0 = f32x4.splat(0);
      let s1 = s0;
      let s2 = s0;
      let s3 = s0;
      let s4 = s0;
      let s5 = s0;
      let s6 = s0;
      let s7 = s0;
      for (let k = 0; k < 64; k++) {
        const dk = f32x4.splat(load<f32>(d + (<usize>k << 2)));
        const r = a + (<usize>(k * 64 + j) << 2);
        s0 = f32x4.add(s0, f32x4.mul(dk, v128.load(r)));
        s1 = f32x4.add(s1, f32x4.mul(dk, v128.load(r, 16)));
        s2 = f32x4.add(s2, f32x4.mul(dk, v128.load(r, 32)));
        s3 = f32x4.add(s3, f32x4.mul(dk, v128.load(r, 48)));
        s4 = f32x4.add(s4, f32x4.mul(dk, v128.load(r, 64)));
        s5 = f32x4.add(s5, f32x4.mul(dk, v128.load(r, 80)));
        s6 = f32x4.add(s6, f32x4.mul(dk, v128.load(r, 96)));
        s7 = f32x4.add(s7, f32x4.mul(dk, v128.load(r, 112)));
      }
      const o = T16X64 + (<usize>(i * 64 + j) << 2);
      v128.store(o, s0);
      v128.store(o, s1, 16);
      v128.store(o, s2, 32);
      v128.store(o, s3, 48);
      v128.store(o, s4, 64);
      v128.store(o, s5, 80);
      v128.store(o, s6, 96);
      v128.store(o, s7, 112);
    }
  }
  for (let i = 0; i < 16; i++) {
    const t = T16X64 + (<usize>(i * 64) << 2);
    let s0 = f32x4.splat(0);
    let s1 = s0;
    let s2 = s0;
    let s3 = s0;
    for (let k = 0; k < 64; k++) {
      const tk = f32x4.splat(load<f32>(t + (<usize>k << 2)));
      const r = DCT_MATRIX_T + (<usize>(k * 16) << 2);
      s0 = f32x4.add(s0, f32x4.mul(tk, v128.load(r)));
      s1 = f32x4.add(s1, f32x4.mul(tk, v128.load(r, 16)));
      s2 = f32x4.add(s2, f32x4.mul(tk, v128.load(r, 32)));
      s3 = f32x4.add(s3, f32x4.mul(tk, v128.load(r, 48)));
    }
    const o = B16X16 + (<usize>(i * 16) << 2);
    v128.store(o, s0);
    v128.store(o, s1, 16);
    v128.store(o, s2, 32);
    v128.store(o, s3, 48);
  }
}

/** Torben Mogensen's median selection over the 256 coefficients, as the reference computes it (f32). */
function torbenMedian(m: usize, n: i32): f32 {
  let lo = load<f32>(m);
  let hi = lo;
  for (let i = 1; i < n; i++) {
    const v = load<f32>(m + (<usize>i << 2));
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const need = (n + 1) / 2;
  let guess: f32 = 0;
  let less = 0;
  let greater = 0;
  let equal = 0;
  let maxBelow: f32 = 0;
  let minAbove: f32 = 0;
  while (true) {
    guess = (lo + hi) / <f32>2;
    less = 0;
    greater = 0;
    equal = 0;
    maxBelow = lo;
    minAbove = hi;
    // Four values per f32x4: each lane counts and keeps its extremes as the scalar loop does (a value replaces the
    // kept one only when strictly beyond it), then the lanes are combined. Counts are exact; an extreme can differ
    // from the scalar one only in the sign of a zero when +0 and -0 are both present, which no comparison below (or
    // toBits's) tells apart, so the hash is the scalar one's.
    const g = f32x4.splat(guess);
    let lessV = i32x4.splat(0);
    let greaterV = i32x4.splat(0);
    let below = f32x4.splat(lo);
    let above = f32x4.splat(hi);
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const v = v128.load(m + (<usize>i << 2));
      const lt = f32x4.lt(v, g);
      const gt = f32x4.gt(v, g);
      lessV = i32x4.sub(lessV, lt);
      greaterV = i32x4.sub(greaterV, gt);
      below = v128.bitselect(v, below, v128.and(lt, f32x4.gt(v, below)));
      above = v128.bitselect(v, above, v128.and(gt, f32x4.lt(v, above)));
    }
    less = i32x4.extract_lane(lessV, 0) + i32x4.extract_lane(lessV, 1) + i32x4.extract_lane(lessV, 2) + i32x4.extract_lane(lessV, 3);
    greater =
      i32x4.extract_lane(greaterV, 0) + i32x4.extract_lane(greaterV, 1) + i32x4.extract_lane(greaterV, 2) + i32x4.extract_lane(greaterV, 3);
    for (let l = 0; l < 4; l++) {
      const b = l == 0 ? f32x4.extract_lane(below, 0) : l == 1 ? f32x4.extract_lane(below, 1) : l == 2 ? f32x4.extract_lane(below, 2) : f32x4.extract_lane(below, 3);
      const a = l == 0 ? f32x4.extract_lane(above, 0) : l == 1 ? f32x4.extract_lane(above, 1) : l == 2 ? f32x4.extract_lane(above, 2) : f32x4.extract_lane(above, 3);
      if (b > maxBelow) maxBelow = b;
      if (a < minAbove) minAbove = a;
    }
    for (; i < n; i++) {
      const v = load<f32>(m + (<usize>i << 2));
      if (v < guess) {
        less++;
        if (v > maxBelow) maxBelow = v;
      } else if (v > guess) {
        greater++;
        if (v < minAbove) minAbove = v;
      }
    }
    equal = n - less - greater;
    if (less <= need && greater <= need) break;
    else if (less > greater) hi = maxBelow;
    else lo = minAbove;
  }
  if (less >= need) return maxBelow;
  if (less + equal >= need) return guess;
  return minAbove;
}

/**
 * Bit k = 16 i + j (coefficient B[i][j] above the median) sits in 16-bit word i at bit j; the reference prints
 * words 15..0 as 4 hex digits each, so word i is bytes 2 (15 - i) (high) and 2 (15 - i) + 1 (low).
 */
function toBits(): void {
  const median = torbenMedian(B16X16, 256);
  for (let i = 0; i < 16; i++) {
    let word: u32 = 0;
    for (let j = 0; j < 16; j++) {
      if (load<f32>(B16X16 + (<usize>(i * 16 + j) << 2)) > median) word |= <u32>1 << j;
    }
    store<u8>(PDQ_HASH + <usize>((15 - i) * 2), <u8>(word >> 8));
    store<u8>(PDQ_HASH + <usize>((15 - i) * 2 + 1), <u8>(word & 255));
  }
}
