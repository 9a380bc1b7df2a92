import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { nextStartAfter, ORPHAN_GRACE_MS, ORPHAN_RECONCILER, sweepJobOrphans } from "../../../src/jobs/orphans";
import { JOB_LEASE_MS } from "../../../src/jobs/policy";
import { releaseStrandedClaims } from "../../../src/jobs/repo";
import { requeueStaleJobs } from "../../../src/jobs/sweep";
import { faultyEnv } from "../support/faults";
import { api, json, testEnv } from "../support/helpers";
import { admitted, firstDelivery, jobObjects, preparedAsset, runUnderFault, SIGN_ONLY, WATERMARK_THEN_SIGN } from "./faults-jobs.support";

/*
 * #22: the job-objects reconciler (src/jobs/orphans.ts). Bytes under a job's prefix that no record names, of a job
 * that ended, older than twice the job lease, are removed; everything else stays: named objects, fresh writes, an
 * open job's writes, every key outside the jobs' prefixes, and keys that do not follow the layout.
 */

const later = () => Date.now() + ORPHAN_GRACE_MS + 1;

/** Sweeps until a full pass over the bucket ends (the bucket holds other files' objects too). Returns the runs it took. */
async function sweepPass(now: number, bounds: { pageSize?: number; pages?: number } = {}): Promise<number> {
  for (let runs = 1; runs <= 500; runs++) if ((await sweepJobOrphans(testEnv, now, bounds)).passCompleted) return runs;
  throw new Error("no full pass in 500 runs");
}

const exists = async (key: string) => (await testEnv.OBJECTS.head(key)) !== null;

