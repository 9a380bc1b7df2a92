import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { exactMatches, indexMatches, nearestPdqMatches } from "../../../src/soft-bindings/repo";
import { fingerprintBinding, pdqBinding, publicationIds, seedPublication, watermarkBinding } from "../support/index-seed";
import { recordingD1 } from "../support/observed-d1";

/*
 * #19: a verification's index lookups go to D1 in one round trip (indexMatches). Each answer must be exactly what
 * the lookup alone answers: same rows, same order, same limits and filters.
 */

const db = (env as unknown as { DB: D1Database }).DB;

async function publish(n: number, opts: { tenant: string; pdq: Uint8Array; iscc: string; wm: string; status?: string; createdAt: number }) {
  await seedPublication(db, { ...publicationIds("im", n), tenantId: opts.tenant, status: opts.status, createdAt: opts.createdAt }, [
    pdqBinding(opts.pdq),
    fingerprintBinding("iscc-image", opts.iscc),
    watermarkBinding("svc-wm-tiledss-1", opts.wm),
  ]);
}

/** Every PDQ hash within distance 31 by a full scan (what the band probes must find), nearest first. */
async function fullScan(bits: Uint8Array, filter: { tenantId?: string; resolvableOnly?: boolean }, limit: number) {
  const rows = await db
    .prepare(
      "SELECT sb.publication_id, sb.tenant_id, sb.bits, sb.created_at, a.manifest_label, a.status FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id WHERE sb.algorithm = 'pdq'",
    )
    .all<{ publication_id: string; tenant_id: string; bits: string; created_at: number; manifest_label: string; status: string }>();
  const distance = (h: string) => {
    let d = 0;
    for (let i = 0; i < 32; i++) {
      let x = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16) ^ bits[i]!;
      for (; x; x &= x - 1) d++;
    }
    return d;
  };
  return rows.results
    .filter((r) => (!filter.tenantId || r.tenant_id === filter.tenantId) && (!filter.resolvableOnly || r.status === "published"))
    .map((r) => ({ ...r, distance: distance(r.bits) }))
    .filter((r) => r.distance <= 31)
    .sort((a, b) => a.distance - b.distance || a.created_at - b.created_at || (a.publication_id < b.publication_id ? -1 : 1))
    .slice(0, limit)
    .map((r) => ({ publication_id: r.publication_id, algorithm: "pdq", manifest_label: r.manifest_label, distance: r.distance }));
}

describe("indexMatches: several lookups in one round trip", () => {
  it("answers each exact and the PDQ lookup exactly as the lookups alone, with filters and limits", async () => {
    const target = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);
    const near = (k: number) => {
      const out = target.slice();
      for (let b = 0; b < k; b++) out[(b * 5) % 32] = out[(b * 5) % 32]! ^ (1 << (b % 8));
      return out;
    };
    for (let i = 0; i < 24; i++) {
      await publish(i, {
        tenant: i % 2 ? "ten_imimimimimimimim" : "ten_otherotherother",
        pdq: i < 12 ? near(i) : crypto.getRandomValues(new Uint8Array(32)),
        iscc: i < 15 ? "00000000000000aa" : "00000000000000bb",
        wm: i === 3 ? "0102030405060708" : `ffffffffffff${String(i).padStart(4, "0")}`,
        status: i === 5 ? "expired" : "published",
        createdAt: 1000 - i * 10,
      });
    }
    for (const filter of [{}, { tenantId: "ten_imimimimimimimim" }, { resolvableOnly: true }]) {
      const exact = [
        { algorithm: "svc-wm-tiledss-1", bitsHex: "0102030405060708", limit: 1 },
        { algorithm: "iscc-image", bitsHex: "00000000000000aa", limit: 10 },
        { algorithm: "iscc-image", bitsHex: "00000000000000cc", limit: 10 },
      ];
      const together = await indexMatches(db, { exact, pdq: { bits: near(1), limit: 10 } }, filter);
      for (const [i, q] of exact.entries())
        expect(together.exact[i]).toEqual(await exactMatches(db, q.algorithm, q.bitsHex, { ...filter, limit: q.limit }));
      expect(together.pdq).toEqual(await nearestPdqMatches(db, near(1), { ...filter, limit: 10 }));
      expect(together.pdq).toEqual(await fullScan(near(1), filter, 10));
      expect(together.pdq.length).toBeGreaterThan(0);
    }
    const none = await indexMatches(db, { exact: [] });
    expect(none).toEqual({ exact: [], pdq: [], pdqRegions: [], video: [], chromaprint: [], also: [] });
  });
});

describe("indexMatches: the PDQ statement reads by its band probes", () => {
  const recording = () => recordingD1(db);

  it("probes pdq_bands and reads candidates by key, never every PDQ row of the index (any filter)", async () => {
    // Driven by the (algorithm, bits) or the (tenant, asset) index, the statement would test every PDQ row of the
    // index (or of the tenant) against the probes; driven by the probes, it reads only their candidates.
    for (let i = 100; i < 260; i++)
      await publish(i, {
        tenant: "ten_probeprobeprobe",
        pdq: crypto.getRandomValues(new Uint8Array(32)),
        iscc: `${String(i).padStart(16, "0")}`,
        wm: `eeeeeeeeeeee${String(i).padStart(4, "0")}`,
        createdAt: i,
      });
    const total = await db.prepare("SELECT COUNT(*) AS n FROM soft_bindings WHERE algorithm = 'pdq'").first<{ n: number }>();
    expect(total!.n).toBeGreaterThanOrEqual(160);
    const query = crypto.getRandomValues(new Uint8Array(32));
    for (const filter of [{}, { tenantId: "ten_probeprobeprobe" }, { tenantId: "ten_probeprobeprobe", resolvableOnly: true }]) {
      const { d1, statements } = recording();
      const found = await indexMatches(d1, { exact: [], pdq: { bits: query, limit: 10 } }, filter);
      expect(found.pdq).toEqual(await fullScan(query, filter, 10));
      const [statement] = statements;
      expect(statements).toHaveLength(1);
      const plan = await db
        .prepare(`EXPLAIN QUERY PLAN ${statement!.sql}`)
        .bind(...statement!.binds)
        .all<{ detail: string }>();
      const steps = plan.results.map((r) => r.detail);
      expect(steps.some((s) => /^SEARCH sb USING INDEX sqlite_autoindex_soft_bindings_1 \(publication_id=\?/.test(s))).toBe(true);
      // One text for every query (its values are bound), so a statement cache can reuse the prepared statement.
      const other = recording();
      await indexMatches(other.d1, { exact: [], pdq: { bits: crypto.getRandomValues(new Uint8Array(32)), limit: 10 } }, filter);
      expect(other.statements.map((st) => st.sql)).toEqual([statement!.sql]);
      // pdq_bands is aliased `pb` in the probes: a scan of it under either name is a read of the whole band table.
      expect(steps.filter((s) => /^SCAN (sb|a|pb|pdq_bands)\b/.test(s) || /soft_bindings_(lookup|tenant_asset)_idx/.test(s))).toEqual([]);
      expect(steps.filter((s) => /^SEARCH pb USING (COVERING )?INDEX pdq_bands_lookup_idx \(band=\? AND value=\?\)/.test(s))).toHaveLength(
        16,
      );
    }
  });
});
