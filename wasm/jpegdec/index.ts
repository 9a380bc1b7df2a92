// JPEG decoder (ITU-T T.81), our own AssemblyScript kernel: 8-bit Huffman baseline / extended sequential and
// progressive (spectral selection + successive approximation), restart intervals, 1 or 3 components with any
// integral sampling factors, the Adobe APP14 colour transform flag. Anything else (arithmetic coding, 12-bit,
// lossless, hierarchical, 2 or 4 components, DNL) is reported unsupported so the caller can use another decoder.
//
// Why our own: the watermark job must stay inside a 128 MB isolate. This decoder hands the image out in runs of
// whole rows (one MCU row at a time), never holding a full-size RGBA image, and it can reduce the image 1/2, 1/4
// or 1/8 per side in the DCT domain (each 8x8 block becomes 4x4, 2x2 or 1x1 samples: the exact area average of
// the block's reconstruction), so a caller that needs a small image decodes far less.
//
// Use: inputAlloc(len) and copy the file there; header() parses up to the first scan (size known, nothing big
// allocated); start(scaleLog2, maxPixels) allocates (and, for progressive or multi-scan files, decodes every
// scan into the coefficient buffer); then next() returns the number of RGBA rows written at outPtr() (stride
// outWidth() * 4), 0 at the end, or -status on failure. Status: 0 ok, 1 unsupported, 2 corrupt, 3 too large.
// Every loop is bounded by the input length or the block count, so hostile input ends in a status, not a hang.

import { transpose8 } from "../shared/simd";

const OK: i32 = 0;
const UNSUPPORTED: i32 = 1;
const CORRUPT: i32 = 2;
const TOO_LARGE: i32 = 3;

/** Progressive files with more scans than this are refused (each scan walks every block: a time bomb). */
const MAX_SCANS: i32 = 100;

// The position in natural (row-major) order of the k-th coefficient in zigzag order (T.81 Figure A.6).
const ZIGZAG: StaticArray<u8> = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

// ---------------------------------------------------------------------------------------------------------
// Memory: an arena after the heap base, rebuilt for every image (it only grows, and is reused)

let staticTop: usize = 0;
let top: usize = 0;
let memFailed: bool = false;
/** The end of the highest allocation ever made: memory past it has never been written. */
let dirtyTop: usize = 0;

function alloc(size: u64): usize {
  const p = (top + 15) & ~(<usize>15);
  // sizes come from hostile headers: refuse anything past the 4 GiB address space instead of wrapping
  if (memFailed || <u64>p + size > 0xfff00000) {
    memFailed = true;
    return 0;
  }
  const bytes = <usize>size;
  const end = p + bytes;
  const have = (<usize>memory.size()) << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) {
      memFailed = true;
      return 0;
    }
  }
  top = end;
  if (end > dirtyTop) dirtyTop = end;
  return p;
}

/** Zeroes [p, p + size): only the part below dirtyTop, since memory past it is as grown, still zero. */
function zero(p: usize, size: usize): void {
  if (p < dirtyTop) memory.fill(p, 0, min<usize>(size, dirtyTop - p));
}

// Fixed tables, built once.
const HUFF_TABLE_BYTES: usize = 4096; // u16 fast[512] | i32 maxcode[18] | i32 valoff[18] | u8 vals[256] | i32 fastAc[512]
const H_MAXCODE: usize = 1024;
const H_VALOFF: usize = 1024 + 72;
const H_VALS: usize = 1024 + 144;
// AC tables: for a 9-bit peek whose code and magnitude bits both fit, value << 16 | run << 8 | bits used (0: none)
const H_FASTAC: usize = 2048;
let huff: usize = 0; // 8 tables: DC 0..3, AC 0..3
let huffDefined: StaticArray<bool> = new StaticArray<bool>(8);
let qt: usize = 0; // 4 x 64 i32, natural order
let qtDefined: StaticArray<bool> = new StaticArray<bool>(4);
// 64 f32: the dequantised block being decoded (natural order). Each value is the i32 product coefficient x
// quantiser converted once, exactly as the IDCT converted it before, so the output is unchanged.
let blk: usize = 0;
let tmp: usize = 0; // 64 f32: IDCT intermediate
let area4: usize = 0; // 4 x 8 f32: area-average IDCT rows for 1/2
let area2: usize = 0; // 2 x 8 f32: for 1/4
let zzMask: usize = 0; // 8 x 256 u64: row r's nonzero bits (natural order) as bits of their zigzag indices
let crR: usize = 0; // 256 i32 each: YCbCr -> RGB contributions
let crG: usize = 0;
let cbG: usize = 0;
let cbB: usize = 0;
let ready: bool = false;

function init(): void {
  if (ready) return;
  // the component arrays below live in the runtime's heap (allocated before this runs): the arena starts past them
  top = (heap.alloc(16) + 31) & ~(<usize>15);
  huff = alloc(8 * HUFF_TABLE_BYTES);
  qt = alloc(4 * 64 * 4);
  blk = alloc(64 * 4);
  tmp = alloc(2 * 64 * 4);
  area4 = alloc(4 * 8 * 4);
  area2 = alloc(2 * 8 * 4);
  zzMask = alloc(8 * 256 * 8);
  crR = alloc(256 * 4);
  crG = alloc(256 * 4);
  cbG = alloc(256 * 4);
  cbB = alloc(256 * 4);
  // Reduced IDCT rows: output n of N averages the 8-point basis over its 8/N pixels, so a reduced block is the
  // exact area average of the full reconstruction (before rounding).
  for (let pass = 0; pass < 2; pass++) {
    const n = pass == 0 ? 4 : 2;
    const dst = pass == 0 ? area4 : area2;
    const m = 8 / n;
    for (let i = 0; i < n; i++)
      for (let k = 0; k < 8; k++) {
        let s: f64 = 0.0;
        for (let x = i * m; x < (i + 1) * m; x++) s += Math.cos(((2.0 * <f64>x + 1.0) * <f64>k * Math.PI) / 16.0);
        const c = k == 0 ? Math.SQRT1_2 : 1.0;
        store<f32>(dst + <usize>((i * 8 + k) << 2), <f32>((0.5 * c * s) / <f64>m));
      }
  }
  for (let k = 0; k < 64; k++) {
    const n = <i32>unchecked(ZIGZAG[k]);
    const r = n >> 3;
    const bit = n & 7;
    for (let v = 0; v < 256; v++)
      if ((v >> bit) & 1) {
        const at = zzMask + (<usize>((r << 8) + v) << 3);
        store<u64>(at, load<u64>(at) | (<u64>1 << <u64>k));
      }
  }
  // T.81 / JFIF YCbCr -> RGB in 16-bit fixed point with rounding.
  for (let i = 0; i < 256; i++) {
    const x = i - 128;
    store<i32>(crR + (<usize>i << 2), (91881 * x + 32768) >> 16);
    store<i32>(cbB + (<usize>i << 2), (116130 * x + 32768) >> 16);
    store<i32>(crG + (<usize>i << 2), -46802 * x);
    store<i32>(cbG + (<usize>i << 2), -22554 * x + 32768);
  }
  staticTop = top;
  ready = true;
}

// ---------------------------------------------------------------------------------------------------------
// Input and frame state

let input: usize = 0;
let inputEnd: usize = 0;
let pos: usize = 0;

let width: i32 = 0;
let height: i32 = 0;
let ncomp: i32 = 0;
let progressive: bool = false;
let hmax: i32 = 1;
let vmax: i32 = 1;
let mcusX: i32 = 0;
let mcusY: i32 = 0;
let restartInterval: i32 = 0;
let adobe: i32 = -1; // APP14 transform flag, -1 when absent
let frameSeen: bool = false;
let buffered: bool = false; // progressive or multi-scan: coefficients first, pixels after
let scans: i32 = 0;
let eoi: bool = false;

const cId = new StaticArray<i32>(4);
const cH = new StaticArray<i32>(4);
const cV = new StaticArray<i32>(4);
const cTq = new StaticArray<i32>(4);
const cBW = new StaticArray<i32>(4); // blocks per row (MCU-padded)
const cBH = new StaticArray<i32>(4);
const cFullW = new StaticArray<i32>(4); // real samples per row at full scale
const cFullH = new StaticArray<i32>(4);
const cQ = new StaticArray<usize>(4); // the component's dequantisation table (snapshot)
const cQSet = new StaticArray<bool>(4);
const cCoef = new StaticArray<usize>(4); // i16 x 64 per block, natural order (buffered mode)
/** log2 of a block's bytes in cCoef: 7 (64 x i16), or 1 while the DC scans of a deferred decode write cDc. */
let coefShift: usize = 7;
/** The AC table of the scan being decoded (the file's table in force at that scan: a deferred scan's own copy). */
let scanAc: usize = 0;

// Deferred AC scans (progressive files). A progressive file's AC scans each name one component and touch only
// coefficients 1..63, and a refinement reads only earlier AC scans of its own component, so a block's final
// coefficients do not depend on when its AC scans run relative to the DC scans or to other components' scans.
// start() decodes the DC scans into a DC array per component (2 bytes a block) and only notes where each AC scan
// starts (with a copy of its table and restart interval); the transform of an MCU row then decodes those block
// rows of each AC scan, in file order, into a window of one MCU row of coefficients (cWin), each scan resuming
// its own bit reader. The same symbols are read in the same order with the same checks, so the coefficients, and
// the pixels, are those of decoding every scan first; the megabytes of a whole coefficient buffer, written by one
// pass and read back cold by another, are never touched. An error in a deferred scan surfaces in next() (still
// CORRUPT, reported as the scan data's: failedInScan).
let deferred: bool = false;
/** Set by keepCoefficients(1) for the next start(): every scan decoded into the whole buffer first, as before. */
let keepAll: bool = false;
let nDeferred: i32 = 0;
let scanFailed: bool = false;
const cDc = new StaticArray<usize>(4); // i16 per block (cBW x cBH): the DC coefficients
const cWin = new StaticArray<usize>(4); // i16 x 64 per block: the cV block rows of the MCU row being transformed
const cWinFlags = new StaticArray<usize>(4); // their AC flags
const dComp = new StaticArray<i32>(MAX_SCANS);
const dSs = new StaticArray<i32>(MAX_SCANS);
const dSe = new StaticArray<i32>(MAX_SCANS);
const dAh = new StaticArray<i32>(MAX_SCANS);
const dAl = new StaticArray<i32>(MAX_SCANS);
const dRi = new StaticArray<i32>(MAX_SCANS); // the restart interval in force
const dTab = new StaticArray<usize>(MAX_SCANS); // a copy of its AC table
const dStart = new StaticArray<usize>(MAX_SCANS); // its first entropy-coded byte
// each deferred scan's reader between calls
const dPos = new StaticArray<usize>(MAX_SCANS);
const dBuf = new StaticArray<u64>(MAX_SCANS);
const dCnt = new StaticArray<i32>(MAX_SCANS);
const dPad = new StaticArray<i32>(MAX_SCANS);
const dMarker = new StaticArray<bool>(MAX_SCANS);
const dEob = new StaticArray<i32>(MAX_SCANS);
const dMcu = new StaticArray<i32>(MAX_SCANS);
// The component's coefficient buffer may still hold an earlier image's data (a reused kernel): it is zeroed before
// its first scan, or, when that scan is a DC first scan that visits every block, block by block as it writes
// each DC (dcClears), instead of in a pass of its own over megabytes. There the DC scan writes only the DC and
// clears the block's AC flag: a block's 63 AC coefficients are zeroed when an AC scan first stores into it
// (acFresh), so a block no scan gives an AC coefficient is never written past its DC (half the memory traffic of
// a DC scan, and none at all for such blocks afterwards).
const cPending = new StaticArray<bool>(4);
let dcClears: bool = false;
// u8 per block, beside the coefficients: 0 while no scan has stored an AC coefficient of the block, so that the
// transform writes such a block (all AC zero) from its DC without dequantising all 64 (a nonzero flag proves
// nothing: the transform then checks the products as before). Cleared with the coefficients.
// Invariant: while a block's flag is 0 its AC coefficients are zero, or (cleared by a DC scan, see dcClears) not
// yet written and read by nothing: every reader of AC coefficients asks the flag first.
const cAcFlags = new StaticArray<usize>(4);
let blockFlag: usize = 0; // the flag of the block being decoded (set per block by decodeScanCoefs)
const cPlane = new StaticArray<usize>(4); // 2 slots of one MCU row of samples
const cAbove = new StaticArray<usize>(4); // the last sample row of the MCU row before
const cStride = new StaticArray<i32>(4);
const cRows = new StaticArray<i32>(4); // sample rows per MCU row (scaled)
const cRealW = new StaticArray<i32>(4); // real samples per row (scaled)
const cRealH = new StaticArray<i32>(4);
const cUp = new StaticArray<usize>(4); // one upsampled row
const cPred = new StaticArray<i32>(4);

