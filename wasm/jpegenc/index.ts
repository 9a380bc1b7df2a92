// Baseline JPEG encoder (ITU-T T.81: sequential DCT, 8-bit, Huffman with the Annex K example tables), our own
// AssemblyScript kernel for re-encoding watermarked images fast. MozJPEG's trellis quantisation and optimised
// Huffman/progressive passes cost several times a plain encode for a few percent of size; the watermark step
// re-encodes every image, so it uses this instead (quality and subsampling as the caller chooses).
//
// Use: begin(width, height, quality, subsample) writes the headers; then for each strip of stripRows() rows
// (the last may be shorter), copy the RGBA rows to stripPtr() and call encodeRows(rows); finish() flushes and
// returns the byte length of the JPEG at outputPtr(). The kernel holds one strip, its Y/Cb/Cr planes and the
// output, never the whole image; memory is reused across calls and only grows.

// ---------------------------------------------------------------------------------------------------------
// Tables (T.81 Annex K)

// The position in natural (row-major) order of the k-th coefficient in zigzag order.
const ZIGZAG: StaticArray<u8> = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

// K.1 and K.2, natural order.
const LUMA_Q: StaticArray<u8> = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22,
  37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q: StaticArray<u8> = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

// K.3 to K.6: code counts per length 1..16, then the symbols in code order.
const DC_LUMA_BITS: StaticArray<u8> = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_CHROMA_BITS: StaticArray<u8> = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
const DC_VALS: StaticArray<u8> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_LUMA_BITS: StaticArray<u8> = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_LUMA_VALS: StaticArray<u8> = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1,
  0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26,
  0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56,
  0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85,
  0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa,
  0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
  0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
  0xfa,
];
const AC_CHROMA_BITS: StaticArray<u8> = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77];
const AC_CHROMA_VALS: StaticArray<u8> = [
  0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42,
  0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19,
  0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55,
  0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83,
  0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
  0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4,
  0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
  0xfa,
];

// AAN scale factors: cos(k*pi/16) * sqrt(2), 1 for k = 0.
const AAN: StaticArray<f32> = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.5411961, 0.275899379];

// ---------------------------------------------------------------------------------------------------------
// Memory: fixed work areas after the heap base, then the strip, the planes and the output (grown on demand)

const BLOCK: usize = 0; // 64 f32: the block being transformed
const RECIP: usize = 256; // 2 x 64 f32: 1 / (quantiser x AAN scale x 8), natural order (luma, chroma)
const QTAB: usize = 768; // 2 x 64 u8: the quantisers as written in DQT (natural order)
const HUFF: usize = 1024; // 4 x 256 u32: code | length << 24 (DC luma, AC luma, DC chroma, AC chroma)
const WORK_BYTES: usize = 1024 + 4096;

let base: usize = 0;
let stripAt: usize = 0;
let yPlane: usize = 0;
let cbPlane: usize = 0;
let crPlane: usize = 0;
let outAt: usize = 0;
let outPos: usize = 0;

let width: i32 = 0;
let height: i32 = 0;
let sub: i32 = 1; // 2: 4:2:0, 1: 4:4:4
let mcuW: i32 = 8;
let mcuH: i32 = 8;
let paddedW: i32 = 8;
let predY: i32 = 0;
let predCb: i32 = 0;
let predCr: i32 = 0;
let acc: u64 = 0;
let accBits: i32 = 0;

function ensureMemory(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
}

@inline function align16(p: usize): usize {
  return (p + 15) & ~(<usize>15);
}

// ---------------------------------------------------------------------------------------------------------
// Output

@inline function putByte(b: i32): void {
  store<u8>(outAt + outPos, <u8>b);
  outPos++;
}

function put16(v: i32): void {
  putByte((v >> 8) & 0xff);
  putByte(v & 0xff);
}

/** Appends `len` bits of `code` (most significant first), stuffing a zero byte after each 0xFF. */
@inline function emit(code: u32, len: i32): void {
  acc = (acc << <u64>len) | <u64>code;
  accBits += len;
  while (accBits >= 8) {
    accBits -= 8;
    const b = <i32>((acc >> <u64>accBits) & 0xff);
    store<u8>(outAt + outPos, <u8>b);
    outPos++;
    if (b == 0xff) {
      store<u8>(outAt + outPos, 0);
      outPos++;
    }
  }
}

