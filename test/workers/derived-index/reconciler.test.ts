import { describe, expect, it } from "vitest";
import { reconcileDerivedIndex } from "../../../src/derived-index/service";
import { newId } from "../../../src/platform/ids";
import { api, json, testEnv } from "../support/helpers";
import {
  chromaprintBinding,
  indexStatements,
  pdqBinding,
  type SeededBinding,
  seedPublication,
  watermarkBinding,
} from "../support/index-seed";

/**
 * A published asset with a watermark and a PDQ binding and its 16 bands (and `more` bindings with their index rows),
 * as the publication batch writes them.
 */
async function seedIndexed(tenantId: string, more: SeededBinding[] = []) {
  const assetId = newId("asset");
  const publicationId = `pub_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const now = Date.now();
  const pdq = crypto.getRandomValues(new Uint8Array(32));
  await seedPublication(
    testEnv.DB,
    { publicationId, assetId, tenantId, manifestLabel: null, assetCreatedAt: now, createdAt: now, jobId: newId("job") },
    [pdqBinding(pdq), watermarkBinding("trustmark", "ab"), ...more],
  );
  return { assetId, publicationId };
}

async function indexRows(publicationId: string) {
  const db = testEnv.DB;
  const [bindings, bands] = await db.batch<{ n: number }>([
    db.prepare("SELECT COUNT(*) AS n FROM soft_bindings WHERE publication_id = ?").bind(publicationId),
    db.prepare("SELECT COUNT(*) AS n FROM pdq_bands WHERE publication_id = ?").bind(publicationId),
  ]);
  return { bindings: bindings!.results[0]!.n, bands: bands!.results[0]!.n };
}

describe("derived-index reconciler", () => {
  it("one run removes the index entries of an asset removed by hand, keeps the others, and readiness flips", async () => {
    const before = await api("/readyz/governance");
    expect(before.status).toBe(503);
    expect(await json(before)).toEqual({
      capture_authority: true,
      commercial_authority: true,
      derived_index_reconciler: false,
      status: "not_ready",
    });

    const tenantId = newId("tenant");
    const kept = await seedIndexed(tenantId);
    const orphan = await seedIndexed(tenantId);
    await testEnv.DB.prepare("DELETE FROM assets WHERE id = ?").bind(orphan.assetId).run();

    const report = await reconcileDerivedIndex(testEnv);
    expect(report).toEqual({ scanned: 6, bindingsRemoved: 2, bandsRemoved: 16, passCompleted: true });
    expect(await indexRows(orphan.publicationId)).toEqual({ bindings: 0, bands: 0 });
    expect(await indexRows(kept.publicationId)).toEqual({ bindings: 2, bands: 16 });

    const run = await testEnv.DB.prepare("SELECT * FROM derived_index_runs WHERE name = 'soft_bindings'").first<Record<string, number>>();
    expect(run).toMatchObject({ last_bindings_removed: 2, last_bands_removed: 16, total_removed: 18, passes_completed: 1 });
    expect(run!.last_succeeded_at).toBeGreaterThanOrEqual(run!.last_started_at!);

    const after = await api("/readyz/governance");
    expect(after.status).toBe(200);
    expect(await json(after)).toEqual({
      capture_authority: true,
      commercial_authority: true,
      derived_index_reconciler: true,
      status: "ready",
    });

    // A second run finds nothing more to do (idempotent).
    expect(await reconcileDerivedIndex(testEnv)).toMatchObject({ bindingsRemoved: 0, bandsRemoved: 0 });

    // A last success older than the bound (15 minutes) no longer counts.
    await testEnv.DB.prepare("UPDATE derived_index_runs SET last_succeeded_at = ?")
      .bind(Date.now() - 16 * 60_000)
      .run();
    const stale = await api("/readyz/governance");
    expect(stale.status).toBe(503);
    expect((await json(stale)).derived_index_reconciler).toBe(false);
  });

  it("a publication moved to another asset or tenant counts as orphaned; bands without a pdq binding go too", async () => {
    const tenantId = newId("tenant");
    const moved = await seedIndexed(tenantId);
    await testEnv.DB.prepare("UPDATE assets SET tenant_id = ? WHERE id = ?").bind(newId("tenant"), moved.assetId).run();
    const stray = `pub_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    // Bands of a hash whose pdq binding was never written (the batch writes both or neither).
    await testEnv.DB.batch(indexStatements(testEnv.DB, stray, [pdqBinding(crypto.getRandomValues(new Uint8Array(32)))]));
    await reconcileDerivedIndex(testEnv);
    expect(await indexRows(moved.publicationId)).toEqual({ bindings: 0, bands: 0 });
    expect(await indexRows(stray)).toEqual({ bindings: 0, bands: 0 });
  });

  it("#20: the Chromaprint frames of an orphaned chromaprint binding go with it", async () => {
    const tenantId = newId("tenant");
    const chromaprint = chromaprintBinding(Uint32Array.of(1, 2));
    const kept = await seedIndexed(tenantId, [chromaprint]);
    const orphan = await seedIndexed(tenantId, [chromaprint]);
    const db = testEnv.DB;
    await db.prepare("DELETE FROM assets WHERE id = ?").bind(orphan.assetId).run();
    await reconcileDerivedIndex(testEnv);
    const frames = async (p: string) =>
      (await db.prepare("SELECT COUNT(*) AS n FROM chromaprint_frames WHERE publication_id = ?").bind(p).first<{ n: number }>())!.n;
    expect(await frames(orphan.publicationId)).toBe(0);
    expect(await frames(kept.publicationId)).toBe(2);
  });

  it("each run is bounded: a small limit takes several runs, resuming from its cursors, and then wraps", async () => {
    await testEnv.DB.batch([
      testEnv.DB.prepare("DELETE FROM soft_bindings"),
      testEnv.DB.prepare("DELETE FROM pdq_bands"),
      testEnv.DB.prepare("DELETE FROM chromaprint_frames"),
    ]);
    await testEnv.DB.prepare("DELETE FROM derived_index_runs").run();
    const tenantId = newId("tenant");
    const orphans = [];
    for (let i = 0; i < 3; i++) orphans.push(await seedIndexed(tenantId));
    for (const o of orphans) await testEnv.DB.prepare("DELETE FROM assets WHERE id = ?").bind(o.assetId).run();
    // 6 bindings and 3 publications of bands; 2 rows of each per run.
    const reports = [];
    for (let i = 0; i < 4; i++) reports.push(await reconcileDerivedIndex(testEnv, Date.now(), 2));
    expect(reports.map((r) => r.bindingsRemoved)).toEqual([2, 2, 2, 0]);
    expect(reports.reduce((n, r) => n + r.bandsRemoved, 0)).toBe(48);
    expect(reports.some((r) => r.passCompleted)).toBe(true);
    for (const o of orphans) expect(await indexRows(o.publicationId)).toEqual({ bindings: 0, bands: 0 });
  });
});