// the current scan
let scanN: i32 = 0;
const sComp = new StaticArray<i32>(4);
const sTd = new StaticArray<i32>(4);
const sTa = new StaticArray<i32>(4);
let ss: i32 = 0;
let se: i32 = 63;
let ah: i32 = 0;
let al: i32 = 0;
let eobrun: i32 = 0;

// output
let scaleLog2: i32 = 0;
let bs: i32 = 8; // samples per block side after scaling
let outW: i32 = 0;
let outH: i32 = 0;
let outRows: i32 = 0; // output rows per MCU row
let out: usize = 0;
let colsum: usize = 0; // i32 scratch for the fancy upsampler
let decodedRows: i32 = 0; // MCU rows decoded into the planes
let emittedRows: i32 = 0; // MCU rows handed out
let mcuCount: i32 = 0;
let err: i32 = 0;
let coefReady: bool = false; // the coefficient buffer holds every scan of the current input
let coefTop: usize = 0;

let inputTop: usize = 0; // the arena's top after the input

export function inputAlloc(len: i32): usize {
  init();
  top = staticTop;
  memFailed = false;
  coefReady = false;
  deferred = false;
  keepAll = false;
  input = alloc(<u64>max<i32>(len, 0) + 8);
  inputEnd = input + <usize>max<i32>(len, 0);
  inputTop = top;
  return memFailed ? 0 : input;
}

/**
 * After header(), before start(): 1 when the caller will read the image again (rewind): a progressive file's scans
 * are then all decoded into the whole coefficient buffer first, so every later pass only transforms it, instead of
 * decoding its AC scans again per pass (deferred decoding saves memory and the cold buffer on a single read).
 */
export function keepCoefficients(keep: i32): void {
  keepAll = keep != 0;
}

/** 1 when next()'s failure came from entropy-coded data (a deferred scan), as start()'s failures do. */
export function failedInScan(): i32 { return scanFailed ? 1 : 0; }

export function imageWidth(): i32 { return width; }
export function imageHeight(): i32 { return height; }
export function components(): i32 { return ncomp; }
export function isProgressive(): i32 { return progressive ? 1 : 0; }
export function outWidth(): i32 { return outW; }
export function outHeight(): i32 { return outH; }
export function outPtr(): usize { return out; }
export function memoryBytes(): i32 { return memory.size() << 16; }

@inline function u8at(p: usize): i32 { return p < inputEnd ? <i32>load<u8>(p) : 0; }
@inline function u16at(p: usize): i32 { return (u8at(p) << 8) | u8at(p + 1); }

// ---------------------------------------------------------------------------------------------------------
// Markers

/** Parses markers from `pos` up to and including the next SOS header (returns OK), or EOI (sets eoi). */
function parseMarkers(): i32 {
  while (true) {
    // find 0xFF (eight bytes at a time while none of them is one: a deferred scan's data is skipped here), skip fill bytes
    while (pos + 8 <= inputEnd && !hasFF(load<u64>(pos))) pos += 8;
    while (pos < inputEnd && load<u8>(pos) != 0xff) pos++;
    while (pos < inputEnd && load<u8>(pos) == 0xff) pos++;
    if (pos >= inputEnd) return CORRUPT; // no EOI: truncated
    const m = <i32>load<u8>(pos);
    pos++;
    if (m == 0xd9) return eoiReached();
    if (m == 0 || m == 0xd8 || (m >= 0xd0 && m <= 0xd7) || m == 0x01) continue; // stuffed data or no length
    if (pos + 2 > inputEnd) return CORRUPT;
    const len = u16at(pos);
    if (len < 2 || pos + <usize>len > inputEnd) return CORRUPT;
    const seg = pos + 2;
    const segEnd = pos + <usize>len;
    pos = segEnd;
    let r = OK;
    if (m == 0xc0 || m == 0xc1 || m == 0xc2) r = parseSof(seg, segEnd, m == 0xc2);
    else if (m == 0xc4) r = parseDht(seg, segEnd);
    else if (m == 0xdb) r = parseDqt(seg, segEnd);
    else if (m == 0xdd) {
      if (len != 4) return CORRUPT;
      restartInterval = u16at(seg);
    } else if (m == 0xee) parseAdobe(seg, segEnd);
    else if (m == 0xda) return parseSos(seg, segEnd);
    else if ((m >= 0xc3 && m <= 0xcf) || m == 0xdc || m == 0xde || m == 0xdf) return UNSUPPORTED; // lossless, arithmetic, hierarchical, DNL
    // APPn, COM and anything else with a length: skipped
    if (r != OK) return r;
  }
}

/** Whether any of the 8 bytes of x is 0xFF. */
@inline function hasFF(x: u64): bool {
  const y = ~x;
  return ((y - 0x0101010101010101) & ~y & 0x8080808080808080) != 0;
}

function eoiReached(): i32 {
  eoi = true;
  return OK;
}

function parseSof(p: usize, end: usize, prog: bool): i32 {
  if (frameSeen) return CORRUPT;
  frameSeen = true;
  progressive = prog;
  if (end - p < 6) return CORRUPT;
  if (u8at(p) != 8) return UNSUPPORTED; // 12-bit
  height = u16at(p + 1);
  width = u16at(p + 3);
  ncomp = u8at(p + 5);
  if (height == 0) return UNSUPPORTED; // height defined by DNL
  if (width == 0) return CORRUPT;
  if (ncomp != 1 && ncomp != 3) return UNSUPPORTED;
  if (end - p < <usize>(6 + ncomp * 3)) return CORRUPT;
  hmax = 1;
  vmax = 1;
  for (let i = 0; i < ncomp; i++) {
    const q = p + 6 + <usize>(i * 3);
    const hv = u8at(q + 1);
    let h = hv >> 4;
    let v = hv & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4) return CORRUPT;
    if (ncomp == 1) {
      // one component is never interleaved: its MCU is one block whatever the factors say
      h = 1;
      v = 1;
    }
    unchecked((cId[i] = u8at(q)));
    unchecked((cH[i] = h));
    unchecked((cV[i] = v));
    const tq = u8at(q + 2);
    if (tq > 3) return CORRUPT;
    unchecked((cTq[i] = tq));
    unchecked((cQSet[i] = false));
    hmax = max<i32>(hmax, h);
    vmax = max<i32>(vmax, v);
  }
  for (let i = 0; i < ncomp; i++) {
    if (hmax % unchecked(cH[i]) != 0 || vmax % unchecked(cV[i]) != 0) return UNSUPPORTED; // non-integral upsampling
    for (let j = 0; j < i; j++) if (unchecked(cId[j]) == unchecked(cId[i])) return CORRUPT;
  }
  mcusX = (width + hmax * 8 - 1) / (hmax * 8);
  mcusY = (height + vmax * 8 - 1) / (vmax * 8);
  for (let i = 0; i < ncomp; i++) {
    const h = unchecked(cH[i]);
    const v = unchecked(cV[i]);
    unchecked((cBW[i] = mcusX * h));
    unchecked((cBH[i] = mcusY * v));
    unchecked((cFullW[i] = <i32>((<i64>width * h + hmax - 1) / hmax)));
    unchecked((cFullH[i] = <i32>((<i64>height * v + vmax - 1) / vmax)));
  }
  return OK;
}

function parseDht(p: usize, end: usize): i32 {
  while (p < end) {
    if (end - p < 17) return CORRUPT;
    const tc = u8at(p) >> 4;
    const th = u8at(p) & 15;
    if (tc > 1 || th > 3) return CORRUPT;
    const t = huff + <usize>((tc * 4 + th) * <i32>HUFF_TABLE_BYTES);
    let total = 0;
    for (let l = 1; l <= 16; l++) total += u8at(p + <usize>l);
    if (total > 256 || end - p < <usize>(17 + total)) return CORRUPT;
    // canonical codes (T.81 Annex C): lengths in order, codes counting up
    memory.fill(t, 0, 1024);
    let code = 0;
    let k = 0;
    for (let l = 1; l <= 16; l++) {
      const n = u8at(p + <usize>l);
      // more codes than this length holds (or its all-ones code, which T.81 Annex C reserves and libjpeg refuses):
      // refuse before the fast table below is written, which would otherwise run past its 512 entries
      if (code + n >= 1 << l) return CORRUPT;
      store<i32>(t + H_VALOFF + (<usize>l << 2), k - code);
      for (let i = 0; i < n; i++) {
        if (l <= 9) {
          const shift = 9 - l;
          const entry = <u16>((l << 8) | u8at(p + 17 + <usize>k));
          const first = code << shift;
          for (let j = 0; j < 1 << shift; j++) store<u16>(t + (<usize>(first + j) << 1), entry);
        }
        code++;
        k++;
      }
      store<i32>(t + H_MAXCODE + (<usize>l << 2), n > 0 ? code - 1 : -1);
      code <<= 1;
    }
    store<i32>(t + H_MAXCODE + (17 << 2), 0x7fffffff);
    memory.copy(t + H_VALS, p + 17, <usize>total);
    memory.fill(t + H_FASTAC, 0, 2048);
    if (tc == 1)
      for (let i = 0; i < 512; i++) {
        const e = <i32>load<u16>(t + (<usize>i << 1));
        if (e == 0) continue;
        const l = e >> 8;
        const rs = e & 255;
        const sz = rs & 15;
        if (sz == 0 || l + sz > 9) continue;
        const v = extend((i >> (9 - l - sz)) & ((1 << sz) - 1), sz);
        store<i32>(t + H_FASTAC + (<usize>i << 2), (v << 16) | ((rs >> 4) << 8) | (l + sz));
      }
    else
      // DC tables: for a 9-bit peek whose code and difference bits both fit, difference << 16 | bits used (the
      // used count is at least 1, so 0 means none); the DC first scan reads a difference in one lookup
      for (let i = 0; i < 512; i++) {
        const e = <i32>load<u16>(t + (<usize>i << 1));
        if (e == 0) continue;
        const l = e >> 8;
        const sz = e & 255;
        if (sz > 16 || l + sz > 9) continue;
        const v = sz == 0 ? 0 : extend((i >> (9 - l - sz)) & ((1 << sz) - 1), sz);
        store<i32>(t + H_FASTAC + (<usize>i << 2), (v << 16) | (l + sz));
      }
    unchecked((huffDefined[tc * 4 + th] = true));
    p += 17 + <usize>total;
  }
  return OK;
}

function parseDqt(p: usize, end: usize): i32 {
  while (p < end) {
    const pq = u8at(p) >> 4;
    const tq = u8at(p) & 15;
    if (pq > 1 || tq > 3) return CORRUPT;
    const n: usize = pq == 0 ? 64 : 128;
    if (end - p < 1 + n) return CORRUPT;
    const t = qt + <usize>(tq * 256);
    for (let k = 0; k < 64; k++) {
      const v = pq == 0 ? u8at(p + 1 + <usize>k) : u16at(p + 1 + <usize>(k * 2));
      store<i32>(t + (<usize>unchecked(ZIGZAG[k]) << 2), v);
    }
    unchecked((qtDefined[tq] = true));
    p += 1 + n;
  }
  return OK;
}

function parseAdobe(p: usize, end: usize): void {
  if (end - p >= 12 && u8at(p) == 0x41 && u8at(p + 1) == 0x64 && u8at(p + 2) == 0x6f && u8at(p + 3) == 0x62 && u8at(p + 4) == 0x65)
    adobe = u8at(p + 11);
}

