import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { IDEMPOTENCY_TTL_MS, sweepIdempotencyRecords } from "../../../src/platform/idempotency";
import { addKey, api, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";

/*
 * Red-team review (round 16): POST /v1/sign derives its job id from the Idempotency-Key and the request (signJobId), so
 * a retry whose first answer was lost finds its job (#22). That convergence belongs to the key's replay window
 * (24 h, README "Rules every operation follows"), as it does for API keys and webhook secrets: after the window the
 * same key is a new request. Unbounded, the earlier job was answered to anyone of the tenant holding sign:write who
 * sent that key and body again, however late, and a completed express job came with a freshly minted download
 * capability: a key without assets:read could fetch a published file that way.
 */

const EXPRESS = "rcp_system_express_watermark_then_sign";

async function signExpress(key: string, idempotencyKey: string, body: unknown) {
  return api("/v1/sign", { method: "POST", key, body, headers: { "idempotency-key": idempotencyKey } });
}

/** An express sign under `idempotencyKey`, completed (a loaded machine may answer 202 before the run ends). */
async function signedExpress(key: string, idempotencyKey: string, body: unknown) {
  const res = await signExpress(key, idempotencyKey, body);
  const answer = await json(res);
  expect([200, 202], JSON.stringify(answer)).toContain(res.status);
  const done = await waitForJob(key, answer.job_id);
  expect(done.state).toBe("completed");
  return done;
}

/** What the idempotency sweep and a day's wait leave: the key's record gone, the job older than the window. */
async function pastTheWindow(tenantId: string, jobId: string) {
  const aged = Date.now() - IDEMPOTENCY_TTL_MS - 60_000;
  await testEnv.DB.prepare("UPDATE jobs SET created_at = ? WHERE tenant_id = ? AND id = ?").bind(aged, tenantId, jobId).run();
  await testEnv.DB.prepare("UPDATE idempotency_records SET expires_at = ? WHERE tenant_id = ?").bind(aged, tenantId).run();
  await sweepIdempotencyRecords(database(testEnv.DB), Date.now());
  const left = await testEnv.DB.prepare("SELECT count(*) AS n FROM idempotency_records WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ n: number }>();
  expect(left!.n).toBe(0);
}

describe("POST /v1/sign: a job found by its Idempotency-Key only inside the key's replay window", () => {
  it("after the window, the same key and body from a sign:write-only key is a new request: no earlier job, no download", async () => {
    const owner = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const body = { asset_id: assetId, recipe_id: EXPRESS, mode: "express" };
    const idempotencyKey = `nightly-${assetId}`;
    const signed = await signedExpress(owner.key, idempotencyKey, body);

    // A narrow key of the same tenant: it may sign, not read or download assets.
    const narrow = await addKey(owner.tenantId, { scopes: ["sign:write"] });
    expect((await api(`/v1/assets/${assetId}/download`, { method: "POST", key: narrow.key })).status).toBe(403);

    await pastTheWindow(owner.tenantId, signed.job_id);
    const late = await signExpress(narrow.key, idempotencyKey, body);
    const answer = await json(late);
    // A new request on a published asset: refused, and never the earlier job with a fresh download capability.
    expect(late.status, JSON.stringify(answer)).toBe(409);
    expect(answer.code).toBe("svc.sign.asset_published");
    expect(answer.download).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain(signed.job_id);
  });

  it("the owner's own late retry is a new request too (README: after 24 h the same key is a new request)", async () => {
    const owner = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const body = { asset_id: assetId, recipe_id: EXPRESS, mode: "express" };
    const idempotencyKey = crypto.randomUUID();
    const signed = await signedExpress(owner.key, idempotencyKey, body);
    await pastTheWindow(owner.tenantId, signed.job_id);
    const late = await signExpress(owner.key, idempotencyKey, body);
    expect(late.status).toBe(409);
    expect((await json(late)).code).toBe("svc.sign.asset_published");
  });

  it("after the window, a key whose earlier job left its asset signable admits a new job under an id of its own", async () => {
    const owner = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const body = { asset_id: assetId, recipe_id: "rcp_system_sign_only" };
    const idempotencyKey = crypto.randomUUID();
    const first = await api("/v1/sign", { method: "POST", key: owner.key, body, headers: { "idempotency-key": idempotencyKey } });
    expect(first.status).toBe(202);
    const jobId = (await json(first)).job_id as string;
    // That job failed long ago (as admission-claim.test.ts's lost answer: its asset may be signed again).
    await testEnv.DB.prepare("UPDATE jobs SET state = 'failed', terminal_at = 2 WHERE id = ?").bind(jobId).run();
    await testEnv.DB.prepare("UPDATE assets SET status = 'failed' WHERE id = ?").bind(assetId).run();
    await pastTheWindow(owner.tenantId, jobId);
    // The key's derived id is taken by the old job: a new request, never that job, never a 500.
    const late = await api("/v1/sign", { method: "POST", key: owner.key, body, headers: { "idempotency-key": idempotencyKey } });
    const answer = await json(late);
    expect(late.status, JSON.stringify(answer)).toBe(202);
    expect(answer.job_id).not.toBe(jobId);
    const jobs = await testEnv.DB.prepare("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?").bind(owner.tenantId).first<{ n: number }>();
    expect(jobs!.n).toBe(2);
    // and the key's record holds this request's answer: a retry is replayed it
    const replayed = await api("/v1/sign", { method: "POST", key: owner.key, body, headers: { "idempotency-key": idempotencyKey } });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(replayed)).job_id).toBe(answer.job_id);
  });
});
