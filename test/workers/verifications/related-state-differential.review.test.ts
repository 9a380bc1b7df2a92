import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexMatches } from "../../../src/soft-bindings/repo";
import { exactPublicationsStateStatement, publishedAtOf } from "../../../src/verifications/repo";

/*
 * Review of ddd7159: the related publications' state read in the index lookup's batch (exactPublicationsStateStatement)
 * against the read after the verdict (publishedAtOf), on the same database states. For every publication the exact
 * lookups return, the batch's state must answer for it (it was considered) and say what publishedAtOf says: present
 * or not, and the same time. States: published (with a time, without one), withdrawn, retention expired, processing,
 * an asset row deleted under its binding, and two asset rows sharing a publication id (one published, one not); ties
 * on created_at; lookups of limit 1, 2 and 10; several lookups in one batch (the same publication found twice);
 * publications of other tenants (the read is tenant-less in both).
 */

const db = (env as unknown as { DB: D1Database }).DB;

const STATES = ["published", "published-null-time", "withdrawn", "retention_expired", "processing", "asset-deleted", "twin"] as const;

/** A small deterministic generator (tests must not depend on Math.random's sequence). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function seed(run: string, bits: string[], random: () => number): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  let n = 0;
  for (const b of bits) {
    const count = 1 + Math.floor(random() * 6);
    for (let i = 0; i < count; i++) {
      n++;
      const pub = `pub_df${run}${n}`;
      const asset = `ast_df${run}${n}`;
      const tenant = random() < 0.5 ? "ten_diffa000000000" : "ten_diffb000000000";
      const state = STATES[Math.floor(random() * STATES.length)]!;
      const status = state.startsWith("published") || state === "asset-deleted" ? "published" : state === "twin" ? "published" : state;
      const at = state === "published-null-time" ? null : 1700000000000 + n;
      const algorithm = random() < 0.5 ? "iscc-image" : "svc-image-watermark";
      statements.push(
        db
          .prepare(
            "INSERT INTO assets (id, tenant_id, kind, status, publication_id, manifest_label, published_at, created_at, updated_at) VALUES (?, ?, 'image', ?, ?, ?, ?, 0, 0)",
          )
          .bind(asset, tenant, status, pub, `urn:c2pa:${pub}`, at),
        db
          .prepare(
            "INSERT INTO soft_bindings (publication_id, algorithm, tenant_id, asset_id, job_id, kind, value, bits, created_at) VALUES (?, ?, ?, ?, 'job_x', 'fingerprint', ?, ?, ?)",
          )
          // Ties on created_at are frequent: the order then falls back to the publication id.
          .bind(pub, algorithm, tenant, asset, b, b, Math.floor(random() * 3)),
      );
      if (state === "asset-deleted") statements.push(db.prepare("DELETE FROM assets WHERE id = ?").bind(asset));
      if (state === "twin")
        statements.push(
          db
            .prepare(
              "INSERT INTO assets (id, tenant_id, kind, status, publication_id, manifest_label, published_at, created_at, updated_at) VALUES (?, ?, 'image', 'withdrawn', ?, ?, ?, 0, 0)",
            )
            .bind(`${asset}t`, tenant, pub, `urn:c2pa:${pub}`, 1600000000000),
        );
    }
  }
  await db.batch(statements);
}

describe("review ddd7159: the state in the lookup's batch against the read after the verdict", () => {
  it("answers for every publication the exact lookups return, as publishedAtOf does, on many database states", async () => {
    let compared = 0;
    for (let round = 0; round < 24; round++) {
      const random = rng(round + 1);
      const run = `${round}x${crypto.randomUUID().slice(0, 6)}`;
      const bits = Array.from({ length: 3 }, (_, i) => `${run}b${i}`.padEnd(32, "0"));
      await seed(run, bits, random);
      const exact = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        algorithm: random() < 0.5 ? "iscc-image" : "svc-image-watermark",
        bitsHex: bits[Math.floor(random() * bits.length)]!,
        limit: [1, 2, 10][Math.floor(random() * 3)]!,
      }));
      const state = exactPublicationsStateStatement(db, exact)!;
      const found = await indexMatches(db, { exact, also: [state.statement] });
      const known = state.read(found.also[0]);
      const ids = [...new Set(found.exact.flat().map((r) => r.publication_id))];
      if (ids.length === 0) continue;
      const after = await publishedAtOf(db, ids);
      for (const id of ids) {
        expect(known.considered.has(id), `round ${round}: ${id} considered`).toBe(true);
        expect(known.publishedAt.has(id), `round ${round}: ${id} published`).toBe(after.has(id));
        expect(known.publishedAt.get(id), `round ${round}: ${id} time`).toBe(after.get(id));
        compared++;
      }
      // Nothing it answers for is outside what the lookups returned (no other publication's state rides along).
      for (const id of known.considered) expect(ids, `round ${round}: ${id} was looked up`).toContain(id);
    }
    expect(compared).toBeGreaterThan(30);
  }, 240_000);
});
