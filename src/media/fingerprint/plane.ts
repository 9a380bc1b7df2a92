import type { RgbaImage } from "../types";
import { FingerprintKernel, type KernelPlane } from "./kernel";

/*
 * The reduced image a verification reads its distance-matched signals from: the decoded image box-averaged by a
 * whole factor, so a 2.8 MP photograph costs PDQ about a ninth of its pixels (the reference's own file tools
 * shrink images over 512 px before hashing, for the same reason).
 *
 * The factor keeps at least the watermark detector's canonical area (about 512 x 384, 196,608 pixels) and a
 * shorter side of at least 128 (its minimum). verify-pixels.ts reduces a JPEG in the DCT domain by the largest
 * power of two within this factor, and every signal reads that; for other formats the detector and ISCC read the
 * full decode and PDQ this plane.
 * Transparent images keep full-resolution fingerprints (`opaque: false`): PDQ composites onto white per pixel,
 * which an average of unequal alphas would not reproduce.
 */

/** The detector's canonical area (wasm/watermark CANON_AREA) and minimum shorter side (MIN_EDGE). */
const CANONICAL_AREA = 196_608;
const MINIMUM_EDGE = 128;

export interface PixelPlane {
  /** The reduced image (the decoded image itself when `factor` is 1). */
  image: RgbaImage;
  /** Each plane pixel averages (up to) factor x factor decoded pixels. */
  factor: number;
  /** Every decoded pixel has alpha 255. */
  opaque: boolean;
  /** The decoded image's size (the watermark's minimum size applies to it). */
  sourceWidth: number;
  sourceHeight: number;
}

/** The largest whole factor that keeps the canonical area and the minimum edge (1: use the image as it is). */
export function planeFactor(width: number, height: number): number {
  const byArea = Math.floor(Math.sqrt((width * height) / CANONICAL_AREA));
  const byEdge = Math.floor(Math.min(width, height) / MINIMUM_EDGE);
  return Math.max(1, Math.min(byArea, byEdge));
}

function isOpaque(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/**
 * The plane of a decoded image, reduced in the fingerprint kernel (wasm/fingerprint/plane.ts) band by band, so
 * only the plane itself is allocated. Edge blocks that the factor does not divide average the pixels they have:
 * the plane covers the whole image at exactly 1/factor (no edge is cropped). Throws if the kernel cannot grow.
 */
export function pixelPlane(module: WebAssembly.Module | FingerprintKernel, image: RgbaImage): PixelPlane {
  const { width: W, height: H, data } = image;
  const k = planeFactor(W, H);
  if (k === 1) return { image, factor: 1, opaque: isOpaque(data), sourceWidth: W, sourceHeight: H };
  const { image: reduced, opaque } = boxReduce(module, image, k);
  return { image: reduced, factor: k, opaque, sourceWidth: W, sourceHeight: H };
}

/**
 * `image` box-averaged by the whole factor `k` in the fingerprint kernel: each output channel is the rounded mean
 * of the (up to) k x k pixels its block covers (edge blocks the factor does not divide average the pixels they
 * have), and whether every pixel had alpha 255. Throws if the kernel cannot grow. `buffer`: where the reduced image
 * is copied (a buffer of exactly the length asked for, every byte of which is written); by default a fresh one.
 */
export function boxReduce(
  module: WebAssembly.Module | FingerprintKernel,
  image: RgbaImage,
  k: number,
  buffer?: (length: number) => Uint8Array,
): { image: RgbaImage; opaque: boolean } {
  const kernel = FingerprintKernel.of(module);
  const { width: w, height: h, at, opaque } = boxReduceInKernel(kernel, image, k);
  const plane = kernel.bytes().subarray(at, at + w * h * 4);
  let reduced: Uint8Array;
  if (buffer) {
    reduced = buffer(plane.length);
    if (reduced.length !== plane.length) throw new Error("the plane's buffer does not have the plane's size");
    reduced.set(plane);
  } else reduced = plane.slice();
  return { image: { width: w, height: h, data: reduced }, opaque };
}

/**
 * boxReduce, leaving the reduced image in the kernel's memory: its size, its address `at` (valid until the kernel's
 * next computation) and whether every pixel had alpha 255. Throws if the kernel cannot grow.
 */
export function boxReduceInKernel(kernel: FingerprintKernel, image: RgbaImage, k: number): KernelPlane {
  const { width: W, height: H, data } = image;
  const e = kernel.exports;
  const staging = e.planeBegin(W, H, k) >>> 0;
  if (!staging) throw new Error("fingerprint kernel: out of memory for the pixel plane");
  // whole bands of k rows per copy and call (the kernel's staging area holds planeStagingRows rows)
  const chunk = W * 4 * e.planeStagingRows();
  const mem = kernel.bytes(); // planeBegin may have grown the memory: views are taken after it
  for (let at = 0; at < data.length; at += chunk) {
    const end = Math.min(data.length, at + chunk);
    mem.set(data.subarray(at, end), staging);
    e.planeRows((end - at) / (W * 4));
  }
  return {
    width: Math.ceil(W / k),
    height: Math.ceil(H / k),
    at: e.planeOutput() >>> 0,
    opaque: e.planeOpaque() === 1,
    computation: kernel.computations,
  };
}