function parseSos(p: usize, end: usize): i32 {
  if (!frameSeen) return CORRUPT;
  const n = u8at(p);
  if (n < 1 || n > ncomp || end - p < <usize>(4 + n * 2)) return CORRUPT;
  scanN = n;
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    const id = u8at(p + 1 + <usize>(i * 2));
    let c = -1;
    for (let j = 0; j < ncomp; j++) if (unchecked(cId[j]) == id) c = j;
    if (c < 0) return CORRUPT;
    for (let j = 0; j < i; j++) if (unchecked(sComp[j]) == c) return CORRUPT;
    unchecked((sComp[i] = c));
    const t = u8at(p + 2 + <usize>(i * 2));
    unchecked((sTd[i] = t >> 4));
    unchecked((sTa[i] = t & 15));
    if (t >> 4 > 3 || (t & 15) > 3) return CORRUPT;
    blocks += unchecked(cH[c]) * unchecked(cV[c]);
    // the dequantisation table in force when the component's first scan starts
    if (!unchecked(cQSet[c])) {
      const tq = unchecked(cTq[c]);
      if (!unchecked(qtDefined[tq])) return CORRUPT;
      unchecked((cQSet[c] = true));
      if (cQ[c] == 0) return CORRUPT;
      memory.copy(unchecked(cQ[c]), qt + <usize>(tq * 256), 256);
    }
  }
  if (n > 1 && blocks > 10) return CORRUPT;
  const q = p + 1 + <usize>(n * 2);
  ss = u8at(q);
  se = u8at(q + 1);
  ah = u8at(q + 2) >> 4;
  al = u8at(q + 2) & 15;
  if (progressive) {
    if (ss > se || se > 63 || al > 13 || ah > 13) return CORRUPT;
    if (ss == 0 && se != 0) return CORRUPT;
    if (ss > 0 && n != 1) return CORRUPT;
  } else {
    ss = 0;
    se = 63;
    ah = 0;
    al = 0;
  }
  scans++;
  if (scans > MAX_SCANS) return UNSUPPORTED;
  return OK;
}

/**
 * Parses the file up to its first scan: size, components, tables. Returns a status; nothing large is allocated,
 * so the caller can refuse an image by its size first.
 */
export function header(): i32 {
  init();
  top = inputTop;
  pos = input;
  frameSeen = false;
  progressive = false;
  restartInterval = 0;
  adobe = -1;
  scans = 0;
  eoi = false;
  buffered = false;
  width = 0;
  height = 0;
  ncomp = 0;
  for (let i = 0; i < 8; i++) unchecked((huffDefined[i] = false));
  for (let i = 0; i < 4; i++) {
    unchecked((qtDefined[i] = false));
    unchecked((cQ[i] = 0));
  }
  if (u8at(input) != 0xff || u8at(input + 1) != 0xd8) return CORRUPT;
  pos = input + 2;
  // the snapshots of the dequantisation tables are small: allocate them before any parse
  for (let i = 0; i < 4; i++) unchecked((cQ[i] = alloc(256)));
  if (memFailed) return TOO_LARGE;
  const r = parseMarkers();
  if (r != OK) return r;
  if (eoi || !frameSeen) return CORRUPT;
  buffered = progressive || scanN != ncomp;
  return OK;
}

// ---------------------------------------------------------------------------------------------------------
// Entropy decoding

let bitBuf: u64 = 0;
let bitCnt: i32 = 0;
let padBytes: i32 = 0; // zero bytes fed past a marker or the end of the input
let markerHit: bool = false;

function resetBits(): void {
  bitBuf = 0;
  bitCnt = 0;
  padBytes = 0;
  markerHit = false;
}

/** Tops the bit buffer up to at least 57 bits; past a marker or the end it feeds zero bytes (counted). */
function fill(): void {
  // fast path: the next 8 bytes hold no 0xFF, so the whole bytes that fit go in at once
  if (!markerHit && pos + 8 <= inputEnd) {
    const x = load<u64>(pos);
    const y = ~x;
    if (((y - 0x0101010101010101) & ~y & 0x8080808080808080) == 0) {
      const k = (64 - bitCnt) >> 3;
      const be = bswap<u64>(x);
      bitBuf = k == 8 ? be : (bitBuf << <u64>(k << 3)) | (be >> <u64>(64 - (k << 3)));
      bitCnt += k << 3;
      pos += <usize>k;
      return;
    }
  }
  while (bitCnt <= 56) {
    let b: u64 = 0;
    if (!markerHit && pos < inputEnd) {
      const x = load<u8>(pos);
      if (x != 0xff) {
        b = <u64>x;
        pos++;
      } else {
        const y = pos + 1 < inputEnd ? load<u8>(pos + 1) : 0xd9;
        if (y == 0) {
          b = 0xff;
          pos += 2;
        } else {
          markerHit = true; // pos stays on the marker
          padBytes++;
        }
      }
    } else padBytes++;
    bitBuf = (bitBuf << 8) | b;
    bitCnt += 8;
  }
}

/** Whether the decoder has used bits it invented (a truncated or corrupt scan). */
@inline function overrun(): bool {
  return padBytes > 0 && padBytes * 8 > bitCnt;
}

@inline function getBits(n: i32): i32 {
  if (bitCnt < n) fill();
  bitCnt -= n;
  return <i32>(bitBuf >> <u64>bitCnt) & ((1 << n) - 1);
}

@inline function getBit(): i32 {
  if (bitCnt < 1) fill();
  bitCnt--;
  return <i32>(bitBuf >> <u64>bitCnt) & 1;
}

@inline function extend(v: i32, s: i32): i32 {
  return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
}

/** Decodes one Huffman symbol with table t (sets err on an invalid code). */
@inline function decodeSym(t: usize): i32 {
  if (bitCnt < 16) fill();
  const peek = <i32>(bitBuf >> <u64>(bitCnt - 9)) & 511;
  const e = <i32>load<u16>(t + (<usize>peek << 1));
  if (e != 0) {
    bitCnt -= e >> 8;
    return e & 255;
  }
  return decodeSlow(t);
}

function decodeSlow(t: usize): i32 {
  for (let l = 10; l <= 16; l++) {
    const code = <i32>(bitBuf >> <u64>(bitCnt - l)) & ((1 << l) - 1);
    if (code <= load<i32>(t + H_MAXCODE + (<usize>l << 2))) {
      bitCnt -= l;
      const i = code + load<i32>(t + H_VALOFF + (<usize>l << 2));
      return i >= 0 && i < 256 ? <i32>load<u8>(t + H_VALS + <usize>i) : 0;
    }
  }
  err = CORRUPT;
  bitCnt = 0;
  return 0;
}

@inline function dcTable(i: i32): usize { return huff + <usize>(unchecked(sTd[i]) * <i32>HUFF_TABLE_BYTES); }
@inline function acTable(i: i32): usize { return huff + <usize>((4 + unchecked(sTa[i])) * <i32>HUFF_TABLE_BYTES); }

function tablesDefined(): bool {
  for (let i = 0; i < scanN; i++) {
    if ((ss == 0 && ah == 0) || !progressive) if (!unchecked(huffDefined[unchecked(sTd[i])])) return false;
    if (se > 0 && !unchecked(huffDefined[4 + unchecked(sTa[i])])) return false;
  }
  return true;
}

/** At a restart interval's end: the next bytes must be an RSTn marker (no resynchronising search: linear time). */
function restart(): void {
  resetBits();
  // at most the interval's last padded byte (and a stuffed zero) can be unread before the marker
  const limit = min<usize>(inputEnd, pos + 16);
  while (pos < limit && load<u8>(pos) != 0xff) pos++;
  let q = pos + 1;
  while (q < inputEnd && load<u8>(q) == 0xff) q++;
  if (pos < limit && q < inputEnd && load<u8>(q) >= 0xd0 && load<u8>(q) <= 0xd7) {
    pos = q + 1;
    for (let i = 0; i < 4; i++) unchecked((cPred[i] = 0));
    eobrun = 0;
    return;
  }
  err = CORRUPT;
}

@inline function needRestart(): bool {
  return restartInterval > 0 && mcuCount > 0 && mcuCount % restartInterval == 0;
}

/** One sequential block, dequantised into blk (natural order). Returns the zigzag index of the last coefficient. */
function decodeBlock(i: i32, c: i32, keepAc: bool): i32 {
  const q = unchecked(cQ[c]);
  const s = decodeSym(dcTable(i));
  let dc = unchecked(cPred[c]);
  if (s != 0) {
    if (s > 16) {
      err = CORRUPT;
      return 0;
    }
    dc += extend(getBits(s), s);
    unchecked((cPred[c] = dc));
  }
  store<f32>(blk, <f32>(dc * load<i32>(q)));
  const ac = acTable(i);
  let last = 0;
  let k = 1;
  while (k < 64) {
    if (bitCnt < 16) fill();
    const f = load<i32>(ac + H_FASTAC + (<usize>(<i32>(bitBuf >> <u64>(bitCnt - 9)) & 511) << 2));
    if (f != 0) {
      // code and magnitude in one lookup
      bitCnt -= f & 255;
      k += (f >> 8) & 255;
      if (k > 63) {
        err = CORRUPT;
        return 0;
      }
      if (keepAc) {
        const z = <usize>unchecked(ZIGZAG[k]);
        store<f32>(blk + (z << 2), <f32>((f >> 16) * load<i32>(q + (z << 2))));
        last = k;
      }
      k++;
      continue;
    }
    const rs = decodeSym(ac);
    const r = rs >> 4;
    const sz = rs & 15;
    if (sz == 0) {
      if (r != 15) break;
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) {
      err = CORRUPT;
      return 0;
    }
    const v = extend(getBits(sz), sz);
    if (keepAc) {
      const z = <usize>unchecked(ZIGZAG[k]);
      store<f32>(blk + (z << 2), <f32>(v * load<i32>(q + (z << 2))));
      last = k;
    }
    k++;
  }
  return last;
}

// Progressive (and multi-scan sequential) decoding into the i16 coefficient buffer, natural order. A refinement
// scan finds the coefficients already nonzero as a mask in zigzag order (nonzeroMask: SIMD compares, then a table
// lookup per row) instead of a table lookup and a load per position.

@inline function flagAt(c: i32, bx: i32, by: i32): usize {
  return unchecked(cAcFlags[c]) + <usize>by * <usize>unchecked(cBW[c]) + <usize>bx;
}

@inline function coefAt(c: i32, bx: i32, by: i32): usize {
  return unchecked(cCoef[c]) + ((<usize>by * <usize>unchecked(cBW[c]) + <usize>bx) << coefShift);
}

function decodeSequentialCoefs(i: i32, c: i32, p: usize): void {
  const s = decodeSym(dcTable(i));
  let dc = unchecked(cPred[c]);
  if (s != 0) {
    if (s > 16) {
      err = CORRUPT;
      return;
    }
    dc += extend(getBits(s), s);
    unchecked((cPred[c] = dc));
  }
  store<i16>(p, <i16>dc);
  const ac = acTable(i);
  let k = 1;
  while (k < 64) {
    const rs = decodeSym(ac);
    const r = rs >> 4;
    const sz = rs & 15;
    if (sz == 0) {
      if (r != 15) break;
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) {
      err = CORRUPT;
      return;
    }
    store<i16>(p + (<usize>unchecked(ZIGZAG[k]) << 1), <i16>extend(getBits(sz), sz));
    store<u8>(blockFlag, 1);
    k++;
  }
}

/**
 * Before the first AC coefficient stored into a block whose flag is 0: its AC coefficients (possibly an earlier
 * image's, see dcClears) zeroed, its DC kept, and the flag set.
 */
@inline function acFresh(p: usize): void {
  if (load<u8>(blockFlag) != 0) return;
  store<u8>(blockFlag, 1);
  const dc = load<i16>(p);
  const z = i16x8.splat(0);
  v128.store(p, z);
  v128.store(p, z, 16);
  v128.store(p, z, 32);
  v128.store(p, z, 48);
  v128.store(p, z, 64);
  v128.store(p, z, 80);
  v128.store(p, z, 96);
  v128.store(p, z, 112);
  store<i16>(p, dc);
}

function decodeDcFirst(i: i32, c: i32, p: usize): void {
  if (dcClears) store<u8>(blockFlag, 0); // its AC coefficients are zeroed when first stored into (acFresh)
  const s = decodeSym(dcTable(i));
  let dc = unchecked(cPred[c]);
  if (s != 0) {
    if (s > 16) {
      err = CORRUPT;
      return;
    }
    dc += extend(getBits(s), s);
    unchecked((cPred[c] = dc));
  }
  store<i16>(p, <i16>(dc << al));
}

