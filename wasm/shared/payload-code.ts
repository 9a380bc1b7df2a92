// The payload code both our watermarks carry: 64 payload bits and a CRC-14 under BCH(127,78), scrambled by the
// kernel's own sequence, decoded from soft bit values by Chase-II. The buffers are the caller's (each kernel lays out
// its own memory); these functions keep no state.

import { BCH_K, BCH_N, bchDecode, bchEncode } from "./bch";

/** Flip patterns over this many least reliable bits are tried (2^CHASE_BITS decodes at most). */
export const CHASE_BITS: i32 = 3;
export const CHASE_PATTERNS: i32 = 1 << CHASE_BITS;
const CRC_POLY: i32 = 0x0805; // CRC-14, x^14 + x^11 + x^2 + 1
const CRC_INIT: i32 = 0x3fff;

/** CRC-14 of the 64 bits (one per byte) at `bits`. */
export function crc14(bits: usize): i32 {
  let c: i32 = CRC_INIT;
  for (let i: i32 = 0; i < 64; i++) {
    const fb = ((c >> 13) & 1) ^ <i32>load<u8>(bits + i);
    c = (c << 1) & 0x3fff;
    if (fb) c ^= CRC_POLY;
  }
  return c;
}

/** The scrambled codeword bits (u8[127] at `code`) of the 8-byte payload at `src`; `data` is u8[80] of scratch. */
export function buildCodeword(src: usize, data: usize, code: usize, scrambler: usize): void {
  for (let i: i32 = 0; i < 64; i++) store<u8>(data + i, <u8>((<i32>load<u8>(src + (i >> 3)) >> (7 - (i & 7))) & 1));
  const c = crc14(data);
  for (let i: i32 = 0; i < 14; i++) store<u8>(data + 64 + i, <u8>((c >> (13 - i)) & 1));
  bchEncode(data, code);
  for (let i: i32 = 0; i < BCH_N; i++) store<u8>(code + i, load<u8>(code + i) ^ load<u8>(scrambler + i));
}

/** Decodes attempted by the last `chaseDecode`. */
export let chaseAttempts: i32 = 0;

/**
 * Chase-II decoding of the soft bit values (f64[127] at `soft`, positive: 1): hard decisions, then every flip pattern
 * of the CHASE_BITS least reliable bits (ties keep the lower index), each BCH-decoded and CRC-checked. On success
 * writes the 8 payload bytes to `payload` and returns the bit errors relative to the hard decisions; else -1.
 * `chase` is i32[CHASE_BITS] and `bits` u8[128] of scratch.
 */
export function chaseDecode(soft: usize, scrambler: usize, chase: usize, bits: usize, payload: usize): i32 {
  chaseAttempts = 0;
  for (let k: i32 = 0; k < CHASE_BITS; k++) {
    let bi: i32 = -1;
    let bv: f64 = Infinity;
    for (let i: i32 = 0; i < BCH_N; i++) {
      let used = false;
      for (let q: i32 = 0; q < k; q++) if (load<i32>(chase + (<usize>q << 2)) == i) used = true;
      if (used) continue;
      const v = Math.abs(load<f64>(soft + (<usize>i << 3)));
      if (v < bv) {
        bv = v;
        bi = i;
      }
    }
    store<i32>(chase + (<usize>k << 2), bi);
  }
  for (let pat: i32 = 0; pat < CHASE_PATTERNS; pat++) {
    for (let i: i32 = 0; i < BCH_N; i++)
      store<u8>(bits + i, <u8>((load<f64>(soft + (<usize>i << 3)) > 0.0 ? 1 : 0) ^ <i32>load<u8>(scrambler + i)));
    let flips: i32 = 0;
    for (let k: i32 = 0; k < CHASE_BITS; k++) {
      if (pat & (1 << k)) {
        const i = load<i32>(chase + (<usize>k << 2));
        store<u8>(bits + i, load<u8>(bits + i) ^ 1);
        flips++;
      }
    }
    chaseAttempts++;
    const e = bchDecode(bits);
    if (e < 0) continue;
    const data = bits + (BCH_N - BCH_K);
    const c = crc14(data);
    let ok = true;
    for (let i: i32 = 0; i < 14; i++) if (<i32>load<u8>(data + 64 + i) != ((c >> (13 - i)) & 1)) ok = false;
    if (!ok) continue;
    for (let i: i32 = 0; i < 8; i++) store<u8>(payload + i, 0);
    for (let i: i32 = 0; i < 64; i++) store<u8>(payload + (i >> 3), load<u8>(payload + (i >> 3)) | (load<u8>(data + i) << <u8>(7 - (i & 7))));
    return e + flips;
  }
  return -1;
}