describe("the job-objects reconciler", () => {
  it("removes an ended job's unnamed object once older than the grace; keeps named, fresh, open-job and non-job keys", async () => {
    const { tenant, assetId } = await preparedAsset(SIGN_ONLY);
    const done = await admitted(SIGN_ONLY, tenant, assetId);
    await firstDelivery(testEnv, SIGN_ONLY, tenant, assetId, done);
    const named = (await jobObjects(tenant.tenantId)).map((o) => o.key);
    expect(named.length).toBe(2); // the signed output (objects) and the manifest store (the sign step's record)
    const other = await preparedAsset(SIGN_ONLY);
    const open = await admitted(SIGN_ONLY, other.tenant, other.assetId); // accepted, not run yet
    const t = tenant.tenantId;
    const orphan = `t/${t}/jobs/${done}/watermark/output`;
    const gone = `t/${t}/jobs/job_absent0000000000/sign/output`;
    const openJobs = `t/${other.tenant.tenantId}/jobs/${open}/sign/output`;
    const kept = [
      `t/${t}/previews/pub_x/512.jpg`,
      `t/${t}/exports/exp_x/part-1`,
      `t/${t}/jobs//x`,
      `t/${t}/jobs/${done}`,
      `t//jobs/a/b`,
      openJobs,
    ];
    for (const key of [orphan, gone, ...kept]) await testEnv.OBJECTS.put(key, "x");

    await sweepPass(Date.now()); // all fresh: nothing of ours goes
    for (const key of [orphan, gone, ...kept, ...named]) expect(await exists(key), key).toBe(true);

    await sweepPass(later());
    expect(await exists(orphan)).toBe(false);
    expect(await exists(gone)).toBe(false);
    for (const key of [...kept, ...named]) expect(await exists(key), key).toBe(true);
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }));
    expect(asset.status).toBe("published");
  });

  it("a crash after the watermark's R2 put, then a cancellation: the intermediate is an orphan, and is removed", async () => {
    const { tenant, assetId } = await preparedAsset(WATERMARK_THEN_SIGN);
    const jobId = await admitted(WATERMARK_THEN_SIGN, tenant, assetId);
    // The run's R2 calls: the upload's read (1), the watermarked intermediate's put (2).
    const faulty = faultyEnv(testEnv, { at: 2, mode: "crash-after", kinds: ["r2"] });
    await firstDelivery(faulty.env, WATERMARK_THEN_SIGN, tenant, assetId, jobId);
    expect(faulty.faulted?.detail).toMatch(/\/watermark\/output$/);
    const cancel = await api(`/v1/jobs/${jobId}/cancel`, {
      method: "POST",
      key: tenant.key,
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect((await json(cancel)).state).toBe("cancel_requested");
    // The dead runner's lease lapses; the jobs sweep finishes the cancellation.
    await testEnv.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, jobId)
      .run();
    expect((await requeueStaleJobs(testEnv, Date.now())).canceled).toBe(1);
    const [left] = await jobObjects(tenant.tenantId);
    expect(left?.key).toMatch(/\/watermark\/output$/); // written, named by no record, its job ended

    await sweepPass(later());
    expect(await jobObjects(tenant.tenantId)).toEqual([]);
  });

  it("a crash after the signed output's put, the redelivery, then the sweep: exactly the named objects remain", async () => {
    // The watermark-then-sign run's R2 calls: upload read, watermark put, manifest put, signed output put (4).
    const { faulted, recovery } = await runUnderFault(WATERMARK_THEN_SIGN, { at: 4, mode: "crash-after", kinds: ["r2"] });
    expect(faulted?.detail).toMatch(/\/sign\/output$/);
    const tenantId = /^t\/([^/]+)\//.exec(faulted!.detail)![1]!;
    const before = (await jobObjects(tenantId)).map((o) => `${o.key} ${o.etag}`);
    expect(before.length).toBe(3); // the watermarked intermediate, the manifest store, the signed output
    await sweepPass(later());
    expect((await jobObjects(tenantId)).map((o) => `${o.key} ${o.etag}`)).toEqual(before);
    expect(recovery.heldByDeadLease).toBe(true);
  });

  it("works in bounded pages from a kept cursor, and each key is judged once per pass", async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `t/ten_paging${i % 2}/jobs/job_gone${i}/sign/output`);
    for (const key of keys) await testEnv.OBJECTS.put(key, "x");
    await sweepPass(Date.now()); // start the next pass from the beginning
    const first = await sweepJobOrphans(testEnv, later(), { pageSize: 2, pages: 1 });
    expect(first.listed).toBeLessThanOrEqual(2);
    const cursor = await testEnv.DB.prepare("SELECT bindings_cursor FROM derived_index_runs WHERE name = ?")
      .bind(ORPHAN_RECONCILER)
      .first<{ bindings_cursor: string }>();
    expect(cursor?.bindings_cursor).not.toBe("");
    const runs = await sweepPass(later(), { pageSize: 2, pages: 1 });
    expect(runs).toBeGreaterThan(1);
    for (const key of keys) expect(await exists(key), key).toBe(false);
  });

  it("skips a tenant's other prefixes between pages", () => {
    expect(nextStartAfter("t/ten_a/exports/x/1")).toBe("t/ten_a/jobs/");
    expect(nextStartAfter("t/ten_a/jobs/job_1/sign/output")).toBe("t/ten_a/jobs/job_1/sign/output");
    const past = nextStartAfter("t/ten_a/o/aob_1");
    expect(past > "t/ten_a/previews/pub/512.jpg").toBe(true);
    expect(past < "t/ten_ab/jobs/job_1/sign/output").toBe(true);
    expect(nextStartAfter("other")).toBe("other");
  });
});

describe("the jobs sweep's stranded claims", () => {
  it("frees only an asset claimed long ago that no open job holds", async () => {
    const db = database(testEnv.DB);
    const held = await preparedAsset(SIGN_ONLY);
    await admitted(SIGN_ONLY, held.tenant, held.assetId); // processing, its job accepted
    const stranded = await preparedAsset(SIGN_ONLY);
    await testEnv.DB.prepare("UPDATE assets SET status = 'processing', updated_at = ? WHERE id = ?")
      .bind(Date.now(), stranded.assetId)
      .run();
    expect(await releaseStrandedClaims(db, Date.now() - JOB_LEASE_MS, Date.now())).toBe(0); // too fresh
    expect(await releaseStrandedClaims(db, Date.now() + 1, Date.now())).toBe(1);
    const status = (id: string) => testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(id).first<{ status: string }>();
    expect((await status(stranded.assetId))?.status).toBe("uploaded");
    expect((await status(held.assetId))?.status).toBe("processing");
  });
});
