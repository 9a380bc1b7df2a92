import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { IDEMPOTENCY_TTL_MS, sweepIdempotencyRecords } from "../../../src/platform/idempotency";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";

/*
 * Review of the sign key window (sign-key-window.security.test.ts): after the window the key's derived id still names
 * the old job, so the new request was admitted under a random id, and that request lost what the derived id gives
 * every request: a retry after a lost answer (its key's record released or its lease run out) finding its job. The
 * retry was refused (`svc.sign.asset_busy`, its own job holding the asset) or, on an asset still signable, admitted a
 * second job for one request.
 */

async function pastTheWindow(tenantId: string, jobId: string) {
  const aged = Date.now() - IDEMPOTENCY_TTL_MS - 60_000;
  await testEnv.DB.prepare("UPDATE jobs SET created_at = ? WHERE tenant_id = ? AND id = ?").bind(aged, tenantId, jobId).run();
  await testEnv.DB.prepare("UPDATE idempotency_records SET expires_at = ? WHERE tenant_id = ?").bind(aged, tenantId).run();
  await sweepIdempotencyRecords(database(testEnv.DB), Date.now());
}

/** What an attempt that died before completing its key leaves once its lease ran out: the key free to claim again. */
async function recordLost(tenantId: string) {
  await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ?").bind(tenantId).run();
}

describe("POST /v1/sign after the key's window: the new request's own retries still find its job", () => {
  it("a retry whose answer was lost converges on the job the late request admitted (not asset_busy, not a second job)", async () => {
    const owner = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const body = { asset_id: assetId, recipe_id: "rcp_system_sign_only" };
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await api("/v1/sign", { method: "POST", key: owner.key, body, headers });
    expect(first.status).toBe(202);
    const old = (await json(first)).job_id as string;
    await testEnv.DB.prepare("UPDATE jobs SET state = 'failed', terminal_at = 2 WHERE id = ?").bind(old).run();
    await testEnv.DB.prepare("UPDATE assets SET status = 'failed' WHERE id = ?").bind(assetId).run();
    await pastTheWindow(owner.tenantId, old);

    const late = await api("/v1/sign", { method: "POST", key: owner.key, body, headers });
    const admitted = await json(late);
    expect(late.status, JSON.stringify(admitted)).toBe(202);
    expect(admitted.job_id).not.toBe(old);

    await recordLost(owner.tenantId);
    const retry = await api("/v1/sign", { method: "POST", key: owner.key, body, headers });
    const answer = await json(retry);
    expect(retry.status, JSON.stringify(answer)).toBe(202);
    expect(answer.job_id).toBe(admitted.job_id);
    const jobs = await testEnv.DB.prepare("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?").bind(owner.tenantId).first<{ n: number }>();
    expect(jobs!.n).toBe(2);
  });
});
