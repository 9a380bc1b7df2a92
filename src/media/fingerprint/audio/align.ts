/**
 * Alignment of two raw Chromaprint fingerprints: where a (short) query best fits inside a reference, judged by the
 * bit error rate over the frames they share. An exhaustive scan of every offset, query length x reference length
 * popcounts (80 x 4 850 for a 10-second excerpt against 10 minutes, a few ms), so no offset is missed the way a
 * search seeded by exact hash hits can miss one when few values survive a re-encode intact.
 */

/**
 * Bit error rate at or under which an alignment of at least 40 frames (~5 s) counts as the same recording
 * (bench/audio-fingerprint-recall.mjs: true pairs, including 10-s excerpts re-encoded as MP3 64k, stayed <= 8 %;
 * the best alignment of any query against unrelated audio stayed >= 30 %).
 */
export const CHROMAPRINT_MATCH_MAX_BER = 0.2;

export interface Alignment {
  /** Frame of the reference where the query's first frame falls (negative: the query starts before it). */
  offset: number;
  /** Frames compared (the query frames that fall inside the reference). */
  overlap: number;
  /** Differing bits / (32 x overlap), 0..1; unrelated audio gives about 0.5. */
  bitErrorRate: number;
  /** Frames whose 32-bit values are exactly equal at this alignment. */
  equalFrames: number;
}

export interface AlignOptions {
  /**
   * Fewest frames the two must share for an offset to count (default: the query's length, capped at 40 frames,
   * ~5 s; at least 1). A shorter overlap lets the query hang over either end of the reference.
   */
  minOverlap?: number;
  /** Best alignments with a higher bit error rate are reported as no match (null). Default 1: always report. */
  maxBitErrorRate?: number;
  /** Only offsets in [minOffset, maxOffset] are tried (defaults: every offset giving `minOverlap`). */
  minOffset?: number;
  maxOffset?: number;
}

/** Largest reference (or query) scanned, in frames: 2^22 (~6 days of audio); longer inputs give null. */
const MAX_FRAMES = 1 << 22;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The offset of `query` inside `reference` with the lowest bit error rate over at least `minOverlap` shared
 * frames (ties: the larger overlap, then the smaller offset), or null when no offset qualifies, an input is empty
 * or too long, or the best rate exceeds `maxBitErrorRate`. Never throws.
 */
export function alignFingerprints(
  query: Uint32Array | ArrayLike<number>,
  reference: Uint32Array | ArrayLike<number>,
  options: AlignOptions = {},
): Alignment | null {
  const q = query?.length ?? 0;
  const r = reference?.length ?? 0;
  if (!Number.isSafeInteger(q) || !Number.isSafeInteger(r) || q === 0 || r === 0 || q > MAX_FRAMES || r > MAX_FRAMES) return null;
  const asU32 = (a: Uint32Array | ArrayLike<number>) => (a instanceof Uint32Array ? a : Uint32Array.from(a as ArrayLike<number>));
  const qa = asU32(query);
  const ra = asU32(reference);
  const want = options.minOverlap ?? Math.min(q, 40);
  const minOverlap = Number.isFinite(want) ? Math.max(1, Math.min(Math.floor(want), q, r)) : Math.min(q, r, 40);
  const maxBer = typeof options.maxBitErrorRate === "number" && !Number.isNaN(options.maxBitErrorRate) ? options.maxBitErrorRate : 1;
  // Offsets where the overlap [max(0, o), min(r, o + q)) has at least minOverlap frames.
  let lo = minOverlap - q;
  let hi = r - minOverlap;
  if (Number.isFinite(options.minOffset)) lo = Math.max(lo, Math.ceil(options.minOffset!));
  if (Number.isFinite(options.maxOffset)) hi = Math.min(hi, Math.floor(options.maxOffset!));
  let best: Alignment | null = null;
  let bestErrors = 0;
  for (let o = lo; o <= hi; o++) {
    const from = Math.max(0, -o);
    const to = Math.min(q, r - o);
    const overlap = to - from;
    if (overlap < minOverlap) continue;
    let errors = 0;
    for (let i = from; i < to; i++) errors += popcount(qa[i]! ^ ra[i + o]!);
    // Compare rates without dividing: errors/overlap < bestErrors/bestOverlap.
    if (best) {
      const lhs = errors * best.overlap;
      const rhs = bestErrors * overlap;
      if (lhs > rhs || (lhs === rhs && overlap <= best.overlap)) continue;
    }
    best = { offset: o, overlap, bitErrorRate: errors / (32 * overlap), equalFrames: 0 };
    bestErrors = errors;
  }
  if (!best || best.bitErrorRate > maxBer) return null;
  let equal = 0;
  for (let i = Math.max(0, -best.offset); i < Math.min(q, r - best.offset); i++) if (qa[i] === ra[i + best.offset]) equal++;
  best.equalFrames = equal;
  return best;
}
