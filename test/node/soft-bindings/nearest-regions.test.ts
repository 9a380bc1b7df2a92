import { describe, expect, it } from "vitest";
import {
  MAX_QUERY_WINDOWS,
  nearestRegions,
  PDQ_REGION_MATCH_DISTANCE,
  type PdqQuery,
  type RegionMatch,
} from "../../../src/soft-bindings/repo";
import { prng } from "../../support/prng";

/*
 * #19: nearestRegions compares a window row with the query's hashes as 8 words of 32 bits (popcount), stopping a
 * hash once past the nearest so far. Its answers must be exactly those of the byte-by-byte definition it replaced
 * (kept here as the reference) for every input: random, near, tied, repeated and malformed rows and queries.
 */

/** The implementation before #19's round 12, verbatim in behaviour. */
function reference(query: PdqQuery & { windows?: readonly Uint8Array[] }, rows: Record<string, unknown>[]): RegionMatch[] {
  const popcount8 = (x: number) => {
    let n = 0;
    for (let v = x; v; v &= v - 1) n++;
    return n;
  };
  const hamming = (a: Uint8Array, b: Uint8Array) => {
    let d = 0;
    for (let i = 0; i < a.length; i++) d += popcount8(a[i]! ^ b[i]!);
    return d;
  };
  const regionBits = (row: Record<string, unknown>) => {
    const bits = new Uint8Array(32);
    for (let b = 0; b < 16; b++) {
      const v = Number(row[`b${b}`]);
      bits[2 * b] = (v >> 8) & 0xff;
      bits[2 * b + 1] = v & 0xff;
    }
    return bits;
  };
  const boundedLimit = (limit: number) => Math.max(1, Math.min(100, Math.floor(limit)));
  const maxDistance = Math.min(query.maxDistance ?? PDQ_REGION_MATCH_DISTANCE, PDQ_REGION_MATCH_DISTANCE);
  const hashes = [query.bits, ...(query.windows ?? []).slice(0, MAX_QUERY_WINDOWS)];
  const best = new Map<string, RegionMatch & { created_at: number }>();
  for (const row of rows) {
    const bits = regionBits(row);
    let distance = 256;
    for (const h of hashes) distance = Math.min(distance, hamming(h, bits));
    if (distance > maxDistance) continue;
    const id = String(row.publication_id);
    const region = Number(row.region);
    const seen = best.get(id);
    if (seen && (seen.distance < distance || (seen.distance === distance && seen.region < region))) continue;
    best.set(id, {
      publication_id: id,
      algorithm: "pdq",
      manifest_label: (row.manifest_label as string | null) ?? null,
      distance,
      region,
      created_at: Number(row.created_at),
    });
  }
  return [...best.values()]
    .sort((a, b) => a.distance - b.distance || a.created_at - b.created_at || (a.publication_id < b.publication_id ? -1 : 1))
    .slice(0, boundedLimit(query.limit))
    .map(({ created_at: _, ...match }) => match);
}

describe("nearestRegions: word popcount equals the byte-by-byte definition", () => {
  it("on random, near, tied and repeated rows, every limit and distance bound", () => {
    const r = prng(19);
    const int = (n: number) => Math.floor(r() * n);
    const hash = () => Uint8Array.from({ length: 32 }, () => int(256));
    const flip = (h: Uint8Array, k: number) => {
      const out = h.slice();
      for (let i = 0; i < k; i++) {
        const p = int(256);
        out[p >> 3] = out[p >> 3]! ^ (1 << (p & 7));
      }
      return out;
    };
    const bandsOf = (h: Uint8Array) =>
      Object.fromEntries(Array.from({ length: 16 }, (_, b) => [`b${b}`, (h[2 * b]! << 8) | h[2 * b + 1]!]));
    let nonEmpty = 0;
    for (let c = 0; c < 400; c++) {
      const bits = hash();
      const windows = Array.from({ length: int(MAX_QUERY_WINDOWS + 6) }, hash);
      const near = [bits, ...windows];
      const pubs = Array.from({ length: 1 + int(40) }, (_, i) => `pub_${String(int(1000)).padStart(4, "0")}${i % 3}`);
      const rows = Array.from({ length: int(600) }, () => {
        const source = near[int(near.length)]!;
        const h = r() < 0.7 ? flip(source, int(48)) : hash();
        return {
          publication_id: pubs[int(pubs.length)],
          region: int(30),
          ...bandsOf(h),
          manifest_label: r() < 0.2 ? null : `urn:c2pa:${int(50)}`,
          created_at: int(5), // many ties
        };
      });
      const query = {
        bits,
        windows,
        limit: [1, 3, 10, 100, 250, 0, -4, 2.5][int(8)]!,
        ...(r() < 0.5 ? {} : { maxDistance: [0, 5, 15, 31, 40, 256, -1][int(7)]! }),
      };
      const expected = reference(query, rows);
      if (expected.length > 0) nonEmpty++;
      expect(nearestRegions(query, rows)).toEqual(expected);
    }
    expect(nonEmpty).toBeGreaterThan(200);
  });

  it("on malformed rows and query hashes of other lengths", () => {
    const r = prng(1912);
    const int = (n: number) => Math.floor(r() * n);
    const odd = [
      null,
      undefined,
      -1,
      -65536,
      65535,
      65536,
      70000,
      2 ** 31,
      2 ** 32 + 5,
      -(2 ** 40),
      1e21,
      0.5,
      1234.9,
      "4660",
      "x",
      Number.NaN,
      true,
      "",
    ];
    for (let c = 0; c < 300; c++) {
      const length = [32, 32, 32, 16, 31, 33, 40, 0][int(8)]!;
      const bits = Uint8Array.from({ length }, () => int(256));
      const windows = Array.from({ length: int(5) }, () => Uint8Array.from({ length: [32, 32, 8][int(3)]! }, () => int(256)));
      const rows = Array.from({ length: 1 + int(80) }, () => {
        const row: Record<string, unknown> = { publication_id: r() < 0.1 ? int(3) : `pub_${int(6)}`, region: r() < 0.1 ? "7" : int(30) };
        for (let b = 0; b < 16; b++) row[`b${b}`] = r() < 0.3 ? odd[int(odd.length)] : ((bits[2 * b] ?? 0) << 8) | (bits[2 * b + 1] ?? 0);
        if (r() < 0.5) row.manifest_label = "urn:c2pa:x";
        row.created_at = r() < 0.1 ? "12" : int(4);
        return row;
      });
      const query = { bits, windows, limit: 10, maxDistance: [31, 60, 256][int(3)]! };
      expect(nearestRegions(query, rows)).toEqual(reference(query, rows));
    }
  });
});
