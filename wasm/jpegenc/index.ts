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
import { transpose8 } from "../shared/simd";

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

const BLOCK: usize = 0; // 64 f32: the block being transformed (row-major)
const RECIP: usize = 256; // 2 x 64 f32: 1 / (quantiser x AAN scale x 8), natural order (luma, chroma)
const QTAB: usize = 768; // 2 x 64 u8: the quantisers as written in DQT (natural order)
const HUFF: usize = 1024; // 4 x 256 u32: code | length << 24 (DC luma, AC luma, DC chroma, AC chroma)
const TBLOCK: usize = 5120; // 64 f32: the block transposed (the row pass runs down its columns)
const QNAT: usize = 5376; // 64 i16: the quantised block, natural order
const QZZ: usize = 5504; // 64 i16: the quantised block, zigzag order
const WORK_BYTES: usize = 5632;

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

/** One entropy-coded byte, with the zero byte T.81 stuffs after each 0xFF. */
@inline function putCoded(b: i32): void {
  store<u8>(outAt + outPos, <u8>b);
  outPos++;
  if (b == 0xff) {
    store<u8>(outAt + outPos, 0);
    outPos++;
  }
}

/**
 * Appends `len` bits of `code` (most significant first; len <= 32, code < 2^len). Bits leave the accumulator 32 at
 * a time: one store when none of the four bytes is 0xFF (the common case), else byte by byte with stuffing. The
 * stream is the same as writing each byte as soon as it is full.
 */
