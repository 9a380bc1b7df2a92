import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { releaseStrandedClaims } from "../../../src/jobs/repo";
import { STRANDED_CLAIM_MS } from "../../../src/jobs/sweep";
import { testEnv } from "../support/helpers";
import { admittedExpress } from "../support/jobs.helpers";

/*
 * Review of releaseStrandedClaims (#22): its LIMIT is taken over every old `processing` asset BEFORE the NOT EXISTS
 * (open job) filter applies, so when `limit` old assets are legitimately processing (jobs retried after a lapsed
 * lease, long video runs, a backlog), the stranded one is never in the slice and is never freed: asset_busy forever.
 */

async function columns(table: string): Promise<string[]> {
  const { results } = await testEnv.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** `n` copies of the asset and of its open job (ids suffixed), all claimed at `claimedAt`. */
async function cloneLegitimate(assetId: string, jobId: string, n: number, claimedAt: number) {
  const assetCols = await columns("assets");
  const jobCols = await columns("jobs");
  const rec = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
  const aSel = assetCols.map((c) => (c === "id" ? `id || '_' || n.i` : c === "updated_at" ? `${claimedAt}` : c)).join(", ");
  await testEnv.DB.prepare(`INSERT INTO assets (${assetCols.join(", ")}) ${rec} SELECT ${aSel} FROM assets, n WHERE id = ?`)
    .bind(assetId)
    .run();
  const jSel = jobCols
    .map((c) => (c === "id" ? `id || '_' || n.i` : c === "asset_id" ? `asset_id || '_' || n.i` : c.includes("idempotency") ? "NULL" : c))
    .join(", ");
  await testEnv.DB.prepare(`INSERT INTO jobs (${jobCols.join(", ")}) ${rec} SELECT ${jSel} FROM jobs, n WHERE id = ?`)
    .bind(jobId)
    .run();
}

describe("releaseStrandedClaims (#22 review)", () => {
  it("frees a stranded claim even when 100 older claims are legitimately processing", async () => {
    const now = Date.now();
    const legit = await admittedExpress(); // its job stays open (queued): a legitimate claim
    const stranded = await admittedExpress();
    // The stranded admission died between its claim and its job's insert: no job row.
    await testEnv.DB.prepare("DELETE FROM jobs WHERE id = ?").bind(stranded.job.id).run();
    // The legitimate claims are older than the stranded one (claimed first), all past the cutoff.
    await cloneLegitimate(legit.assetId, legit.job.id, 100, now - 3 * STRANDED_CLAIM_MS);
    await testEnv.DB.prepare("UPDATE assets SET updated_at = ? WHERE id IN (?, ?)")
      .bind(now - 2 * STRANDED_CLAIM_MS, legit.assetId, stranded.assetId)
      .run();

    const freed = await releaseStrandedClaims(database(testEnv.DB), now - STRANDED_CLAIM_MS, now);

    const row = await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(stranded.assetId).first<{ status: string }>();
    expect(row!.status).toBe("uploaded"); // fails: still `processing`
    expect(freed).toBe(1);
  });

  it("frees the stranded claim with a smaller limit when an older legitimate claim fills it", async () => {
    const now = Date.now();
    const legit = await admittedExpress();
    const stranded = await admittedExpress();
    await testEnv.DB.prepare("DELETE FROM jobs WHERE id = ?").bind(stranded.job.id).run();
    await testEnv.DB.prepare("UPDATE assets SET updated_at = ? WHERE id = ?")
      .bind(now - 3 * STRANDED_CLAIM_MS, legit.assetId)
      .run();
    await testEnv.DB.prepare("UPDATE assets SET updated_at = ? WHERE id = ?")
      .bind(now - 2 * STRANDED_CLAIM_MS, stranded.assetId)
      .run();

    expect(await releaseStrandedClaims(database(testEnv.DB), now - STRANDED_CLAIM_MS, now, 1)).toBe(1);
  });
});
