import { fromHex } from "../platform/encoding";
/*
 * Lookups in the soft-binding index (tables `soft_bindings` and `pdq_bands`, written by the publication batch).
 * Global by policy: a published asset's provenance is public, so any verifier may recover it; matches name the
 * publication and its manifest, never the owning tenant.
 */

/** PDQ matches count up to this Hamming distance (ThreatExchange's recommended threshold for 256-bit PDQ). */
export const PDQ_MATCH_DISTANCE = 31;
/** Below this PDQ quality a hash says little about the image (upstream advice): it is neither indexed nor looked up. */
export const PDQ_MIN_QUALITY = 50;
const BANDS = 16;

export interface IndexedMatch {
  publication_id: string;
  algorithm: string;
  manifest_label: string | null;
  distance: number;
}

/** The 16 band values (16-bit integers) of a 32-byte PDQ hash. */
export function pdqBandValues(bits: Uint8Array): number[] {
  return Array.from({ length: BANDS }, (_, b) => (bits[2 * b]! << 8) | bits[2 * b + 1]!);
}

/** The statements that index a publication's PDQ hash (run inside the publication batch, under its guard). */
export function pdqBandStatements(d1: D1Database, publicationId: string, bits: Uint8Array, guard: { sql: string; binds: unknown[] }): D1PreparedStatement[] {
  return pdqBandValues(bits).map((value, band) =>
    d1.prepare(`INSERT INTO pdq_bands (publication_id, band, value) SELECT ?, ?, ? WHERE ${guard.sql}`).bind(publicationId, band, value, ...guard.binds),
  );
}

function popcount8(x: number): number {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
}

function hamming(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += popcount8(a[i]! ^ b[i]!);
  return d;
}


/** An exact lookup (watermark payloads, ISCC codes): the earliest publication registered under the value. */
export async function exactMatch(db: D1Database, algorithm: string, bitsHex: string): Promise<IndexedMatch | null> {
  const row = await db
    .prepare(
      `SELECT sb.publication_id, sb.algorithm, a.manifest_label
         FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id
        WHERE sb.algorithm = ? AND sb.bits = ? ORDER BY sb.created_at ASC LIMIT 1`,
    )
    .bind(algorithm, bitsHex)
    .first<{ publication_id: string; algorithm: string; manifest_label: string | null }>();
  return row ? { ...row, distance: 0 } : null;
}

/**
 * The nearest published PDQ hash within PDQ_MATCH_DISTANCE, by multi-index hashing: one batch of 16 indexed
 * probes (each band's value and its 16 one-bit neighbours), then exact distances over the candidates only.
 */
export async function nearestPdq(db: D1Database, bits: Uint8Array): Promise<IndexedMatch | null> {
  const probes = pdqBandValues(bits).map((value, band) => {
    const values = [value, ...Array.from({ length: 16 }, (_, k) => value ^ (1 << k))];
    return db.prepare(`SELECT DISTINCT publication_id FROM pdq_bands WHERE band = ? AND value IN (${values.map(() => "?").join(",")})`).bind(band, ...values);
  });
  const results = await db.batch<{ publication_id: string }>(probes);
  const candidates = [...new Set(results.flatMap((r) => r.results.map((x) => x.publication_id)))];
  let best: IndexedMatch | null = null;
  // Candidates are few by construction; fetch their full hashes in chunks within D1's bound-parameter limit.
  for (let i = 0; i < candidates.length; i += 90) {
    const chunk = candidates.slice(i, i + 90);
    const rows = await db
      .prepare(
        `SELECT sb.publication_id, sb.bits, a.manifest_label FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id
          WHERE sb.algorithm = 'pdq' AND sb.publication_id IN (${chunk.map(() => "?").join(",")})`,
      )
      .bind(...chunk)
      .all<{ publication_id: string; bits: string; manifest_label: string | null }>();
    for (const row of rows.results) {
      const distance = hamming(bits, fromHex(row.bits));
      if (distance <= PDQ_MATCH_DISTANCE && (!best || distance < best.distance)) {
        best = { publication_id: row.publication_id, algorithm: "pdq", manifest_label: row.manifest_label, distance };
      }
    }
  }
  return best;
}
