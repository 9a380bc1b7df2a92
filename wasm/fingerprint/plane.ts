// The verification's pixel plane: the decoded RGBA image box-averaged by a whole factor k (see
// src/media/fingerprint/plane.ts for why). JS pushes bands of k source rows into the staging area; each band
// becomes one plane row. Edge blocks the factor does not divide average the pixels they have.

import { align16, reserve, workBase } from "./mem";

let srcW: i32 = 0;
let srcH: i32 = 0;
let factor: i32 = 1;
let outW: i32 = 0;
let outH: i32 = 0;
let band: i32 = 0;
let alphaAnd: u32 = 255;
let staging: usize = 0;
let sums: usize = 0; // u32[outW * 4]
let output: usize = 0; // u8[outW * outH * 4]

/** Lays out a plane of a `width` x `height` image reduced by `k`; returns the staging address (k rows), or 0. */
export function planeBegin(width: i32, height: i32, k: i32): usize {
  if (width <= 0 || height <= 0 || k < 1) return 0;
  srcW = width;
  srcH = height;
  factor = k;
  outW = (width + k - 1) / k;
  outH = (height + k - 1) / k;
  band = 0;
  alphaAnd = 255;
  staging = workBase();
  let end: u64 = <u64>staging + align16(<u64>width * <u64>k * 4);
  sums = <usize>end;
  end += align16(<u64>outW * 16);
  output = <usize>end;
  end += align16(<u64>outW * <u64>outH * 4);
  return reserve(end) ? staging : 0;
}

/** Reduces the next band (`rows` source rows, k except at the bottom edge) from the staging area. */
export function planeBand(rows: i32): void {
  if (band >= outH) return;
  memory.fill(sums, 0, <usize>outW * 16);
  const k = factor;
  for (let r: i32 = 0; r < rows; r++) {
    let p = staging + <usize>r * <usize>srcW * 4;
    let x: i32 = 0;
    for (let bx: i32 = 0; bx < outW; bx++) {
      const xEnd = min<i32>(srcW, x + k);
      let sr: u32 = 0;
      let sg: u32 = 0;
      let sb: u32 = 0;
      let sa: u32 = 0;
      for (; x < xEnd; x++, p += 4) {
        const v = load<u32>(p);
        sr += v & 255;
        sg += (v >> 8) & 255;
        sb += (v >> 16) & 255;
        const a = v >>> 24;
        sa += a;
        alphaAnd &= a;
      }
      const q = sums + (<usize>bx << 4);
      store<u32>(q, load<u32>(q) + sr);
      store<u32>(q, load<u32>(q, 4) + sg, 4);
      store<u32>(q, load<u32>(q, 8) + sb, 8);
      store<u32>(q, load<u32>(q, 12) + sa, 12);
    }
  }
  let o = output + <usize>band * <usize>outW * 4;
  for (let bx: i32 = 0; bx < outW; bx++, o += 4) {
    const n = <u32>(rows * (min<i32>(srcW, (bx + 1) * k) - bx * k));
    const half = n >> 1;
    const q = sums + (<usize>bx << 4);
    // rounded to the nearest level, in integers (the same plane on every runtime)
    store<u8>(o, <u8>((load<u32>(q) + half) / n));
    store<u8>(o, <u8>((load<u32>(q, 4) + half) / n), 1);
    store<u8>(o, <u8>((load<u32>(q, 8) + half) / n), 2);
    store<u8>(o, <u8>((load<u32>(q, 12) + half) / n), 3);
  }
  band++;
}

export function planeOutput(): usize {
  return output;
}

/** 1 when every source pixel pushed so far had alpha 255. */
export function planeOpaque(): i32 {
  return alphaAnd == 255 ? 1 : 0;
}
