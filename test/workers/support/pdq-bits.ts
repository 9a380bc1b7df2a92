/** 256-bit PDQ hashes for index tests: hex as the index stores them, random ones, and near ones at a known distance. */
export const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

export const random = () => crypto.getRandomValues(new Uint8Array(32));

/** `bits` with `n` distinct bits flipped (n ≤ 256; the positions follow `seed`), so at Hamming distance n. */
export function flip(bits: Uint8Array, n: number, seed: number): Uint8Array {
  const out = bits.slice();
  for (let k = 0; k < n; k++) {
    const p = (seed * 13 + k * 97) % 256;
    out[p >> 3] = out[p >> 3]! ^ (1 << (p & 7));
  }
  return out;
}
