// BCH(127,78) with t = 7 over GF(2^7) (primitive polynomial x^7 + x^3 + 1), hard-decision bounded-distance
// decoding (Berlekamp-Massey + Chien search). Bits live one per byte: codeword bit i is the coefficient of x^i;
// parity bits are 0..48, data bits 49..126 (data bit j is codeword bit 49 + j).

export const BCH_N: i32 = 127;
export const BCH_K: i32 = 78;
export const BCH_T: i32 = 7;
const NPAR: i32 = 49;
// Generator polynomial: the product of the minimal polynomials of a^1, a^3, ..., a^13 (degree 49).
const GEN: u64 = 0x2c98011d8b04d;

let gfExp: usize = 0; // i32[254]
let gfLog: usize = 0; // i32[128]
let work: usize = 0; // scratch: syndromes, locator polynomials

@inline function ex(i: i32): i32 { return load<i32>(gfExp + (<usize>i << 2)); }
@inline function lg(v: i32): i32 { return load<i32>(gfLog + (<usize>v << 2)); }
@inline function gmul(a: i32, b: i32): i32 { return a == 0 || b == 0 ? 0 : ex(lg(a) + lg(b)); }

/** Builds the field tables in the `bytes` (>= 2048) at `base`. */
export function bchInit(base: usize): void {
  gfExp = base;
  gfLog = base + 1024;
  work = base + 1536;
  let x: i32 = 1;
  for (let i: i32 = 0; i < 127; i++) {
    store<i32>(gfExp + (<usize>i << 2), x);
    store<i32>(gfExp + (<usize>(i + 127) << 2), x);
    store<i32>(gfLog + (<usize>x << 2), i);
    x <<= 1;
    if (x & 0x80) x ^= 0x89;
  }
  store<i32>(gfLog, 0);
}

/** Systematic encoding: `data` holds BCH_K bits (bytes 0/1); writes BCH_N bits to `code`. */
export function bchEncode(data: usize, code: usize): void {
  let rem: u64 = 0;
  // Divide data(x) * x^49 by g(x), highest data bit first.
  for (let j: i32 = BCH_K - 1; j >= 0; j--) {
    const fb: u64 = (<u64>load<u8>(data + j)) ^ ((rem >> 48) & 1);
    rem = (rem << 1) & 0x1ffffffffffff;
    if (fb) rem ^= GEN & 0x1ffffffffffff;
  }
  for (let i: i32 = 0; i < NPAR; i++) store<u8>(code + i, <u8>((rem >> <u64>i) & 1));
  for (let j: i32 = 0; j < BCH_K; j++) store<u8>(code + NPAR + j, load<u8>(data + j));
}

/**
 * Decodes `rx` (BCH_N bits) in place. Returns the number of corrected errors (0..7), or -1 when the word is
 * farther than t from every codeword (or the locator is inconsistent). On success the data bits are rx[49..126].
 */
export function bchDecode(rx: usize): i32 {
  const S = work; // i32[15], S[1..14]
  let any: i32 = 0;
  for (let j: i32 = 1; j <= 2 * BCH_T; j++) {
    let s: i32 = 0;
    for (let i: i32 = 0; i < BCH_N; i++) if (load<u8>(rx + i)) s ^= ex((i * j) % 127);
    store<i32>(S + (<usize>j << 2), s);
    any |= s;
  }
  if (any == 0) return 0;
  const C = work + 64; // i32[16]
  const B = work + 128;
  const Tm = work + 192;
  for (let i: i32 = 0; i < 16; i++) {
    store<i32>(C + (<usize>i << 2), 0);
    store<i32>(B + (<usize>i << 2), 0);
  }
  store<i32>(C, 1);
  store<i32>(B, 1);
  let L: i32 = 0;
  let m: i32 = 1;
  let b: i32 = 1;
  for (let n: i32 = 0; n < 2 * BCH_T; n++) {
    let d = load<i32>(S + (<usize>(n + 1) << 2));
    for (let i: i32 = 1; i <= L; i++) d ^= gmul(load<i32>(C + (<usize>i << 2)), load<i32>(S + (<usize>(n + 1 - i) << 2)));
    if (d == 0) {
      m++;
      continue;
    }
    const coef = ex((lg(d) - lg(b) + 127) % 127);
    if (2 * L <= n) {
      memory.copy(Tm, C, 64);
      for (let i: i32 = 0; i + m < 16; i++) {
        const p = C + (<usize>(i + m) << 2);
        store<i32>(p, load<i32>(p) ^ gmul(coef, load<i32>(B + (<usize>i << 2))));
      }
      L = n + 1 - L;
      memory.copy(B, Tm, 64);
      b = d;
      m = 1;
    } else {
      for (let i: i32 = 0; i + m < 16; i++) {
        const p = C + (<usize>(i + m) << 2);
        store<i32>(p, load<i32>(p) ^ gmul(coef, load<i32>(B + (<usize>i << 2))));
      }
      m++;
    }
  }
  if (L > BCH_T) return -1;
  // Chien search: position i is in error when C(a^-i) = 0.
  let roots: i32 = 0;
  for (let i: i32 = 0; i < BCH_N; i++) {
    let v: i32 = 0;
    for (let j: i32 = 0; j <= L; j++) {
      const c = load<i32>(C + (<usize>j << 2));
      if (c) v ^= ex((lg(c) + ((127 - i) * j) % 127) % 127);
    }
    if (v == 0) {
      store<u8>(rx + i, load<u8>(rx + i) ^ 1);
      roots++;
    }
  }
  if (roots != L) return -1;
  return L;
}