function decodeDcRefine(p: usize): void {
  if (getBit()) store<i16>(p, <i16>(<i32>load<i16>(p) | (1 << al)));
}

// The hot loops below keep the bit buffer in locals (buf, cnt) and write it back only around fill() and the slow
// paths: globals live in memory, so each symbol would otherwise wait on the store of the last one's bit count.

function decodeAcFirst(p: usize): void {
  if (eobrun > 0) {
    eobrun--;
    return;
  }
  const ac = scanAc;
  const end = se;
  const shift = al;
  let k = ss;
  let buf = bitBuf;
  let cnt = bitCnt;
  while (k <= end) {
    if (cnt < 16) {
      bitBuf = buf;
      bitCnt = cnt;
      fill();
      buf = bitBuf;
      cnt = bitCnt;
    }
    const f = load<i32>(ac + H_FASTAC + (<usize>(<i32>(buf >> <u64>(cnt - 9)) & 511) << 2));
    if (f != 0) {
      // code and magnitude in one lookup (as decodeBlock)
      cnt -= f & 255;
      k += (f >> 8) & 255;
      if (k > 63) {
        err = CORRUPT;
        break;
      }
      acFresh(p);
      store<i16>(p + (<usize>unchecked(ZIGZAG[k]) << 1), <i16>((f >> 16) << shift));
      k++;
      continue;
    }
    bitBuf = buf;
    bitCnt = cnt;
    k = acFirstSlow(ac, p, k);
    buf = bitBuf;
    cnt = bitCnt;
    if (k < 0) break;
  }
  bitBuf = buf;
  bitCnt = cnt;
}

/** decodeAcFirst's symbol that the fast table does not hold (globals bitBuf/bitCnt); the next k, or -1 at the end. */
function acFirstSlow(ac: usize, p: usize, k: i32): i32 {
  const rs = decodeSym(ac);
  const r = rs >> 4;
  const sz = rs & 15;
  if (sz == 0) {
    if (r < 15) {
      eobrun = (1 << r) - 1;
      if (r > 0) eobrun += getBits(r);
      return -1;
    }
    return k + 16;
  }
  k += r;
  if (k > 63) {
    err = CORRUPT;
    return -1;
  }
  const v = <i16>(extend(getBits(sz), sz) << al);
  acFresh(p);
  store<i16>(p + (<usize>unchecked(ZIGZAG[k]) << 1), v);
  return k + 1;
}

function decodeAcRefine(p: usize): void {
  const p1 = 1 << al;
  let k = ss;
  // the coefficients of the band already nonzero before this scan (one placed by it lies below k from then on);
  // none while the block's flag is 0 (its AC coefficients may not be written yet: see acFresh)
  const nonzero = load<u8>(blockFlag) == 0 ? <u64>0 : nonzeroMask(p) & bandMask(ss, se);
  if (eobrun <= 0) {
    const ac = scanAc;
    while (k <= se) {
      const rs = decodeSym(ac);
      const r = rs >> 4;
      const sz = rs & 15;
      let v = 0;
      if (sz != 0) {
        if (sz != 1) {
          err = CORRUPT;
          return;
        }
        v = getBit() ? p1 : -p1;
      } else if (r != 15) {
        eobrun = 1 << r;
        if (r > 0) eobrun += getBits(r);
        break;
      }
      // skip r coefficients that are still zero (refining the nonzero ones passed), then place v at the next zero
      let zeros = ~nonzero & bandMask(k, se);
      for (let j = 0; j < r; j++) zeros &= zeros - 1;
      const at = zeros != 0 ? <i32>ctz<u64>(zeros) : se + 1;
      if (at > k) refineNonzero(p, nonzero & bandMask(k, at - 1), p1);
      if (at <= se && v != 0) {
        acFresh(p);
        store<i16>(p + (<usize>unchecked(ZIGZAG[at]) << 1), <i16>v);
      }
      k = at + 1;
      if (err != OK) return;
    }
  }
  if (eobrun > 0) {
    if (k <= se) refineNonzero(p, nonzero & bandMask(k, se), p1);
    eobrun--;
  }
}

/** Bit k set when the coefficient of zigzag index k of the block at p (natural order) is nonzero. */
@inline function nonzeroMask(p: usize): u64 {
  const zero = i16x8.splat(0);
  let m: u64 = 0;
  for (let r: usize = 0; r < 8; r++) {
    const rowBits = <usize>i16x8.bitmask(v128.not(i16x8.eq(v128.load(p + (r << 4)), zero)));
    m |= load<u64>(zzMask + (((r << 8) + rowBits) << 3));
  }
  return m;
}

/** Bits from..to (inclusive, 0 <= from <= to <= 63). */
@inline function bandMask(from: i32, to: i32): u64 {
  const upTo: u64 = to == 63 ? <u64>-1 : (<u64>1 << <u64>(to + 1)) - 1;
  return upTo & (<u64>-1 << <u64>from);
}

/**
 * One correction bit for each coefficient of `m` (all nonzero), lowest position first, as the per-position walk
 * reads them; up to 16 bits are taken from the bit buffer at once.
 */
@inline function refineNonzero(p: usize, m: u64, p1: i32): void {
  while (m != 0) {
    const n = min<i32>(<i32>popcnt<u64>(m), 16);
    const bits = getBits(n);
    // branch-free: a correction bit is a coin toss, so a branch on it mispredicts half the time
    for (let j = n - 1; j >= 0; j--) {
      const a = p + (<usize>unchecked(ZIGZAG[<i32>ctz<u64>(m)]) << 1);
      m &= m - 1;
      const v = <i32>load<i16>(a);
      const sign = v >> 31; // 0 or -1
      // all ones when the bit is set and v does not have p1 yet: then v moves p1 away from zero
      const apply = -(((bits >> j) & 1) & <i32>((v & p1) == 0));
      store<i16>(a, <i16>(v + (((p1 ^ sign) - sign) & apply)));
    }
  }
}

@inline function decodeCoefBlock(i: i32, c: i32, p: usize): void {
  if (!progressive) decodeSequentialCoefs(i, c, p);
  else if (ss == 0) {
    if (ah == 0) decodeDcFirst(i, c, p);
    else decodeDcRefine(p);
  } else if (ah == 0) decodeAcFirst(p);
  else decodeAcRefine(p);
}

/** Zeroes component c's coefficient buffer if that has not been done (or is not being done) yet. */
function clearPending(c: i32): void {
  if (!unchecked(cPending[c])) return;
  unchecked((cPending[c] = false));
  zero(unchecked(cCoef[c]), (<usize>unchecked(cBW[c]) * <usize>unchecked(cBH[c])) << 7);
  zero(unchecked(cAcFlags[c]), <usize>unchecked(cBW[c]) * <usize>unchecked(cBH[c]));
}

/**
 * An interleaved DC first scan: decodeDcFirst for every block in MCU order, with the bit buffer in locals
 * (written back around fill, the slow symbol path, restarts and the overrun check).
 */
function decodeDcFirstScan(): i32 {
  const shift = al;
  const clears = dcClears;
  let buf = bitBuf;
  let cnt = bitCnt;
  for (let my = 0; my < mcusY; my++) {
    for (let mx = 0; mx < mcusX; mx++) {
      if (needRestart()) {
        bitBuf = buf;
        bitCnt = cnt;
        restart();
        // (a missing marker: corrupt, as the first block's check below would report; the fast path skips it)
        if (err != OK) return err;
        buf = bitBuf;
        cnt = bitCnt;
      }
      for (let i = 0; i < scanN; i++) {
        const c = unchecked(sComp[i]);
        const h = unchecked(cH[c]);
        const v = unchecked(cV[c]);
        const t = dcTable(i);
        let dc = unchecked(cPred[c]);
        for (let y = 0; y < v; y++)
          for (let x = 0; x < h; x++) {
            const p = coefAt(c, mx * h + x, my * v + y);
            if (clears) store<u8>(flagAt(c, mx * h + x, my * v + y), 0); // AC zeroed on first store (acFresh)
            if (cnt < 16) {
              bitBuf = buf;
              bitCnt = cnt;
              fill();
              buf = bitBuf;
              cnt = bitCnt;
            }
            const peek = <usize>(<i32>(buf >> <u64>(cnt - 9)) & 511);
            const f = load<i32>(t + H_FASTAC + (peek << 2));
            if (f != 0) {
              // code and difference in one lookup
              cnt -= f & 255;
              dc += f >> 16;
              store<i16>(p, <i16>(dc << shift));
              continue;
            }
            const e = <i32>load<u16>(t + (peek << 1));
            let sz = e & 255;
            if (e != 0) cnt -= e >> 8;
            else {
              bitBuf = buf;
              bitCnt = cnt;
              sz = decodeSlow(t);
              buf = bitBuf;
              cnt = bitCnt;
            }
            if (sz != 0) {
              if (sz > 16) err = CORRUPT;
              else {
                if (cnt < sz) {
                  bitBuf = buf;
                  bitCnt = cnt;
                  fill();
                  buf = bitBuf;
                  cnt = bitCnt;
                }
                cnt -= sz;
                dc += extend(<i32>(buf >> <u64>cnt) & ((1 << sz) - 1), sz);
              }
            }
            if (err != OK) {
              bitBuf = buf;
              bitCnt = cnt;
              return err;
            }
            store<i16>(p, <i16>(dc << shift));
          }
        unchecked((cPred[c] = dc));
      }
      mcuCount++;
    }
    bitBuf = buf;
    bitCnt = cnt;
    if (overrun()) return CORRUPT;
  }
  bitBuf = buf;
  bitCnt = cnt;
  return OK;
}

/**
 * A (non-interleaved) AC first scan: decodeAcFirst for every block of the component in raster order, as the
 * generic loop of decodeScanCoefs runs it, with the bit buffer and the end-of-band run in locals across blocks
 * (written back around fill, the slow symbol path, restarts and the overrun check), and a block inside an EOB run
 * skipped without a call: the same symbols read in the same order, the same coefficients stored.
 */
function decodeAcFirstScan(by0: i32, by1: i32): i32 {
  const c = unchecked(sComp[0]);
  const bw = (unchecked(cFullW[c]) + 7) >> 3;
  const ac = scanAc;
  const start = ss;
  const end = se;
  const shift = al;
  const fast = ac + H_FASTAC;
  let buf = bitBuf;
  let cnt = bitCnt;
  let run = eobrun;
  for (let by = by0; by < by1; by++) {
    let p = coefAt(c, 0, by);
    let flag = flagAt(c, 0, by);
    for (let bx = 0; bx < bw; bx++, p += 128, flag++) {
      if (restartInterval > 0 && needRestart()) {
        bitBuf = buf;
        bitCnt = cnt;
        eobrun = run;
        restart();
        // (a missing marker: the scan is corrupt whatever follows; the generic loop reports it after the block)
        if (err != OK) return err;
        buf = bitBuf;
        cnt = bitCnt;
        run = eobrun;
      }
      mcuCount++;
      if (run > 0) {
        run--;
        continue;
      }
      blockFlag = flag;
      let k = start;
      while (k <= end) {
        if (cnt < 16) {
          bitBuf = buf;
          bitCnt = cnt;
          fill();
          buf = bitBuf;
          cnt = bitCnt;
        }
        const f = load<i32>(fast + (<usize>(<i32>(buf >> <u64>(cnt - 9)) & 511) << 2));
        if (f != 0) {
          // code and magnitude in one lookup (as decodeBlock)
          cnt -= f & 255;
          k += (f >> 8) & 255;
          if (k > 63) {
            err = CORRUPT;
            break;
          }
          acFresh(p);
          store<i16>(p + (<usize>unchecked(ZIGZAG[k]) << 1), <i16>((f >> 16) << shift));
          k++;
          continue;
        }
        // the symbol by the 9-bit table (an end of band, a run of 16 zeros, or a magnitude too long for the
        // table above): acFirstSlow's steps inline; a longer code goes to acFirstSlow itself
        const e = <i32>load<u16>(ac + (<usize>(<i32>(buf >> <u64>(cnt - 9)) & 511) << 1));
        if (e != 0) {
          cnt -= e >> 8;
          const r = (e >> 4) & 15;
          const sz = e & 15;
          if (sz == 0) {
            if (r < 15) {
              run = (1 << r) - 1;
              if (r > 0) {
                if (cnt < r) {
                  bitBuf = buf;
                  bitCnt = cnt;
                  fill();
                  buf = bitBuf;
                  cnt = bitCnt;
                }
                cnt -= r;
                run += <i32>(buf >> <u64>cnt) & ((1 << r) - 1);
              }
              break;
            }
            k += 16;
            continue;
          }
          k += r;
          if (k > 63) {
            err = CORRUPT;
            break;
          }
          if (cnt < sz) {
            bitBuf = buf;
            bitCnt = cnt;
            fill();
            buf = bitBuf;
            cnt = bitCnt;
          }
          cnt -= sz;
          const v = <i16>(extend(<i32>(buf >> <u64>cnt) & ((1 << sz) - 1), sz) << shift);
          acFresh(p);
          store<i16>(p + (<usize>unchecked(ZIGZAG[k]) << 1), v);
          k++;
          continue;
        }
        bitBuf = buf;
        bitCnt = cnt;
        eobrun = run;
        k = acFirstSlow(ac, p, k);
        buf = bitBuf;
        cnt = bitCnt;
        run = eobrun;
        if (k < 0) break;
      }
      if (err != OK) {
        bitBuf = buf;
        bitCnt = cnt;
        eobrun = run;
        return err;
      }
    }
    bitBuf = buf;
    bitCnt = cnt;
    eobrun = run;
    if (overrun()) return CORRUPT;
  }
  bitBuf = buf;
  bitCnt = cnt;
  eobrun = run;
  return OK;
}

