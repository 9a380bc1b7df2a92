import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { runJobForAnswer } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { pdqBandValues } from "../../../src/soft-bindings/repo";
import { testEnv } from "../support/helpers";
import { admittedExpress } from "../support/jobs.helpers";
import { hookedEnv } from "../support/webhooks.helpers";

/*
 * #19: what an express run asks of D1 does not grow with the tenant. The objects its publication batch reads back
 * for the answer (the published output and sidecar) are found by primary key: the earlier `id IN (… UNION ALL …)`
 * was planned as a walk of every object of the tenant (its tenant index) filtered by the list. And the 16 PDQ band
 * rows are written by one statement, not one each, and so are the soft bindings. The plans are read from the database itself (EXPLAIN QUERY PLAN)
 * for the SQL the run actually sent.
 */

/** The plan of `sql`, with every parameter bound to NULL (the plan does not depend on the values). */
async function planOf(sql: string): Promise<string[]> {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  const rows = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

describe("express run: statements that stay small (#19)", () => {
  it("reads the published objects by primary key and writes the PDQ bands in one statement", async () => {
    const { tenant, job } = await admittedExpress();
    const batches: string[][] = [];
    const env = hookedEnv({
      batch: (sqls, send) => {
        batches.push(sqls);
        return send();
      },
    }) as Bindings;
    const background: Promise<unknown>[] = [];
    const view = await runJobForAnswer(
      env,
      { ...(await mediaServices(testEnv)), background: (work) => background.push(work.catch(() => undefined)) },
      tenant.tenantId,
      job.id,
      job,
    );
    await Promise.all(background);
    expect(view?.job.state).toBe("completed");
    expect(view?.output?.role).toBeDefined();

    const sqls = [...new Set(batches.flat())];
    const objectReads = sqls.filter((q) => /^\s*SELECT\b[\s\S]*\bFROM\s+"?objects"?/i.test(q));
    expect(objectReads.length).toBeGreaterThan(0);
    for (const sql of objectReads) {
      const searches = (await planOf(sql)).filter((d) => /\bobjects\b/.test(d) && /SEARCH|SCAN/.test(d));
      expect(searches.length, sql).toBeGreaterThan(0);
      // by primary key, or by the tenant and asset (a handful of rows); never the tenant's objects, never a scan
      for (const d of searches)
        expect(d, sql).toMatch(
          /USING (COVERING )?INDEX (sqlite_autoindex_objects_1 \(id=\?\)|objects_tenant_asset_idx \(tenant_id=\? AND asset_id=\?\))/,
        );
    }

    const bandStatements = batches.flat().filter((q) => /INSERT INTO pdq_bands/.test(q));
    expect(bandStatements).toHaveLength(1);
    // the same 16 rows a statement each wrote: band b holds bytes 2b and 2b + 1 of the whole-image PDQ hash
    const pdq = await testEnv.DB.prepare("SELECT bits FROM soft_bindings WHERE publication_id = ? AND algorithm = 'pdq'")
      .bind(view!.job.publicationId)
      .first<{ bits: string }>();
    const bands = await testEnv.DB.prepare("SELECT band, value FROM pdq_bands WHERE publication_id = ? ORDER BY band")
      .bind(view!.job.publicationId)
      .all<{ band: number; value: number }>();
    const bits = Uint8Array.from(pdq!.bits.match(/../g)!, (h) => Number.parseInt(h, 16));
    expect(bands.results).toEqual(pdqBandValues(bits).map((value, band) => ({ band, value })));

    // the soft bindings (watermark payload, ISCC, PDQ) in one statement too, each row as its own statement wrote it
    expect(batches.flat().filter((q) => /INSERT INTO soft_bindings/.test(q))).toHaveLength(1);
    const rows = await testEnv.DB.prepare(
      "SELECT algorithm, kind, value, bits, tenant_id, asset_id, job_id FROM soft_bindings WHERE publication_id = ? ORDER BY algorithm",
    )
      .bind(view!.job.publicationId)
      .all<Record<string, string>>();
    expect(rows.results.map((r) => [r.algorithm, r.kind])).toEqual([
      ["iscc-image", "fingerprint"],
      ["pdq", "fingerprint"],
      ["svc-wm-tiledss-1", "watermark"],
    ]);
    for (const r of rows.results) {
      expect(r).toMatchObject({ tenant_id: tenant.tenantId, asset_id: view!.job.assetId, job_id: job.id });
      expect(typeof r.value === "string" && typeof r.bits === "string" && r.bits.length > 0).toBe(true);
    }
  });
});