@inline function emit(code: u32, len: i32): void {
  acc = (acc << <u64>len) | <u64>code;
  accBits += len;
  if (accBits >= 32) {
    accBits -= 32;
    const w = <u32>(acc >> <u64>accBits);
    const t = ~w;
    if (((t - 0x01010101) & ~t & 0x80808080) == 0) {
      store<u32>(outAt + outPos, bswap<u32>(w));
      outPos += 4;
    } else {
      putCoded(<i32>(w >> 24));
      putCoded(<i32>((w >> 16) & 0xff));
      putCoded(<i32>((w >> 8) & 0xff));
      putCoded(<i32>(w & 0xff));
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
  ensureMemory(outAt + outPos + 32);
  // pad the last byte with ones, then write the bytes still in the accumulator
  const pad = (8 - (accBits & 7)) & 7;
  if (pad > 0) emit((<u32>1 << pad) - 1, pad);
  while (accBits >= 8) {
    accBits -= 8;
    putCoded(<i32>((acc >> <u64>accBits) & 0xff));
  }
  put16(0xffd9);
  return <i32>outPos;
}

// ---------------------------------------------------------------------------------------------------------
// Colour conversion, DCT, quantisation, entropy coding
//
// The SIMD paths (f32x4) compute every sample with the same f32 operations in the same order as a scalar
// evaluation would, lane by lane (wasm SIMD has no fused multiply-add), so the output is bit-identical to the
// scalar kernel's (test/node/media/baseline-jpeg.golden.test.ts pins it).

const Y_R: f32 = 0.299;
const Y_G: f32 = 0.587;
const Y_B: f32 = 0.114;
const CB_R: f32 = -0.168736;
const CB_G: f32 = 0.331264;
const CR_G: f32 = 0.418688;
const CR_B: f32 = 0.081312;

/** RGBA strip -> level-shifted Y, Cb, Cr planes (JFIF), padded right and below by repeating the edge. */
function toPlanes(rows: i32): void {
  const w = width;
  const low = i32x4.splat(0xff);
  const yr = f32x4.splat(Y_R);
  const yg = f32x4.splat(Y_G);
  const yb = f32x4.splat(Y_B);
  const level = f32x4.splat(128.0);
  const cbr = f32x4.splat(CB_R);
  const cbg = f32x4.splat(CB_G);
  const half = f32x4.splat(0.5);
  const crg = f32x4.splat(CR_G);
  const crb = f32x4.splat(CR_B);
  for (let y = 0; y < mcuH; y++) {
    const sy = y < rows ? y : rows - 1;
    const src = stripAt + <usize>sy * <usize>w * 4;
    const dst = <usize>y * <usize>paddedW * 4;
    let x = 0;
    // four pixels at a time while they are all inside the image
    for (; x + 4 <= w; x += 4) {
      const px = v128.load(src + (<usize>x << 2));
      const r = f32x4.convert_i32x4_u(v128.and(px, low));
      const g = f32x4.convert_i32x4_u(v128.and(i32x4.shr_u(px, 8), low));
      const b = f32x4.convert_i32x4_u(v128.and(i32x4.shr_u(px, 16), low));
      const o = dst + (<usize>x << 2);
      v128.store(yPlane + o, f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(r, yr), f32x4.mul(g, yg)), f32x4.mul(b, yb)), level));
      v128.store(cbPlane + o, f32x4.add(f32x4.sub(f32x4.mul(r, cbr), f32x4.mul(g, cbg)), f32x4.mul(b, half)));
      v128.store(crPlane + o, f32x4.sub(f32x4.sub(f32x4.mul(r, half), f32x4.mul(g, crg)), f32x4.mul(b, crb)));
    }
    for (; x < paddedW; x++) {
      const p = src + (<usize>(x < w ? x : w - 1) << 2);
      const r = <f32>load<u8>(p);
      const g = <f32>load<u8>(p, 1);
      const b = <f32>load<u8>(p, 2);
      const o = dst + (<usize>x << 2);
      store<f32>(yPlane + o, r * Y_R + g * Y_G + b * Y_B - <f32>128.0);
      store<f32>(cbPlane + o, r * CB_R - g * CB_G + b * <f32>0.5);
      store<f32>(crPlane + o, r * <f32>0.5 - g * CR_G - b * CR_B);
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
  if (down) {
    const quarter = f32x4.splat(0.25);
    for (let y = 0; y < 8; y++) {
      const r0 = plane + ((<usize>(2 * y) * <usize>stride + <usize>x0) << 2);
      const r1 = r0 + (<usize>stride << 2);
      for (let h: usize = 0; h < 32; h += 16) {
        const a0 = v128.load(r0 + 2 * h);
        const b0 = v128.load(r0 + 2 * h, 16);
        const a1 = v128.load(r1 + 2 * h);
        const b1 = v128.load(r1 + 2 * h, 16);
        const e0 = v128.shuffle<f32>(a0, b0, 0, 2, 4, 6);
        const o0 = v128.shuffle<f32>(a0, b0, 1, 3, 5, 7);
        const e1 = v128.shuffle<f32>(a1, b1, 0, 2, 4, 6);
        const o1 = v128.shuffle<f32>(a1, b1, 1, 3, 5, 7);
        v128.store(blk + (<usize>(y * 8) << 2) + h, f32x4.mul(f32x4.add(f32x4.add(f32x4.add(e0, o0), e1), o1), quarter));
      }
    }
  } else {
    for (let y = 0; y < 8; y++) {
      const r = plane + ((<usize>(y0 + y) * <usize>stride + <usize>x0) << 2);
      const d = blk + (<usize>(y * 8) << 2);
      v128.store(d, v128.load(r));
      v128.store(d, v128.load(r, 16), 16);
    }
  }
  // rows (as the columns of the transposed block), then columns
  const t = base + TBLOCK;
  transpose8(blk, t);
  dct8x4(t);
  dct8x4(t + 16);
  transpose8(t, blk);
  dct8x4(blk);
  dct8x4(blk + 16);
  // quantise (natural order), then gather in zigzag order with a map of the non-zero coefficients
  const recip = base + RECIP + (<usize>(table * 64) << 2);
  const nat = base + QNAT;
  const bias = f32x4.splat(0.5);
  for (let i: usize = 0; i < 256; i += 32) {
    const lo = i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.add(f32x4.mul(v128.load(blk + i), v128.load(recip + i)), bias)));
    const hi = i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.add(f32x4.mul(v128.load(blk + i, 16), v128.load(recip + i, 16)), bias)));
    v128.store(nat + (i >> 1), i16x8.narrow_i32x4_s(lo, hi));
  }
  const zz = base + QZZ;
  for (let k = 0; k < 64; k++) store<i16>(zz + (<usize>k << 1), load<i16>(nat + (<usize>unchecked(ZIGZAG[k]) << 1)));
  const zero = i16x8.splat(0);
  let nonZero: u64 = 0;
  for (let j = 0; j < 8; j++)
    nonZero |= <u64>i16x8.bitmask(v128.not(i16x8.eq(v128.load(zz + (<usize>j << 4)), zero))) << <u64>(j * 8);

  const dcHuff = base + HUFF + (<usize>(table * 2) << 10);
  const acHuff = dcHuff + 1024;
  const dc = <i32>load<i16>(zz);
  const diff = dc - pred;
  let size = magnitude(diff);
  let entry = load<u32>(dcHuff + (<usize>size << 2));
  emit(((entry & 0xffffff) << size) | (<u32>(diff < 0 ? diff - 1 : diff) & ((<u32>1 << size) - 1)), <i32>(entry >> 24) + size);
  // AC: each non-zero coefficient with the run of zeros before it; ZRL for runs over 15; EOB unless the last is non-zero
  let next = 1;
  let left = nonZero & ~(<u64>1);
  while (left != 0) {
    const k = <i32>ctz(left);
    left &= left - 1;
    let run = k - next;
    next = k + 1;
    while (run > 15) {
      entry = load<u32>(acHuff + (0xf0 << 2));
      emit(entry & 0xffffff, <i32>(entry >> 24));
      run -= 16;
    }
    const v = <i32>load<i16>(zz + (<usize>k << 1));
    size = magnitude(v);
    entry = load<u32>(acHuff + (<usize>((run << 4) | size) << 2));
    emit(((entry & 0xffffff) << size) | (<u32>(v < 0 ? v - 1 : v) & ((<u32>1 << size) - 1)), <i32>(entry >> 24) + size);
  }
  if (next < 64) {
    entry = load<u32>(acHuff);
    emit(entry & 0xffffff, <i32>(entry >> 24));
  }
  return dc;
}