/**
 * Block rows by0..by1-1 of a non-interleaved scan (the component's own blocks, raster order, each one an MCU),
 * continuing from the state the previous rows left (bit buffer, end-of-band run, restart count).
 */
function decodeComponentRows(by0: i32, by1: i32): i32 {
  if (progressive && ss > 0 && ah == 0) return decodeAcFirstScan(by0, by1);
  const c = unchecked(sComp[0]);
  const bw = (unchecked(cFullW[c]) + 7) >> 3;
  for (let by = by0; by < by1; by++) {
    for (let bx = 0; bx < bw; bx++) {
      if (needRestart()) restart();
      blockFlag = flagAt(c, bx, by);
      decodeCoefBlock(0, c, coefAt(c, bx, by));
      mcuCount++;
      if (err != OK) return err;
    }
    if (overrun()) return CORRUPT;
  }
  return OK;
}

/** Decodes the current scan into the coefficient buffer. */
function decodeScanCoefs(): i32 {
  if (!tablesDefined()) return CORRUPT;
  // The scan clears its blocks as it goes only when it is the first scan of each of its components, a DC first
  // scan, and visits every block of the buffer (interleaved, or the only component: the MCU grid is the block
  // grid); otherwise its components are zeroed now.
  let clears = progressive && ss == 0 && ah == 0;
  for (let i = 0; i < scanN; i++) if (!unchecked(cPending[unchecked(sComp[i])])) clears = false;
  if (scanN == 1) {
    const c = unchecked(sComp[0]);
    if ((unchecked(cFullW[c]) + 7) >> 3 != unchecked(cBW[c]) || (unchecked(cFullH[c]) + 7) >> 3 != unchecked(cBH[c])) clears = false;
  }
  for (let i = 0; i < scanN; i++) {
    const c = unchecked(sComp[i]);
    if (clears) unchecked((cPending[c] = false));
    else clearPending(c);
  }
  dcClears = clears;
  resetBits();
  for (let i = 0; i < 4; i++) unchecked((cPred[i] = 0));
  eobrun = 0;
  mcuCount = 0;
  scanAc = acTable(0);
  if (scanN == 1) return decodeComponentRows(0, (unchecked(cFullH[unchecked(sComp[0])]) + 7) >> 3);
  if (progressive && ss == 0 && ah == 0) return decodeDcFirstScan();
  else {
    for (let my = 0; my < mcusY; my++) {
      for (let mx = 0; mx < mcusX; mx++) {
        if (needRestart()) restart();
        for (let i = 0; i < scanN; i++) {
          const c = unchecked(sComp[i]);
          const h = unchecked(cH[c]);
          const v = unchecked(cV[c]);
          for (let y = 0; y < v; y++)
            for (let x = 0; x < h; x++) {
              blockFlag = flagAt(c, mx * h + x, my * v + y);
              decodeCoefBlock(i, c, coefAt(c, mx * h + x, my * v + y));
            }
        }
        mcuCount++;
        if (err != OK) return err;
      }
      if (overrun()) return CORRUPT;
    }
  }
  return OK;
}

// ---------------------------------------------------------------------------------------------------------
// Inverse DCT into the planes (level shift, rounding, clamping)

const A4: f32 = 0.70710678118654752; // cos(pi/4)
const C1: f32 = 0.98078528040323044; // cos(k pi/16)
const C2: f32 = 0.92387953251128674;
const C3: f32 = 0.83146961230254524;
const C5: f32 = 0.55557023301960218;
const C6: f32 = 0.38268343236508977;
const C7: f32 = 0.19509032201862766;

@inline function clampByte(v: f32): u8 {
  // v already includes the +128.5 level shift and rounding bias
  return <u8>(<i32>max<f32>(0.0, min<f32>(255.0, v)));
}

/**
 * One 8-point IDCT pass over four lanes at once (wasm SIMD): X0..X7 are rows 32 bytes apart from `s`, the outputs
 * go to rows 32 bytes apart from `d`. Even/odd decomposition: x[n] = e[n] + o[n], x[7-n] = e[n] - o[n], the even
 * half a 4-point IDCT of X0, X2, X4, X6, the odd half a 4x4 product with X1, X3, X5, X7. Unnormalised (x 2).
 */
@inline function idctPass(s: usize, d: usize): void {
  const X0 = v128.load(s);
  const X1 = v128.load(s, 32);
  const X2 = v128.load(s, 64);
  const X3 = v128.load(s, 96);
  const X4 = v128.load(s, 128);
  const X5 = v128.load(s, 160);
  const X6 = v128.load(s, 192);
  const X7 = v128.load(s, 224);
  const a4 = f32x4.splat(A4);
  const c1 = f32x4.splat(C1);
  const c2 = f32x4.splat(C2);
  const c3 = f32x4.splat(C3);
  const c5 = f32x4.splat(C5);
  const c6 = f32x4.splat(C6);
  const c7 = f32x4.splat(C7);
  const ee0 = f32x4.mul(f32x4.add(X0, X4), a4);
  const ee1 = f32x4.mul(f32x4.sub(X0, X4), a4);
  const eo0 = f32x4.add(f32x4.mul(X2, c2), f32x4.mul(X6, c6));
  const eo1 = f32x4.sub(f32x4.mul(X2, c6), f32x4.mul(X6, c2));
  const e0 = f32x4.add(ee0, eo0);
  const e3 = f32x4.sub(ee0, eo0);
  const e1 = f32x4.add(ee1, eo1);
  const e2 = f32x4.sub(ee1, eo1);
  const o0 = f32x4.add(f32x4.add(f32x4.mul(X1, c1), f32x4.mul(X3, c3)), f32x4.add(f32x4.mul(X5, c5), f32x4.mul(X7, c7)));
  const o1 = f32x4.sub(f32x4.sub(f32x4.mul(X1, c3), f32x4.mul(X3, c7)), f32x4.add(f32x4.mul(X5, c1), f32x4.mul(X7, c5)));
  const o2 = f32x4.add(f32x4.sub(f32x4.mul(X1, c5), f32x4.mul(X3, c1)), f32x4.add(f32x4.mul(X5, c7), f32x4.mul(X7, c3)));
  const o3 = f32x4.add(f32x4.sub(f32x4.mul(X1, c7), f32x4.mul(X3, c5)), f32x4.sub(f32x4.mul(X5, c3), f32x4.mul(X7, c1)));
  v128.store(d, f32x4.add(e0, o0));
  v128.store(d, f32x4.add(e1, o1), 32);
  v128.store(d, f32x4.add(e2, o2), 64);
  v128.store(d, f32x4.add(e3, o3), 96);
  v128.store(d, f32x4.sub(e3, o3), 128);
  v128.store(d, f32x4.sub(e2, o2), 160);
  v128.store(d, f32x4.sub(e1, o1), 192);
  v128.store(d, f32x4.sub(e0, o0), 224);
}

/** The 8x8 IDCT of blk (dequantised f32, natural order) into pixels: two SIMD passes with transposes between. */
function idct8(src: usize, dst: usize, stride: i32): void {
  const a = tmp;
  const b = tmp + 256;
  idctPass(src, b); // along v, lanes u 0..3
  idctPass(src + 16, b + 16); // lanes u 4..7
  transpose8(b, a);
  idctPass(a, b); // along u, lanes y
  idctPass(a + 16, b + 16);
  transpose8(b, a); // rows y, lanes x
  const scale = f32x4.splat(0.25);
  const bias = f32x4.splat(128.5);
  for (let y = 0; y < 8; y++) {
    const row = a + (<usize>y << 5);
    // truncation after +128.5 rounds (negatives saturate to 0 in the narrowing anyway)
    const lo = i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(v128.load(row), scale), bias));
    const hi = i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(v128.load(row, 16), scale), bias));
    const w = i16x8.narrow_i32x4_s(lo, hi);
    store<u64>(dst + <usize>(y * stride), i64x2.extract_lane(i8x16.narrow_i16x8_u(w, w), 0));
  }
}

/** Sums each of four f32x4 vectors across its lanes: (sum p0, sum p1, sum p2, sum p3). */
@inline function hsum4(p0: v128, p1: v128, p2: v128, p3: v128): v128 {
  const t0 = f32x4.add(v128.shuffle<f32>(p0, p1, 0, 4, 1, 5), v128.shuffle<f32>(p0, p1, 2, 6, 3, 7));
  const t1 = f32x4.add(v128.shuffle<f32>(p2, p3, 0, 4, 1, 5), v128.shuffle<f32>(p2, p3, 2, 6, 3, 7));
  return f32x4.add(v128.shuffle<f32>(t0, t1, 0, 1, 4, 5), v128.shuffle<f32>(t0, t1, 2, 3, 6, 7));
}

/** Four f32 samples (level shift and rounding bias still to add) as four clamped bytes in the low lane. */
@inline function packBytes(v: v128): u32 {
  const w = i32x4.trunc_sat_f32x4_s(f32x4.add(v, f32x4.splat(128.5)));
  const h = i16x8.narrow_i32x4_s(w, w);
  return i32x4.extract_lane(i8x16.narrow_i16x8_u(h, h), 0);
}

/**
 * Reduced IDCT: n x n samples (n = 4 or 2), each the area average of its (8/n)^2 pixels: the n x 8 matrix of
 * area-averaged basis rows applied along v (to whole coefficient rows, 4 lanes of u at a time; all-zero rows
 * skipped), then along u (a dot product per sample, four summed across lanes at once).
 */