/** Builds the canonical code (T.81 Annex C) of one table into HUFF slot `slot`. */
function buildHuffman(slot: i32, bits: StaticArray<u8>, vals: StaticArray<u8>): void {
  const at = base + HUFF + (<usize>slot << 10);
  memory.fill(at, 0, 1024);
  let code: u32 = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = <i32>bits[len - 1];
    for (let i = 0; i < n; i++) {
      store<u32>(at + (<usize>vals[k] << 2), code | (<u32>len << 24));
      code++;
      k++;
    }
    code <<= 1;
  }
}

function writeHuffmanTable(cls: i32, bits: StaticArray<u8>, vals: StaticArray<u8>): void {
  putByte(cls);
  for (let i = 0; i < 16; i++) putByte(bits[i]);
  for (let i = 0; i < vals.length; i++) putByte(vals[i]);
}

function setQuant(table: i32, std: StaticArray<u8>, scale: i32): void {
  for (let i = 0; i < 64; i++) {
    let q = (<i32>std[i] * scale + 50) / 100;
    if (q < 1) q = 1;
    if (q > 255) q = 255; // baseline: 8-bit quantisers
    store<u8>(base + QTAB + (<usize>table << 6) + <usize>i, <u8>q);
    const f = <f32>q * AAN[i >> 3] * AAN[i & 7] * 8.0;
    store<f32>(base + RECIP + (<usize>(table * 64 + i) << 2), 1.0 / f);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Exports

/** Strip buffer address (RGBA rows go here before each encodeRows). */
export function stripPtr(): usize {
  return stripAt;
}

/** Rows per strip: one MCU row (16 for 4:2:0, 8 for 4:4:4). */
export function stripRows(): i32 {
  return mcuH;
}

export function outputPtr(): usize {
  return outAt;
}

/** Bytes of linear memory held now. */
export function memoryBytes(): i32 {
  return <i32>((<usize>memory.size()) << 16);
}

/**
 * Starts an image: `quality` 1..100 (IJG scaling of the Annex K tables), `subsample` 2 for 4:2:0, 1 for 4:4:4.
 * Returns 0, or 1 when the arguments are out of range.
 */
export function begin(w: i32, h: i32, quality: i32, subsample: i32): i32 {
  if (w < 1 || h < 1 || w > 65535 || h > 65535 || quality < 1 || quality > 100 || (subsample != 1 && subsample != 2)) return 1;
  width = w;
  height = h;
  sub = subsample;
  mcuW = 8 * sub;
  mcuH = 8 * sub;
  paddedW = ((w + mcuW - 1) / mcuW) * mcuW;
  base = align16(__heap_base);
  stripAt = align16(base + WORK_BYTES);
  const planeBytes = <usize>paddedW * <usize>mcuH * 4;
  yPlane = align16(stripAt + <usize>w * <usize>mcuH * 4);
  cbPlane = yPlane + planeBytes;
  crPlane = cbPlane + planeBytes;
  outAt = align16(crPlane + planeBytes);
  outPos = 0;
  ensureMemory(outAt + 4096);

  const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  setQuant(0, LUMA_Q, scale);
  setQuant(1, CHROMA_Q, scale);
  buildHuffman(0, DC_LUMA_BITS, DC_VALS);
  buildHuffman(1, AC_LUMA_BITS, AC_LUMA_VALS);
  buildHuffman(2, DC_CHROMA_BITS, DC_VALS);
  buildHuffman(3, AC_CHROMA_BITS, AC_CHROMA_VALS);
  predY = 0;
  predCb = 0;
  predCr = 0;
  acc = 0;
  accBits = 0;

  // SOI, APP0 (JFIF 1.01, no density), DQT, SOF0, DHT, SOS
  put16(0xffd8);
  put16(0xffe0);
  put16(16);
  putByte(0x4a);
  putByte(0x46);
  putByte(0x49);
  putByte(0x46);
  putByte(0);
  put16(0x0101);
  putByte(0);
  put16(1);
  put16(1);
  put16(0);
  put16(0xffdb);
  put16(2 + 65 * 2);
  for (let t = 0; t < 2; t++) {
    putByte(t);
    for (let k = 0; k < 64; k++) putByte(load<u8>(base + QTAB + (<usize>t << 6) + <usize>ZIGZAG[k]));
  }
  put16(0xffc0);
  put16(8 + 3 * 3);
  putByte(8);
  put16(h);
  put16(w);
  putByte(3);
  putByte(1);
  putByte((sub << 4) | sub);
  putByte(0);
  putByte(2);
  putByte(0x11);
  putByte(1);
  putByte(3);
  putByte(0x11);
  putByte(1);
  put16(0xffc4);
  put16(2 + 4 * 17 + 12 * 2 + 162 * 2);
  writeHuffmanTable(0x00, DC_LUMA_BITS, DC_VALS);
  writeHuffmanTable(0x10, AC_LUMA_BITS, AC_LUMA_VALS);
  writeHuffmanTable(0x01, DC_CHROMA_BITS, DC_VALS);
  writeHuffmanTable(0x11, AC_CHROMA_BITS, AC_CHROMA_VALS);
  put16(0xffda);
  put16(12);
  putByte(3);
  putByte(1);
  putByte(0x00);
  putByte(2);
  putByte(0x11);
  putByte(3);
  putByte(0x11);
  putByte(0);
  putByte(63);
  putByte(0);
  return 0;
}

/** Encodes the `rows` RGBA rows at stripPtr() (rows <= stripRows(); fewer only for the image's last strip). */
export function encodeRows(rows: i32): void {
  toPlanes(rows);
  const blocksPerMcu = sub == 2 ? 6 : 3;
  ensureMemory(outAt + outPos + <usize>(paddedW / mcuW) * <usize>blocksPerMcu * 512 + 1024);
  const rowStride = paddedW;
  for (let mx = 0; mx < paddedW; mx += mcuW) {
    if (sub == 2) {
      predY = encodeBlock(yPlane, mx, 0, rowStride, 0, predY, 0);
      predY = encodeBlock(yPlane, mx + 8, 0, rowStride, 0, predY, 0);
      predY = encodeBlock(yPlane, mx, 8, rowStride, 0, predY, 0);
      predY = encodeBlock(yPlane, mx + 8, 8, rowStride, 0, predY, 0);
      predCb = encodeBlock(cbPlane, mx, 0, rowStride, 1, predCb, 1);
      predCr = encodeBlock(crPlane, mx, 0, rowStride, 1, predCr, 1);
    } else {
      predY = encodeBlock(yPlane, mx, 0, rowStride, 0, predY, 0);
      predCb = encodeBlock(cbPlane, mx, 0, rowStride, 1, predCb, 0);
      predCr = encodeBlock(crPlane, mx, 0, rowStride, 1, predCr, 0);
    }
  }
}

/** Flushes the last bits (padded with ones) and writes EOI; returns the JPEG's length at outputPtr(). */
export function finish(): i32 {
  ensureMemory(outAt + outPos + 16);
  if (accBits > 0) emit((1 << (8 - accBits)) - 1, 8 - accBits);
  put16(0xffd9);
  return <i32>outPos;
}

// ---------------------------------------------------------------------------------------------------------
// Colour conversion, DCT, quantisation, entropy coding

/** RGBA strip -> level-shifted Y, Cb, Cr planes (JFIF), padded right and below by repeating the edge. */
function toPlanes(rows: i32): void {
  const w = width;
  for (let y = 0; y < mcuH; y++) {
    const sy = y < rows ? y : rows - 1;
    const src = stripAt + <usize>sy * <usize>w * 4;
    const dst = <usize>y * <usize>paddedW * 4;
    for (let x = 0; x < paddedW; x++) {
      const p = src + (<usize>(x < w ? x : w - 1) << 2);
      const r = <f32>load<u8>(p);
      const g = <f32>load<u8>(p, 1);
      const b = <f32>load<u8>(p, 2);
      const o = dst + (<usize>x << 2);
      store<f32>(yPlane + o, 0.299 * r + 0.587 * g + 0.114 * b - 128.0);
      store<f32>(cbPlane + o, -0.168736 * r - 0.331264 * g + 0.5 * b);
      store<f32>(crPlane + o, 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
}

/**
 * Transforms, quantises and entropy-codes the 8x8 block at (x0, y0) of `plane` (`down`: average 2x2 pixels, for
 * 4:2:0 chroma, x0 then being the MCU's left edge in full-resolution pixels). Returns the block's DC (the next
 * predictor).
 */
function encodeBlock(plane: usize, x0: i32, y0: i32, stride: i32, table: i32, pred: i32, down: i32): i32 {
  const blk = base + BLOCK;
  // load
  for (let y = 0; y < 8; y++) {
    if (down) {
      const r0 = plane + ((<usize>(2 * y) * <usize>stride + <usize>x0) << 2);
      const r1 = r0 + (<usize>stride << 2);
      for (let x = 0; x < 8; x++) {
        const o = <usize>(2 * x) << 2;
        const v = (load<f32>(r0 + o) + load<f32>(r0 + o + 4) + load<f32>(r1 + o) + load<f32>(r1 + o + 4)) * 0.25;
        store<f32>(blk + (<usize>(y * 8 + x) << 2), v);
      }
    } else {
      const r = plane + ((<usize>(y0 + y) * <usize>stride + <usize>x0) << 2);
      memory.copy(blk + (<usize>(y * 8) << 2), r, 32);
    }
  }
  // rows, then columns
  for (let i = 0; i < 8; i++) dct8(blk + (<usize>(i * 8) << 2), 4);
  for (let i = 0; i < 8; i++) dct8(blk + (<usize>i << 2), 32);
  // quantise and code, in zigzag order
  const recip = base + RECIP + (<usize>(table * 64) << 2);
  const dcHuff = base + HUFF + (<usize>(table * 2) << 10);
  const acHuff = dcHuff + 1024;
  const dc = quant(load<f32>(blk) * load<f32>(recip));
  let diff = dc - pred;
  let size = magnitude(diff);
  let entry = load<u32>(dcHuff + (<usize>size << 2));
  emit(entry & 0xffffff, <i32>(entry >> 24));
  if (size) emit(<u32>(diff < 0 ? diff - 1 : diff) & ((<u32>1 << size) - 1), size);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const n = <usize>ZIGZAG[k];
    const v = quant(load<f32>(blk + (n << 2)) * load<f32>(recip + (n << 2)));
    if (v == 0) {
      run++;
      continue;
    }
    while (run > 15) {
      entry = load<u32>(acHuff + (0xf0 << 2));
      emit(entry & 0xffffff, <i32>(entry >> 24));
      run -= 16;
    }
    size = magnitude(v);
    entry = load<u32>(acHuff + (<usize>((run << 4) | size) << 2));
    emit(entry & 0xffffff, <i32>(entry >> 24));
    emit(<u32>(v < 0 ? v - 1 : v) & ((<u32>1 << size) - 1), size);
    run = 0;
  }
  if (run > 0) {
    entry = load<u32>(acHuff);
    emit(entry & 0xffffff, <i32>(entry >> 24));
  }
  return dc;
}

@inline function quant(x: f32): i32 {
  return <i32>Mathf.floor(x + 0.5);
}

/** Bits needed for |v| (T.81's SSSS category). */
@inline function magnitude(v: i32): i32 {
  const a = v < 0 ? -v : v;
  return 32 - clz(a);
}

/**
 * One 8-point forward DCT in place (the Arai-Agui-Nakajima factorisation; outputs scaled by 8 x the AAN
 * factors, which the quantiser reciprocals undo). `step`: bytes between the 8 values.
 */
@inline function dct8(p: usize, step: usize): void {
  const d0 = load<f32>(p);
  const d1 = load<f32>(p + step);
  const d2 = load<f32>(p + 2 * step);
  const d3 = load<f32>(p + 3 * step);
  const d4 = load<f32>(p + 4 * step);
  const d5 = load<f32>(p + 5 * step);
  const d6 = load<f32>(p + 6 * step);
  const d7 = load<f32>(p + 7 * step);
  const t0 = d0 + d7;
  const t7 = d0 - d7;
  const t1 = d1 + d6;
  const t6 = d1 - d6;
  const t2 = d2 + d5;
  const t5 = d2 - d5;
  const t3 = d3 + d4;
  const t4 = d3 - d4;
  // even part
  const e10 = t0 + t3;
  const e13 = t0 - t3;
  const e11 = t1 + t2;
  const e12 = t1 - t2;
  store<f32>(p, e10 + e11);
  store<f32>(p + 4 * step, e10 - e11);
  const z1 = (e12 + e13) * <f32>0.707106781;
  store<f32>(p + 2 * step, e13 + z1);
  store<f32>(p + 6 * step, e13 - z1);
  // odd part
  const o10 = t4 + t5;
  const o11 = t5 + t6;
  const o12 = t6 + t7;
  const z5 = (o10 - o12) * <f32>0.382683433;
  const z2 = <f32>0.5411961 * o10 + z5;
  const z4 = <f32>1.306562965 * o12 + z5;
  const z3 = o11 * <f32>0.707106781;
  const z11 = t7 + z3;
  const z13 = t7 - z3;
  store<f32>(p + 5 * step, z13 + z2);
  store<f32>(p + 3 * step, z13 - z2);
  store<f32>(p + step, z11 + z4);
  store<f32>(p + 7 * step, z11 - z4);
}
