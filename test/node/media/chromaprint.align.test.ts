/**
 * alignFingerprints (src/media/fingerprint/audio/align.ts): finds a query's offset inside a reference by bit error
 * rate, partial overlaps at either end, thresholds, degenerate and hostile input, and its speed on the lead's use
 * (a 10-second query against a 10-minute reference).
 */

import { describe, expect, it } from "vitest";
import { alignFingerprints } from "../../../src/media/fingerprint/audio";
import { prng } from "../../support/prng";

function randomFp(n: number, seed: number): Uint32Array {
  const rand = prng(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(rand() * 2 ** 32));
}

/** Flips each bit with probability p. */
function noisy(fp: Uint32Array, p: number, seed: number): Uint32Array {
  const rand = prng(seed);
  return fp.map((v) => {
    let x = v;
    for (let b = 0; b < 32; b++) if (rand() < p) x ^= 1 << b;
    return x >>> 0;
  });
}

describe("alignFingerprints", () => {
  const ref = randomFp(4850, 1); // 10 minutes

  it("finds an exact excerpt: offset, overlap, zero errors, all frames equal", () => {
    const q = ref.slice(1234, 1234 + 80);
    expect(alignFingerprints(q, ref)).toEqual({ offset: 1234, overlap: 80, bitErrorRate: 0, equalFrames: 80 });
  });

  it("finds a noisy excerpt (10 % of bits flipped) and reports its rate", () => {
    const q = noisy(ref.slice(3000, 3080), 0.1, 2);
    const a = alignFingerprints(q, ref)!;
    expect(a.offset).toBe(3000);
    expect(a.bitErrorRate).toBeGreaterThan(0.06);
    expect(a.bitErrorRate).toBeLessThan(0.14);
  });

  it("unrelated fingerprints: best rate near 0.5, null under a threshold", () => {
    const q = randomFp(80, 99);
    const a = alignFingerprints(q, ref)!;
    expect(a.bitErrorRate).toBeGreaterThan(0.35);
    expect(alignFingerprints(q, ref, { maxBitErrorRate: 0.3 })).toBeNull();
  });

  it("overhanging queries with a smaller minOverlap; offset window", () => {
    const q = ref.slice(0, 60);
    const shifted = new Uint32Array(80);
    shifted.set(q, 20); // the query starts 20 frames before the reference
    for (let i = 0; i < 20; i++) shifted[i] = 0x12345678 * (i + 1);
    expect(alignFingerprints(shifted, ref, { minOverlap: 40 })).toMatchObject({ offset: -20, overlap: 60, bitErrorRate: 0 });
    expect(alignFingerprints(ref.slice(100, 180), ref, { minOffset: 200 })!.offset).not.toBe(100);
    expect(alignFingerprints(ref.slice(100, 180), ref, { minOffset: 50, maxOffset: 150 })!.offset).toBe(100);
  });

  it("degenerate and hostile input gives null or a result, never a throw", () => {
    expect(alignFingerprints(new Uint32Array(0), ref)).toBeNull();
    expect(alignFingerprints(ref, new Uint32Array(0))).toBeNull();
    expect(alignFingerprints(null as unknown as Uint32Array, ref)).toBeNull();
    expect(alignFingerprints([1, 2, 3], [0, 1, 2, 3, 4])).toMatchObject({ offset: 1, bitErrorRate: 0 });
    expect(alignFingerprints(ref.slice(0, 10), ref, { minOverlap: Number.NaN })).toMatchObject({ offset: 0 });
    expect(alignFingerprints(ref.slice(0, 10), ref, { minOverlap: 1e9 })).toMatchObject({ offset: 0, overlap: 10 });
    expect(alignFingerprints(ref.slice(0, 10), ref, { minOffset: 10, maxOffset: 5 })).toBeNull();
    expect(alignFingerprints({ length: 2 ** 40 } as unknown as Uint32Array, ref)).toBeNull();
  });

  it("is bounded: a 10 s query against a 10 min reference, and 10 min against 10 min (a few ms and well under a second when idle)", () => {
    const q = ref.slice(4000, 4080);
    let t = performance.now();
    for (let i = 0; i < 10; i++) alignFingerprints(q, ref);
    // Bounds that tell a bounded search from a runaway one on a loaded CI machine; the speed itself is for `npm run bench`.
    expect((performance.now() - t) / 10).toBeLessThan(500);
    t = performance.now();
    const full = alignFingerprints(noisy(ref, 0.05, 4), ref, { minOverlap: 400 })!;
    expect(full.offset).toBe(0);
    expect(performance.now() - t).toBeLessThan(15_000);
  });
});