function idctArea(src: usize, dst: usize, stride: i32, n: i32): void {
  let t0l = f32x4.splat(0.0);
  let t0h = t0l;
  let t1l = t0l;
  let t1h = t0l;
  let t2l = t0l;
  let t2h = t0l;
  let t3l = t0l;
  let t3h = t0l;
  if (n == 4) {
    for (let v = 0; v < 8; v++) {
      const p = src + (<usize>v << 5);
      const il = v128.load(p);
      const ih = v128.load(p, 16);
      // (a zero coefficient is +0.0: all bits clear)
      if (!v128.any_true(v128.or(il, ih))) continue;
      const cl = il;
      const ch = ih;
      const w = area4 + (<usize>v << 2);
      const a0 = f32x4.splat(load<f32>(w));
      const a1 = f32x4.splat(load<f32>(w, 32));
      const a2 = f32x4.splat(load<f32>(w, 64));
      const a3 = f32x4.splat(load<f32>(w, 96));
      t0l = f32x4.add(t0l, f32x4.mul(cl, a0));
      t0h = f32x4.add(t0h, f32x4.mul(ch, a0));
      t1l = f32x4.add(t1l, f32x4.mul(cl, a1));
      t1h = f32x4.add(t1h, f32x4.mul(ch, a1));
      t2l = f32x4.add(t2l, f32x4.mul(cl, a2));
      t2h = f32x4.add(t2h, f32x4.mul(ch, a2));
      t3l = f32x4.add(t3l, f32x4.mul(cl, a3));
      t3h = f32x4.add(t3h, f32x4.mul(ch, a3));
    }
    const b0l = v128.load(area4);
    const b0h = v128.load(area4, 16);
    const b1l = v128.load(area4, 32);
    const b1h = v128.load(area4, 48);
    const b2l = v128.load(area4, 64);
    const b2h = v128.load(area4, 80);
    const b3l = v128.load(area4, 96);
    const b3h = v128.load(area4, 112);
    for (let y = 0; y < 4; y++) {
      const tl = y == 0 ? t0l : y == 1 ? t1l : y == 2 ? t2l : t3l;
      const th = y == 0 ? t0h : y == 1 ? t1h : y == 2 ? t2h : t3h;
      const row = hsum4(
        f32x4.add(f32x4.mul(tl, b0l), f32x4.mul(th, b0h)),
        f32x4.add(f32x4.mul(tl, b1l), f32x4.mul(th, b1h)),
        f32x4.add(f32x4.mul(tl, b2l), f32x4.mul(th, b2h)),
        f32x4.add(f32x4.mul(tl, b3l), f32x4.mul(th, b3h)),
      );
      store<u32>(dst + <usize>(y * stride), packBytes(row));
    }
    return;
  }
  for (let v = 0; v < 8; v++) {
    const p = src + (<usize>v << 5);
    const il = v128.load(p);
    const ih = v128.load(p, 16);
    // (a zero coefficient is +0.0: all bits clear)
    if (!v128.any_true(v128.or(il, ih))) continue;
    const cl = il;
    const ch = ih;
    const w = area2 + (<usize>v << 2);
    const a0 = f32x4.splat(load<f32>(w));
    const a1 = f32x4.splat(load<f32>(w, 32));
    t0l = f32x4.add(t0l, f32x4.mul(cl, a0));
    t0h = f32x4.add(t0h, f32x4.mul(ch, a0));
    t1l = f32x4.add(t1l, f32x4.mul(cl, a1));
    t1h = f32x4.add(t1h, f32x4.mul(ch, a1));
  }
  const b0l = v128.load(area2);
  const b0h = v128.load(area2, 16);
  const b1l = v128.load(area2, 32);
  const b1h = v128.load(area2, 48);
  // lanes: (y0 x0, y0 x1, y1 x0, y1 x1)
  const q = packBytes(
    hsum4(
      f32x4.add(f32x4.mul(t0l, b0l), f32x4.mul(t0h, b0h)),
      f32x4.add(f32x4.mul(t0l, b1l), f32x4.mul(t0h, b1h)),
      f32x4.add(f32x4.mul(t1l, b0l), f32x4.mul(t1h, b0h)),
      f32x4.add(f32x4.mul(t1l, b1l), f32x4.mul(t1h, b1h)),
    ),
  );
  store<u16>(dst, <u16>q);
  store<u16>(dst + <usize>stride, <u16>(q >> 16));
}

/**
 * idctArea of the block of i16 coefficients at `src` (natural order) dequantised by `q` (i32, natural order, no
 * zero entry): a row of coefficients all zero is skipped (its products would all be +0.0, which idctArea skips),
 * any other row is converted to the floats transformMcuRow would have stored in blk, then the same operations in
 * the same order. Bit for bit idctArea(blk) without the pass through blk.
 */
function idctAreaCoefs(src: usize, quant: usize, dst: usize, stride: i32, n: i32): void {
  let t0l = f32x4.splat(0.0);
  let t0h = t0l;
  let t1l = t0l;
  let t1h = t0l;
  let t2l = t0l;
  let t2h = t0l;
  let t3l = t0l;
  let t3h = t0l;
  if (n == 4) {
    // Columns 4..7 of a row whose coefficients there are all zero add products that are exactly zero: skipping them
    // changes at most the sign of a zero sum, which the +128.5 of packBytes erases (every later step is an addition
    // or that), so the bytes are those of the full sums. Most blocks of a photograph have none there at all.
    let high = false;
    for (let v = 0; v < 8; v++) {
      const x = v128.load(src + (<usize>v << 4));
      if (!v128.any_true(x)) continue;
      const qv = quant + (<usize>v << 5);
      const cl = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_low_i16x8_s(x), v128.load(qv)));
      const w = area4 + (<usize>v << 2);
      const a0 = f32x4.splat(load<f32>(w));
      const a1 = f32x4.splat(load<f32>(w, 32));
      const a2 = f32x4.splat(load<f32>(w, 64));
      const a3 = f32x4.splat(load<f32>(w, 96));
      t0l = f32x4.add(t0l, f32x4.mul(cl, a0));
      t1l = f32x4.add(t1l, f32x4.mul(cl, a1));
      t2l = f32x4.add(t2l, f32x4.mul(cl, a2));
      t3l = f32x4.add(t3l, f32x4.mul(cl, a3));
      if (i64x2.extract_lane(x, 1) == 0) continue;
      high = true;
      const ch = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_high_i16x8_s(x), v128.load(qv, 16)));
      t0h = f32x4.add(t0h, f32x4.mul(ch, a0));
      t1h = f32x4.add(t1h, f32x4.mul(ch, a1));
      t2h = f32x4.add(t2h, f32x4.mul(ch, a2));
      t3h = f32x4.add(t3h, f32x4.mul(ch, a3));
    }
    const b0l = v128.load(area4);
    const b0h = v128.load(area4, 16);
    const b1l = v128.load(area4, 32);
    const b1h = v128.load(area4, 48);
    const b2l = v128.load(area4, 64);
    const b2h = v128.load(area4, 80);
    const b3l = v128.load(area4, 96);
    const b3h = v128.load(area4, 112);
    if (!high) {
      for (let y = 0; y < 4; y++) {
        const tl = y == 0 ? t0l : y == 1 ? t1l : y == 2 ? t2l : t3l;
        const row = hsum4(f32x4.mul(tl, b0l), f32x4.mul(tl, b1l), f32x4.mul(tl, b2l), f32x4.mul(tl, b3l));
        store<u32>(dst + <usize>(y * stride), packBytes(row));
      }
      return;
    }
    for (let y = 0; y < 4; y++) {
      const tl = y == 0 ? t0l : y == 1 ? t1l : y == 2 ? t2l : t3l;
      const th = y == 0 ? t0h : y == 1 ? t1h : y == 2 ? t2h : t3h;
      const row = hsum4(
        f32x4.add(f32x4.mul(tl, b0l), f32x4.mul(th, b0h)),
        f32x4.add(f32x4.mul(tl, b1l), f32x4.mul(th, b1h)),
        f32x4.add(f32x4.mul(tl, b2l), f32x4.mul(th, b2h)),
        f32x4.add(f32x4.mul(tl, b3l), f32x4.mul(th, b3h)),
      );
      store<u32>(dst + <usize>(y * stride), packBytes(row));
    }
    return;
  }
  for (let v = 0; v < 8; v++) {
    const x = v128.load(src + (<usize>v << 4));
    if (!v128.any_true(x)) continue;
    const qv = quant + (<usize>v << 5);
    const cl = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_low_i16x8_s(x), v128.load(qv)));
    const ch = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_high_i16x8_s(x), v128.load(qv, 16)));
    const w = area2 + (<usize>v << 2);
    const a0 = f32x4.splat(load<f32>(w));
    const a1 = f32x4.splat(load<f32>(w, 32));
    t0l = f32x4.add(t0l, f32x4.mul(cl, a0));
    t0h = f32x4.add(t0h, f32x4.mul(ch, a0));
    t1l = f32x4.add(t1l, f32x4.mul(cl, a1));
    t1h = f32x4.add(t1h, f32x4.mul(ch, a1));
  }
  const b0l = v128.load(area2);
  const b0h = v128.load(area2, 16);
  const b1l = v128.load(area2, 32);
  const b1h = v128.load(area2, 48);
  // lanes: (y0 x0, y0 x1, y1 x0, y1 x1)
  const q = packBytes(
    hsum4(
      f32x4.add(f32x4.mul(t0l, b0l), f32x4.mul(t0h, b0h)),
      f32x4.add(f32x4.mul(t0l, b1l), f32x4.mul(t0h, b1h)),
      f32x4.add(f32x4.mul(t1l, b0l), f32x4.mul(t1h, b0h)),
      f32x4.add(f32x4.mul(t1l, b1l), f32x4.mul(t1h, b1h)),
    ),
  );
  store<u16>(dst, <u16>q);
  store<u16>(dst + <usize>stride, <u16>(q >> 16));
}

/**
 * Writes the block in blk (dequantised; `last`: zigzag index of its last nonzero coefficient, 0 if DC only), then
 * clears blk when `clear` (sequential mode writes only the nonzero coefficients; buffered mode writes all 64).
 */
@inline function writeBlock(dst: usize, stride: i32, last: i32, clear: bool): void {
  if (last == 0) {
    const v = clampByte(load<f32>(blk) * 0.125 + 128.5);
    // the flat block by plain stores (a memory.fill of 1 to 8 bytes a row costs a call each)
    if (bs == 8) {
      const w = <u64>v * 0x0101010101010101;
      for (let y = 0; y < 8; y++) store<u64>(dst + <usize>(y * stride), w);
    } else if (bs == 4) {
      const w = <u32>v * 0x01010101;
      store<u32>(dst, w);
      store<u32>(dst + <usize>stride, w);
      store<u32>(dst + <usize>(2 * stride), w);
      store<u32>(dst + <usize>(3 * stride), w);
    } else if (bs == 2) {
      const w = <u16>(<u32>v * 0x0101);
      store<u16>(dst, w);
      store<u16>(dst + <usize>stride, w);
    } else store<u8>(dst, v);
  } else if (bs == 8) idct8(blk, dst, stride);
  else idctArea(blk, dst, stride, bs);
  if (clear) memory.fill(blk, 0, 256);
}

/** The plane address of block (bx, row-in-MCU-row by) of component c for the MCU row in slot `slot`. */
@inline function planeBlock(c: i32, slot: i32, bx: i32, by: i32): usize {
  const stride = unchecked(cStride[c]);
  return unchecked(cPlane[c]) + <usize>((slot * unchecked(cRows[c]) + by * bs) * stride + bx * bs);
}

/** Sequential single-scan mode: entropy-decodes MCU row m straight into the planes. */
function decodeMcuRow(m: i32): void {
  const slot = m & 1;
  const keepAc = bs > 1;
  if (scanN == 1) {
    const c = unchecked(sComp[0]);
    const stride = unchecked(cStride[c]);
    const bw = mcusX;
    for (let bx = 0; bx < bw; bx++) {
      if (needRestart()) restart();
      const last = decodeBlock(0, c, keepAc);
      if (err != OK) return;
      writeBlock(planeBlock(c, slot, bx, 0), stride, last, true);
      mcuCount++;
    }
  } else {
    for (let mx = 0; mx < mcusX; mx++) {
      if (needRestart()) restart();
      for (let i = 0; i < scanN; i++) {
        const c = unchecked(sComp[i]);
        const h = unchecked(cH[c]);
        const v = unchecked(cV[c]);
        const stride = unchecked(cStride[c]);
        for (let y = 0; y < v; y++)
          for (let x = 0; x < h; x++) {
            const last = decodeBlock(i, c, keepAc);
            if (err != OK) return;
            writeBlock(planeBlock(c, slot, mx * h + x, y), stride, last, true);
          }
      }
      mcuCount++;
    }
  }
  if (overrun()) err = CORRUPT;
}

