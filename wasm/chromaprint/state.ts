// Fixed working memory of the Chromaprint kernel: static buffers (`memory.data`), one computation at a time.
// Only the resampler's filter bank depends on the input (its length grows with the input rate); it lives from the
// heap base up and is laid out afresh by each cpStart.

/** Interleaved int16 samples JS may copy in per cpPush. */
export const STAGE_SAMPLES: i32 = 65536;
/** Staging area for JS's chunks of interleaved samples. */
export const STAGE: usize = memory.data(STAGE_SAMPLES * 2, 16);

/** Sub-fingerprints one cpPush or cpFinish can produce at most (a full stage upsampled from 1001 Hz makes ~800). */
export const OUT_CAP: i32 = 4096;
const OUT_BUF: usize = memory.data(OUT_CAP * 4, 16);
/** Address of the sub-fingerprints of the last call. */
export const CP_OUT: usize = OUT_BUF;

let outCount: i32 = 0;

/** Starts a new call's output list. */
export function outReset(): void {
  outCount = 0;
}

export function outCountNow(): i32 {
  return outCount;
}

/** Appends one sub-fingerprint (dropped past OUT_CAP, which the sizes above rule out). */
export function emit(v: u32): void {
  if (outCount < OUT_CAP) store<u32>(OUT_BUF + (<usize>outCount << 2), v);
  outCount++;
}

export { reserve, workBase } from "../shared/memory";
