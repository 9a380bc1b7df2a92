// SIMD pieces more than one kernel uses (imported by wasm/jpegdec and wasm/jpegenc; not a kernel of its own:
// scripts/build-wasm.mjs builds only folders with an index.ts, and rebuilds every kernel when this folder changes).

/** Transposes the 8x8 f32 block at `s` into `d`, rows 32 bytes apart (four 4x4 blocks: [A B; C D] -> [A' C'; B' D']). */
@inline export function transpose8(s: usize, d: usize): void {
  transpose4(s, d);
  transpose4(s + 16, d + 128);
  transpose4(s + 128, d + 16);
  transpose4(s + 144, d + 144);
}

/** Transposes the 4x4 f32 block at `s` (rows 32 bytes apart) into `d` (likewise). */
@inline function transpose4(s: usize, d: usize): void {
  const r0 = v128.load(s);
  const r1 = v128.load(s, 32);
  const r2 = v128.load(s, 64);
  const r3 = v128.load(s, 96);
  const t0 = v128.shuffle<f32>(r0, r1, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(r0, r1, 2, 6, 3, 7);
  const t2 = v128.shuffle<f32>(r2, r3, 0, 4, 1, 5);
  const t3 = v128.shuffle<f32>(r2, r3, 2, 6, 3, 7);
  v128.store(d, v128.shuffle<f32>(t0, t2, 0, 1, 4, 5));
  v128.store(d, v128.shuffle<f32>(t0, t2, 2, 3, 6, 7), 32);
  v128.store(d, v128.shuffle<f32>(t1, t3, 0, 1, 4, 5), 64);
  v128.store(d, v128.shuffle<f32>(t1, t3, 2, 3, 6, 7), 96);
}