/** Buffered mode: dequantises and transforms MCU row m of the coefficient buffer into the planes. */
function transformMcuRow(m: i32): void {
  const slot = m & 1;
  for (let c = 0; c < ncomp; c++) {
    if (deferred) {
      const r = fillWindow(c, m);
      if (r != OK) {
        err = r;
        scanFailed = true;
        coefReady = false;
        return;
      }
    }
    const v = unchecked(cV[c]);
    const bw = unchecked(cBW[c]);
    const q = unchecked(cQ[c]);
    const stride = unchecked(cStride[c]);
    let zeroQ = i32x4.splat(0);
    for (let z: usize = 0; z < 256; z += 16) zeroQ = v128.or(zeroQ, i32x4.eq(v128.load(q + z), i32x4.splat(0)));
    const qNonzero = !v128.any_true(zeroQ);
    for (let y = 0; y < v; y++)
      for (let bx = 0; bx < bw; bx++) {
        const p = coefAt(c, bx, m * v + y);
        let last = 0;
        if (bs == 1 || load<u8>(flagAt(c, bx, m * v + y)) == 0) store<f32>(blk, <f32>(<i32>load<i16>(p) * load<i32>(q)));
        else if (bs < 8 && qNonzero) {
          // reduced output, no zero quantiser: a product is zero exactly when its coefficient is, so the block's
          // AC test and the IDCT's all-zero row skips read the i16 coefficients, and only rows with a nonzero
          // coefficient are dequantised (in idctAreaCoefs, to the very floats blk would hold)
          let any = i16x8.replace_lane(v128.load(p), 0, 0);
          for (let z: usize = 16; z < 128; z += 16) any = v128.or(any, v128.load(p + z));
          if (v128.any_true(any)) {
            idctAreaCoefs(p, q, planeBlock(c, slot, bx, y), stride, bs);
            continue;
          }
          store<f32>(blk, <f32>(<i32>load<i16>(p) * load<i32>(q)));
        } else {
          // eight coefficients at a time, converted to float here rather than in a pass of the IDCT's own (an
          // integer zero converts to +0.0, all bits clear); `last` only says whether any AC coefficient is nonzero
          let any = i32x4.splat(0);
          for (let z: usize = 0; z < 64; z += 8) {
            const x = v128.load(p + (z << 1));
            const lo = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_low_i16x8_s(x), v128.load(q + (z << 2))));
            const hi = f32x4.convert_i32x4_s(i32x4.mul(i32x4.extend_high_i16x8_s(x), v128.load(q + (z << 2), 16)));
            v128.store(blk + (z << 2), lo);
            v128.store(blk + (z << 2), hi, 16);
            any = v128.or(any, z == 0 ? i32x4.replace_lane(lo, 0, 0) : v128.or(lo, hi));
            if (z == 0) any = v128.or(any, hi);
          }
          if (v128.any_true(any)) last = 1;
        }
        writeBlock(planeBlock(c, slot, bx, y), stride, last, false);
      }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Upsampling (libjpeg's "fancy" triangular filter for 2:1 ratios, replication otherwise) and colour

/** The address of sample row r of component c while MCU row m is being output. */
function planeRow(c: i32, r: i32, m: i32): usize {
  r = max<i32>(0, min<i32>(r, unchecked(cRealH[c]) - 1));
  const rows = unchecked(cRows[c]);
  const mr = r / rows;
  // a slot holds one of the last two MCU rows decoded; anything older survives only as its last row
  if (mr < decodedRows - 2) return unchecked(cAbove[c]);
  return unchecked(cPlane[c]) + <usize>(((mr & 1) * rows + (r - mr * rows)) * unchecked(cStride[c]));
}

/** Component c's samples for output row y, at output resolution. */
function componentRow(c: i32, y: i32, m: i32): usize {
  const hs = hmax / unchecked(cH[c]);
  const vs = vmax / unchecked(cV[c]);
  if (hs == 1 && vs == 1) return planeRow(c, y, m);
  const dst = unchecked(cUp[c]);
  const w = unchecked(cRealW[c]);
  // like libjpeg: the triangular filter needs 3 samples across (a narrower row is replicated)
  const fancy = bs > 1 && (hs == 1 || w > 2);
  if (vs == 2 && (hs == 1 || hs == 2) && fancy) {
    const r = y >> 1;
    const in0 = planeRow(c, r, m);
    const in1 = planeRow(c, y & 1 ? r + 1 : r - 1, m);
    if (hs == 1) {
      const bias = y & 1 ? 2 : 1;
      for (let x = 0; x < w; x++)
        store<u8>(dst + <usize>x, <u8>((3 * <i32>load<u8>(in0 + <usize>x) + <i32>load<u8>(in1 + <usize>x) + bias) >> 2));
      return dst;
    }
    // 2 x 2: vertical 3:1 column sums (i16, with the edge sums repeated one place beyond each end, so the edge
    // outputs need no case of their own), then horizontal 3:1 between them (weights 9, 3, 3, 1 over 16); eight
    // columns at a time, the same integer arithmetic as one at a time
    const cs = colsum + 2;
    let x = 0;
    for (; x + 8 <= w; x += 8) {
      const a = i16x8.extend_low_i8x16_u(v128.load64_zero(in0 + <usize>x));
      const b = i16x8.extend_low_i8x16_u(v128.load64_zero(in1 + <usize>x));
      v128.store(cs + (<usize>x << 1), i16x8.add(i16x8.mul(a, i16x8.splat(3)), b));
    }
    for (; x < w; x++) store<i16>(cs + (<usize>x << 1), <i16>(3 * <i32>load<u8>(in0 + <usize>x) + <i32>load<u8>(in1 + <usize>x)));
    store<i16>(colsum, load<i16>(cs));
    store<i16>(cs + (<usize>w << 1), load<i16>(cs + (<usize>(w - 1) << 1)));
    x = 0;
    for (; x + 8 <= w; x += 8) {
      const at = cs + (<usize>x << 1);
      const c3 = i16x8.mul(v128.load(at), i16x8.splat(3));
      const even = i16x8.shr_u(i16x8.add(i16x8.add(c3, v128.load(at - 2)), i16x8.splat(8)), 4);
      const odd = i16x8.shr_u(i16x8.add(i16x8.add(c3, v128.load(at + 2)), i16x8.splat(7)), 4);
      const e = i8x16.narrow_i16x8_u(even, even);
      const o = i8x16.narrow_i16x8_u(odd, odd);
      v128.store(dst + <usize>(2 * x), v128.shuffle<u8>(e, o, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
    }
    for (; x < w; x++) {
      const at = cs + (<usize>x << 1);
      const c3 = 3 * <i32>load<i16>(at);
      store<u8>(dst + <usize>(2 * x), <u8>((c3 + <i32>load<i16>(at - 2) + 8) >> 4));
      store<u8>(dst + <usize>(2 * x + 1), <u8>((c3 + <i32>load<i16>(at + 2) + 7) >> 4));
    }
    return dst;
  }
  const src = planeRow(c, y / vs, m);
  if (hs == 2 && fancy) {
    // 2 x 1: out[2i] = (3 in[i] + in[i-1] + 1) / 4, out[2i+1] = (3 in[i] + in[i+1] + 2) / 4, edges copied
    store<u8>(dst, load<u8>(src));
    for (let x = 0; x < w - 1; x++) {
      const a = <i32>load<u8>(src + <usize>x);
      const b = <i32>load<u8>(src + <usize>(x + 1));
      store<u8>(dst + <usize>(2 * x + 1), <u8>((3 * a + b + 2) >> 2));
      store<u8>(dst + <usize>(2 * x + 2), <u8>((3 * b + a + 1) >> 2));
    }
    store<u8>(dst + <usize>(2 * w - 1), load<u8>(src + <usize>(w - 1)));
    return dst;
  }
  for (let x = 0; x < w; x++) memory.fill(dst + <usize>(x * hs), load<u8>(src + <usize>x), <usize>hs);
  return dst;
}

/** Colour-converts and writes the output rows of MCU row m into `out`; returns their count. */
function emitMcuRow(m: i32): i32 {
  const y0 = m * outRows;
  const n = min<i32>(outRows, outH - y0);
  for (let r = 0; r < n; r++) {
    const y = y0 + r;
    let d = out + <usize>(r * outW * 4);
    if (ncomp == 1) {
      const s = componentRow(0, y, m);
      for (let x = 0; x < outW; x++, d += 4) {
        const v = <u32>load<u8>(s + <usize>x);
        store<u32>(d, v | (v << 8) | (v << 16) | 0xff000000);
      }
      continue;
    }
    const p0 = componentRow(0, y, m);
    const p1 = componentRow(1, y, m);
    const p2 = componentRow(2, y, m);
    const rgb = adobe == 0 || (adobe < 0 && unchecked(cId[0]) == 82 && unchecked(cId[1]) == 71 && unchecked(cId[2]) == 66);
    if (rgb) {
      for (let x = 0; x < outW; x++, d += 4) {
        const o = <usize>x;
        store<u32>(d, <u32>load<u8>(p0 + o) | (<u32>load<u8>(p1 + o) << 8) | (<u32>load<u8>(p2 + o) << 16) | 0xff000000);
      }
      continue;
    }
    // eight pixels at a time, in the same fixed-point arithmetic as the tables below (bit-identical)
    let x = 0;
    for (; x + 8 <= outW; x += 8, d += 32) {
      const o = <usize>x;
      const y16 = i16x8.extend_low_i8x16_u(v128.load64_zero(p0 + o));
      const b16 = i16x8.sub(i16x8.extend_low_i8x16_u(v128.load64_zero(p1 + o)), i16x8.splat(128));
      const r16 = i16x8.sub(i16x8.extend_low_i8x16_u(v128.load64_zero(p2 + o)), i16x8.splat(128));
      const yl = i32x4.extend_low_i16x8_s(y16);
      const yh = i32x4.extend_high_i16x8_s(y16);
      const bl = i32x4.extend_low_i16x8_s(b16);
      const bh = i32x4.extend_high_i16x8_s(b16);
      const cl = i32x4.extend_low_i16x8_s(r16);
      const ch = i32x4.extend_high_i16x8_s(r16);
      const half = i32x4.splat(32768);
      const kR = i32x4.splat(91881);
      const kB = i32x4.splat(116130);
      const kGb = i32x4.splat(-22554);
      const kGr = i32x4.splat(-46802);
      // clamping: i32 -> i16 (saturating, exact here) -> u8 (saturating: 0..255)
      const R16 = i16x8.narrow_i32x4_s(
        i32x4.add(yl, i32x4.shr_s(i32x4.add(i32x4.mul(cl, kR), half), 16)),
        i32x4.add(yh, i32x4.shr_s(i32x4.add(i32x4.mul(ch, kR), half), 16)),
      );
      const G16 = i16x8.narrow_i32x4_s(
        i32x4.add(yl, i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(bl, kGb), half), i32x4.mul(cl, kGr)), 16)),
        i32x4.add(yh, i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(bh, kGb), half), i32x4.mul(ch, kGr)), 16)),
      );
      const B16 = i16x8.narrow_i32x4_s(
        i32x4.add(yl, i32x4.shr_s(i32x4.add(i32x4.mul(bl, kB), half), 16)),
        i32x4.add(yh, i32x4.shr_s(i32x4.add(i32x4.mul(bh, kB), half), 16)),
      );
      const R = i8x16.narrow_i16x8_u(R16, R16);
      const G = i8x16.narrow_i16x8_u(G16, G16);
      const B = i8x16.narrow_i16x8_u(B16, B16);
      const rg = v128.shuffle<u8>(R, G, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      const ba = v128.shuffle<u8>(B, i8x16.splat(-1), 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128.store(d, v128.shuffle<u16>(rg, ba, 0, 8, 1, 9, 2, 10, 3, 11));
      v128.store(d, v128.shuffle<u16>(rg, ba, 4, 12, 5, 13, 6, 14, 7, 15), 16);
    }
    for (; x < outW; x++, d += 4) {
      const o = <usize>x;
      const Y = <i32>load<u8>(p0 + o);
      const cb = <usize>load<u8>(p1 + o) << 2;
      const cr = <usize>load<u8>(p2 + o) << 2;
      const R = Y + load<i32>(crR + cr);
      const G = Y + ((load<i32>(cbG + cb) + load<i32>(crG + cr)) >> 16);
      const B = Y + load<i32>(cbB + cb);
      const r8 = <u32>max<i32>(0, min<i32>(255, R));
      const g8 = <u32>max<i32>(0, min<i32>(255, G));
      const b8 = <u32>max<i32>(0, min<i32>(255, B));
      store<u32>(d, r8 | (g8 << 8) | (b8 << 16) | 0xff000000);
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Driving

/**
 * Prepares the output at 1 / 2^scaleLog2 per side and allocates its buffers. Refuses more than maxPixels
 * (before any large allocation). Buffered files are entropy-decoded here, every scan.
 */
export function start(scale: i32, maxPixels: f64): i32 {
  if (!frameSeen) return CORRUPT;
  if (<f64>width * <f64>height > maxPixels) return TOO_LARGE;
  coefReady = false;
  err = OK;
  deferred = false;
  scanFailed = false;
  coefShift = 7;
  if (buffered && progressive && !keepAll) {
    const r = startDeferred();
    if (r == OK) return output(scale);
    // Corrupt: so would every scan decoded first have said (a deferred scan's own failure is corrupt too). An
    // unsupported or too large file: an AC scan skipped on the way might have failed first, so decode as before.
    if (r == CORRUPT) return r;
    // Unsupported (a marker after the scans so far): every scan before it was read, and the DC scans decoded
    // without error, so decoding every scan first would say corrupt exactly when one of the AC scans noted fails.
    // Those are decoded row by row (no transform) instead of every scan again into the whole buffer, which made
    // such a file (up to MAX_SCANS DC scans, then SOF3) cost twice what it did before deferring.
    if (r == UNSUPPORTED) return deferredStatus();
    deferred = false;
    coefShift = 7;
    memFailed = false;
    const h = header();
    if (h != OK) return h;
  }
  if (buffered) {
    // the coefficient buffer first, so a later rewind() can keep it and rebuild only the output buffers
    for (let c = 0; c < ncomp; c++) {
      const bytes = (<u64>unchecked(cBW[c]) * <u64>unchecked(cBH[c])) << 7;
      unchecked((cCoef[c] = alloc(bytes)));
      unchecked((cAcFlags[c] = alloc(bytes >> 7)));
      if (memFailed) return TOO_LARGE;
      unchecked((cPending[c] = true));
    }
    // every scan, then the markers to the next one
    while (true) {
      const r = decodeScanCoefs();
      if (r != OK) return r;
      const s = parseMarkers();
      if (s != OK) return s;
      if (eoi) break;
    }
    // a component no scan named reads as zeros, as before
    for (let c = 0; c < ncomp; c++) clearPending(c);
    coefTop = top;
    coefReady = true;
  }
  return output(scale);
}

/**
 * start() for a progressive file: the DC scans decoded into the DC arrays, the AC scans noted (see `deferred`).
 * Reads the same markers in the same order as decoding every scan first; the AC scans' data is skipped the way
 * parseMarkers skips data (to the next marker that is neither stuffing nor a restart), which is where a scan
 * decoded without error leaves parseMarkers too.
 */
function startDeferred(): i32 {
  deferred = true;
  nDeferred = 0;
  // The same bound as the whole coefficient buffer's: an image whose buffer would not fit the 4 GiB address space
  // is refused (too large) as before, although these arrays would fit, so hostile sizes stay as costly as they were.
  let need: u64 = <u64>top;
  for (let c = 0; c < ncomp; c++) {
    const bytes = (<u64>unchecked(cBW[c]) * <u64>unchecked(cBH[c])) << 7;
    need = ((need + 15) & ~(<u64>15)) + bytes;
    need = ((need + 15) & ~(<u64>15)) + (bytes >> 7);
  }
  if (need > 0xfff00000) return TOO_LARGE;
  for (let c = 0; c < ncomp; c++) {
    const blocks = <u64>unchecked(cBW[c]) * <u64>unchecked(cBH[c]);
    unchecked((cDc[c] = alloc(blocks << 1)));
    const win = <u64>unchecked(cV[c]) * <u64>unchecked(cBW[c]);
    unchecked((cWin[c] = alloc(win << 7)));
    unchecked((cWinFlags[c] = alloc(win)));
    if (memFailed) return TOO_LARGE;
    zero(unchecked(cDc[c]), <usize>(blocks << 1));
    unchecked((cCoef[c] = unchecked(cDc[c])));
    unchecked((cAcFlags[c] = unchecked(cWinFlags[c]))); // (a DC scan does not write flags: nothing pending)
    unchecked((cPending[c] = false));
  }
  coefShift = 1;
  while (true) {
    if (ss == 0) {
      const r = decodeScanCoefs();
      if (r != OK) return r;
    } else {
      if (!tablesDefined()) return CORRUPT;
      const d = nDeferred;
      const t = alloc(HUFF_TABLE_BYTES);
      if (memFailed) return TOO_LARGE;
      memory.copy(t, acTable(0), HUFF_TABLE_BYTES);
      unchecked((dComp[d] = unchecked(sComp[0])));
      unchecked((dSs[d] = ss));
      unchecked((dSe[d] = se));
      unchecked((dAh[d] = ah));
      unchecked((dAl[d] = al));
      unchecked((dRi[d] = restartInterval));
      unchecked((dTab[d] = t));
      unchecked((dStart[d] = pos));
      nDeferred = d + 1;
    }
    const s = parseMarkers();
    if (s != OK) return s;
    if (eoi) break;
  }
  coefShift = 7;
  coefTop = top;
  coefReady = true;
  return OK;
}

/** After startDeferred() stopped at an unsupported marker: corrupt if an AC scan noted before it fails, else unsupported. */
function deferredStatus(): i32 {
  coefShift = 7;
  resetDeferred();
  err = OK;
  for (let m = 0; m < mcusY; m++)
    for (let c = 0; c < ncomp; c++) {
      const r = fillWindow(c, m);
      if (r != OK) return r;
    }
  return UNSUPPORTED;
}

/** Deferred scan d's reader and parameters into the decoder's globals. */
function loadScan(d: i32): void {
  scanN = 1;
  unchecked((sComp[0] = unchecked(dComp[d])));
  ss = unchecked(dSs[d]);
  se = unchecked(dSe[d]);
  ah = unchecked(dAh[d]);
  al = unchecked(dAl[d]);
  restartInterval = unchecked(dRi[d]);
  scanAc = unchecked(dTab[d]);
  pos = unchecked(dPos[d]);
  bitBuf = unchecked(dBuf[d]);
  bitCnt = unchecked(dCnt[d]);
  padBytes = unchecked(dPad[d]);
  markerHit = unchecked(dMarker[d]);
  eobrun = unchecked(dEob[d]);
  mcuCount = unchecked(dMcu[d]);
}

function saveScan(d: i32): void {
  unchecked((dPos[d] = pos));
  unchecked((dBuf[d] = bitBuf));
  unchecked((dCnt[d] = bitCnt));
  unchecked((dPad[d] = padBytes));
  unchecked((dMarker[d] = markerHit));
  unchecked((dEob[d] = eobrun));
  unchecked((dMcu[d] = mcuCount));
}

/** Every deferred scan's reader back at its first byte (a new output pass). */
function resetDeferred(): void {
  for (let d = 0; d < nDeferred; d++) {
    unchecked((dPos[d] = unchecked(dStart[d])));
    unchecked((dBuf[d] = 0));
    unchecked((dCnt[d] = 0));
    unchecked((dPad[d] = 0));
    unchecked((dMarker[d] = false));
    unchecked((dEob[d] = 0));
    unchecked((dMcu[d] = 0));
  }
}

/**
 * Deferred mode: the window of component c made MCU row m's coefficients (each block its DC, AC flag 0), then
 * every AC scan of c decodes those block rows into it, in file order; cCoef and cAcFlags address the window as if
 * it were the whole buffer. Returns the first scan's failure.
 */
function fillWindow(c: i32, m: i32): i32 {
  const v = unchecked(cV[c]);
  const bw = unchecked(cBW[c]);
  const first = <usize>(m * v) * <usize>bw;
  const n = <usize>v * <usize>bw;
  const win = unchecked(cWin[c]);
  const flags = unchecked(cWinFlags[c]);
  const dc = unchecked(cDc[c]) + (first << 1);
  for (let b: usize = 0; b < n; b++) store<i16>(win + (b << 7), load<i16>(dc + (b << 1)));
  memory.fill(flags, 0, n);
  // (wrapping arithmetic: coefAt(c, bx, by) adds the block's offset back)
  unchecked((cCoef[c] = win - (first << 7)));
  unchecked((cAcFlags[c] = flags - first));
  const by0 = m * v;
  const by1 = min<i32>(by0 + v, (unchecked(cFullH[c]) + 7) >> 3);
  if (by0 >= by1) return OK;
  const blocks = (by1 - by0) * ((unchecked(cFullW[c]) + 7) >> 3);
  for (let d = 0; d < nDeferred; d++) {
    if (unchecked(dComp[d]) != c) continue;
    // A first scan whose end-of-band run covers these rows with no restart due among them reads no bit and
    // stores nothing here: its run and block count move on without resuming its reader (a hostile file of
    // MAX_SCANS such scans over a narrow, tall image otherwise cost twice its time before deferring).
    const run = unchecked(dEob[d]);
    if (unchecked(dAh[d]) == 0 && run >= blocks) {
      const ri = unchecked(dRi[d]);
      const mcu = unchecked(dMcu[d]);
      // the first block count > 0 at which a restart is due, from mcu on
      const due = ri == 0 ? i32.MAX_VALUE : mcu == 0 ? ri : ((mcu + ri - 1) / ri) * ri;
      if (due > mcu + blocks - 1) {
        unchecked((dEob[d] = run - blocks));
        unchecked((dMcu[d] = mcu + blocks));
        continue;
      }
    }
    loadScan(d);
    const r = decodeComponentRows(by0, by1);
    saveScan(d);
    if (r != OK) return r;
    if (err != OK) return err;
  }
  return OK;
}

/**
 * Another output pass over the coefficients start() decoded (buffered files only; 1 when there are none): a
 * progressive file read twice, e.g. reduced and then full size, is entropy-decoded once.
 */
export function rewind(scale: i32): i32 {
  if (!coefReady) return UNSUPPORTED;
  top = coefTop;
  scanFailed = false;
  return output(scale);
}

function output(scale: i32): i32 {
  scaleLog2 = min<i32>(3, max<i32>(0, scale));
  bs = 8 >> scaleLog2;
  const div = 1 << scaleLog2;
  outW = (width + div - 1) / div;
  outH = (height + div - 1) / div;
  outRows = vmax * bs;
  err = OK;
  mcuCount = 0;
  decodedRows = 0;
  emittedRows = 0;
  for (let c = 0; c < ncomp; c++) {
    unchecked((cPred[c] = 0));
    const stride = unchecked(cBW[c]) * bs;
    unchecked((cStride[c] = stride));
    unchecked((cRows[c] = unchecked(cV[c]) * bs));
    unchecked((cRealW[c] = (unchecked(cFullW[c]) + div - 1) / div));
    unchecked((cRealH[c] = (unchecked(cFullH[c]) + div - 1) / div));
    unchecked((cPlane[c] = alloc(<u64>(2 * unchecked(cRows[c])) * <u64>stride)));
    unchecked((cAbove[c] = alloc(<u64>stride)));
    unchecked((cUp[c] = alloc(<u64>(outW + 4 * 8 + 8))));
  }
  colsum = alloc(<u64>(outW + 16) << 2);
  out = alloc(<u64>outRows * <u64>outW * 4);
  if (memFailed) return TOO_LARGE;
  memory.fill(blk, 0, 256);
  if (deferred) resetDeferred();
  if (!buffered) {
    if (!tablesDefined()) return CORRUPT;
    resetBits();
    eobrun = 0;
  }
  return OK;
}

/** Decodes and writes the next MCU row of output at outPtr(); returns its row count, 0 at the end, -status. */
export function next(): i32 {
  if (err != OK) return -err;
  while (emittedRows < mcusY) {
    // the fancy upsampler reads one sample row past the MCU row: stay one MCU row ahead
    if (decodedRows < mcusY && decodedRows <= emittedRows + 1) {
      const d = decodedRows;
      if (d >= 2)
        for (let c = 0; c < ncomp; c++) {
          const rows = unchecked(cRows[c]);
          const stride = unchecked(cStride[c]);
          memory.copy(unchecked(cAbove[c]), unchecked(cPlane[c]) + <usize>(((d & 1) * rows + rows - 1) * stride), <usize>stride);
        }
      if (buffered) transformMcuRow(d);
      else decodeMcuRow(d);
      if (err != OK) return -err;
      decodedRows++;
      continue;
    }
    const n = emitMcuRow(emittedRows);
    emittedRows++;
    return n;
  }
  return 0;
}
