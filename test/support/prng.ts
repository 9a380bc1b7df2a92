/**
 * Deterministic PRNG (mulberry32) for fuzz tests and generated test media: a failing case replays from its seed.
 * The one generator of the test suite: generated images, audio and byte noise all draw from it.
 */
export function prng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` bytes drawn from `rand` (a prng), so random bytes inside a seeded fuzz loop replay from its seed too. */
export function randomBytes(rand: () => number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

/** `length` pseudo-random bytes from `seed` (see prng). */
export function seededBytes(length: number, seed: number): Uint8Array {
  return randomBytes(prng(seed), length);
}