/** Bits needed for |v| (T.81's SSSS category). */
@inline function magnitude(v: i32): i32 {
  const a = v < 0 ? -v : v;
  return 32 - clz(a);
}

/**
 * The 8-point forward DCT down four columns at once, in place: rows of the block are 32 bytes apart, `p` the
 * first row's first column of the four (the Arai-Agui-Nakajima factorisation; outputs scaled by 8 x the AAN
 * factors, which the quantiser reciprocals undo).
 */
@inline function dct8x4(p: usize): void {
  const d0 = v128.load(p);
  const d1 = v128.load(p, 32);
  const d2 = v128.load(p, 64);
  const d3 = v128.load(p, 96);
  const d4 = v128.load(p, 128);
  const d5 = v128.load(p, 160);
  const d6 = v128.load(p, 192);
  const d7 = v128.load(p, 224);
  const t0 = f32x4.add(d0, d7);
  const t7 = f32x4.sub(d0, d7);
  const t1 = f32x4.add(d1, d6);
  const t6 = f32x4.sub(d1, d6);
  const t2 = f32x4.add(d2, d5);
  const t5 = f32x4.sub(d2, d5);
  const t3 = f32x4.add(d3, d4);
  const t4 = f32x4.sub(d3, d4);
  // even part
  const e10 = f32x4.add(t0, t3);
  const e13 = f32x4.sub(t0, t3);
  const e11 = f32x4.add(t1, t2);
  const e12 = f32x4.sub(t1, t2);
  v128.store(p, f32x4.add(e10, e11));
  v128.store(p, f32x4.sub(e10, e11), 128);
  const z1 = f32x4.mul(f32x4.add(e12, e13), f32x4.splat(0.707106781));
  v128.store(p, f32x4.add(e13, z1), 64);
  v128.store(p, f32x4.sub(e13, z1), 192);
  // odd part
  const o10 = f32x4.add(t4, t5);
  const o11 = f32x4.add(t5, t6);
  const o12 = f32x4.add(t6, t7);
  const z5 = f32x4.mul(f32x4.sub(o10, o12), f32x4.splat(0.382683433));
  const z2 = f32x4.add(f32x4.mul(f32x4.splat(0.5411961), o10), z5);
  const z4 = f32x4.add(f32x4.mul(f32x4.splat(1.306562965), o12), z5);
  const z3 = f32x4.mul(o11, f32x4.splat(0.707106781));
  const z11 = f32x4.add(t7, z3);
  const z13 = f32x4.sub(t7, z3);
  v128.store(p, f32x4.add(z13, z2), 160);
  v128.store(p, f32x4.sub(z13, z2), 96);
  v128.store(p, f32x4.add(z11, z4), 32);
  v128.store(p, f32x4.sub(z11, z4), 224);
}
