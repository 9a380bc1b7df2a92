import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { insertJob, isAssetBusy, type JobRow } from "../../../src/jobs/repo";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";

/*
 * #22: sign admission claims its asset inside the batch that writes the job, guarded by the claim's changes(). These
 * tests pin the D1 semantics that relies on (in workerd's D1, not a mock), the guard's effect on insertJob, and a
 * retry under the same Idempotency-Key converging on the job its earlier attempt admitted.
 */
const GUARD = "SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('svc: asset busy') END AS claimed";

describe("D1 batch semantics the claim relies on", () => {
  const table = `t_claim_${crypto.randomUUID().replaceAll("-", "")}`;
  const setup = async () => {
    await testEnv.DB.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, status TEXT NOT NULL)`);
    await testEnv.DB.batch([
      testEnv.DB.prepare(`INSERT INTO ${table} VALUES ('a', 'uploaded'), ('b', 'processing'), ('c', 'uploaded'), ('d', 'uploaded')`),
    ]);
  };
  const claim = (id: string) =>
    testEnv.DB.prepare(`UPDATE ${table} SET status = 'processing' WHERE id = ? AND status = 'uploaded'`).bind(id);
  const insert = (id: string) => testEnv.DB.prepare(`INSERT INTO ${table} VALUES (?, 'job')`).bind(id);
  const status = async (id: string) =>
    (await testEnv.DB.prepare(`SELECT status FROM ${table} WHERE id = ?`).bind(id).first<{ status: string }>())?.status ?? null;

  it("changes() in a batch is the previous statement's count; the json() guard rolls the whole batch back", async () => {
    await setup();
    // one row claimed: the guard passes and the rest lands
    const [, guard] = await testEnv.DB.batch([claim("a"), testEnv.DB.prepare(GUARD), insert("job_a")]);
    expect(guard!.results).toEqual([{ claimed: 1 }]);
    expect(await status("a")).toBe("processing");
    expect(await status("job_a")).toBe("job");

    // nothing claimed (busy): the guard raises, the statements before and after it are rolled back
    await expect(testEnv.DB.batch([insert("job_b0"), claim("b"), testEnv.DB.prepare(GUARD), insert("job_b")])).rejects.toThrow(
      /malformed JSON/,
    );
    expect(await status("job_b0")).toBeNull();
    expect(await status("job_b")).toBeNull();

    // changes() is the previous statement's, not the batch's running total: an insert before the claim does not count
    await expect(testEnv.DB.batch([insert("job_c0"), claim("b"), testEnv.DB.prepare(GUARD)])).rejects.toThrow(/malformed JSON/);
    // a later statement's failure (a taken primary key) rolls the claim back
    await expect(testEnv.DB.batch([claim("c"), testEnv.DB.prepare(GUARD), insert("job_a")])).rejects.toThrow(/UNIQUE|constraint/i);
    expect(await status("c")).toBe("uploaded");
    // a claim that changed two rows fails the guard too (it checks exactly one)
    const two = testEnv.DB.prepare(`UPDATE ${table} SET status = 'processing' WHERE id IN ('c', 'd') AND status = 'uploaded'`);
    await expect(testEnv.DB.batch([two, testEnv.DB.prepare(GUARD)])).rejects.toThrow(/malformed JSON/);
    expect(await status("d")).toBe("uploaded");
    await testEnv.DB.exec(`DROP TABLE ${table}`);
  });
});

async function signable() {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
  return { ...tenant, assetId };
}

const sign = (key: string, assetId: string, idem: string) =>
  api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
    headers: { "idempotency-key": idem },
  });

const jobsOf = async (tenantId: string, assetId: string) =>
  (
    await testEnv.DB.prepare("SELECT id, state FROM jobs WHERE tenant_id = ? AND asset_id = ?")
      .bind(tenantId, assetId)
      .all<{ id: string; state: string }>()
  ).results;

const assetStatus = async (assetId: string) =>
  (await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(assetId).first<{ status: string }>())!.status;

describe("insertJob: the claim inside the job's batch", () => {
  it("a busy asset aborts the batch (isAssetBusy) and writes nothing; a taken job id leaves no claim", async () => {
    const s = await signable();
    const first = await sign(s.key, s.assetId, crypto.randomUUID());
    expect(first.status).toBe(202);
    const [admitted] = await jobsOf(s.tenantId, s.assetId);
    const row = (await testEnv.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(admitted!.id).first())!;
    const db = database(testEnv.DB);
    const job = {
      id: "job_aaaaaaaaaaaaaaaa",
      tenantId: s.tenantId,
      assetId: s.assetId,
      recipeId: row.recipe_id,
      recipeVersion: row.recipe_version,
      policyVersion: row.policy_version,
      activePlanRevision: row.active_plan_revision,
      kind: row.kind,
      mode: "standard",
      state: "accepted",
      admitted: row.admitted,
      createdAt: 1,
      updatedAt: 1,
    } as JobRow;
    const steps = (id: string) => [
      {
        jobId: id,
        tenantId: s.tenantId,
        step: "sign",
        position: 0,
        state: "pending" as const,
        startedAt: null,
        completedAt: null,
        output: null,
        errorCode: null,
      },
    ];
    // the asset is processing (the first job): the claim moves nothing and the guard aborts
    const busy = await insertJob(db, job, steps(job.id)).catch((e: unknown) => e);
    expect(isAssetBusy(busy), String(busy)).toBe(true);
    expect(await jobsOf(s.tenantId, s.assetId)).toHaveLength(1);
    // the asset is free again but the job id is taken: the insert fails and the claim is rolled back with it
    await testEnv.DB.prepare("UPDATE assets SET status = 'failed' WHERE id = ?").bind(s.assetId).run();
    const taken = await insertJob(db, { ...job, id: admitted!.id }, steps(admitted!.id)).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(Error);
    expect(isAssetBusy(taken)).toBe(false);
    expect(await assetStatus(s.assetId)).toBe("failed");
  });
});

describe("POST /v1/sign: a retry under the same Idempotency-Key converges on one job", () => {
  it("a lost answer (record never completed): the retry answers the earlier job, even once it has failed", async () => {
    const s = await signable();
    const idem = crypto.randomUUID();
    const first = await sign(s.key, s.assetId, idem);
    expect(first.status).toBe(202);
    const jobId = (await json(first)).job_id as string;
    // The answer was lost: the idempotency record is gone as if never completed, and the job has since failed.
    await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ?").bind(s.tenantId).run();
    await testEnv.DB.prepare("UPDATE jobs SET state = 'failed', terminal_at = 2 WHERE id = ?").bind(jobId).run();
    await testEnv.DB.prepare("UPDATE assets SET status = 'failed' WHERE id = ?").bind(s.assetId).run();
    const retried = await sign(s.key, s.assetId, idem);
    expect(retried.status).toBe(202);
    const body = await json(retried);
    expect(body.job_id).toBe(jobId);
    expect(body.state).toBe("failed");
    expect(await jobsOf(s.tenantId, s.assetId)).toHaveLength(1);
    expect(await assetStatus(s.assetId), "the retry left no claim").toBe("failed");

    // another key is a new request: it admits a second job for the failed asset, as before
    const fresh = await sign(s.key, s.assetId, crypto.randomUUID());
    expect(fresh.status).toBe(202);
    expect((await json(fresh)).job_id).not.toBe(jobId);
  });

  it("the same key in another tenant names another job (ids are scoped by tenant)", async () => {
    const [a, b] = [await signable(), await signable()];
    const idem = crypto.randomUUID();
    const [ra, rb] = [await sign(a.key, a.assetId, idem), await sign(b.key, b.assetId, idem)];
    expect([ra.status, rb.status]).toEqual([202, 202]);
    expect((await json(ra)).job_id).not.toBe((await json(rb)).job_id);
  });

  it("two keys racing for one asset: one job, the other answered 409 asset_busy, no claim left over", async () => {
    const s = await signable();
    const answers = await Promise.all([sign(s.key, s.assetId, crypto.randomUUID()), sign(s.key, s.assetId, crypto.randomUUID())]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    const body = await json(refused);
    expect(body.error?.code ?? body.code, JSON.stringify(body)).toBe("svc.sign.asset_busy");
    expect(await jobsOf(s.tenantId, s.assetId)).toHaveLength(1);
  });
});
