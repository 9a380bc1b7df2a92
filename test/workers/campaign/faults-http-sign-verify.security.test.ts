import { describe, expect, it } from "vitest";
import type { FaultSite } from "../support/faults";
import { addKey, createTenant, fixture, testEnv, uploadAsset } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";
import { type Answer, count, type Mode, request, send, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults over HTTP: signing admission (sign-only and express), the job read, and verification (public, keyed by
 * asset id, keyed with bytes). Each D1/R2/queue call the request makes fails in turn (and each write lands before
 * the isolate dies): a clean answer, and the same request retried on the healthy env gives one job with one
 * reservation (never a reservation without its job, a job without its asset, or two jobs for one key).
 */
const PHOTO = fixture("sample-1mp.jpg");

async function signable() {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, PHOTO, "image/jpeg", "photo.jpg");
  return { ...tenant, assetId, idem: crypto.randomUUID() };
}

/** One admitted job for the asset, the one the answer names, with no stray reservation. */
async function expectOneJob(s: { tenantId: string; assetId: string }, retried: Answer) {
  expect(await count("jobs", "tenant_id = ? AND asset_id = ?", s.tenantId, s.assetId), "one job").toBe(1);
  const job = await testEnv.DB.prepare("SELECT id FROM jobs WHERE tenant_id = ? AND asset_id = ?")
    .bind(s.tenantId, s.assetId)
    .first<{ id: string }>();
  expect(retried.body.job_id ?? retried.body.job?.job_id, "the answer names it").toBe(job?.id);
  expect(
    await count("wallet_reservations", "tenant_id = ? AND job_id NOT IN (SELECT id FROM jobs)", s.tenantId),
    "no reservation without its job",
  ).toBe(0);
  expect(await count("wallet_reservations", "tenant_id = ?", s.tenantId), "at most one reservation").toBeLessThanOrEqual(1);
  expect(await count("job_steps", "job_id = ?", job!.id), "its steps").toBeGreaterThan(0);
}

/**
 * KNOWN DEFECTS (src/jobs, helper `crash`'s area; reported, not fixed here):
 * 1. admitSign claims the asset (`UPDATE assets SET status = 'processing'`) in its own statement before the batch that
 *    inserts the job. When the isolate dies after the claim, or the job's batch fails, the asset stays `processing`
 *    with no job: every retry answers 409 `svc.sign.asset_busy` (retryable) for good.
 * 2. When the isolate dies after the job's batch landed (or the hand-over's job state write fails), the retry (same Idempotency-Key, lease lapsed) is admitted
 *    afresh, finds the asset busy with the job it cannot name, and answers 409 `svc.sign.asset_busy`; once that job
 *    ends, a retry admits a second job. The admission does not converge on the job its key created.
 * The fix belongs in the admission: claim inside the job's batch (or release it when the batch fails), and derive
 * the job id from the Idempotency-Key (platform/ids `idFor`) so a retry finds its job, as uploads, API keys and
 * webhook endpoints now do.
 */
const claimWithoutJob = (site: FaultSite, mode: Mode, sites: readonly FaultSite[]) => {
  const jobBatch = sites.find((s) => /insert into "jobs"/i.test(s.detail))?.n ?? Number.POSITIVE_INFINITY;
  if (site.n === jobBatch) return true; // 1 (error) and 2 (crash after it landed)
  // 2: the hand-over's state write failing after the job exists answers 503, and the retry cannot name the job.
  if (site.n > jobBatch && /^update "jobs" set "state"/i.test(site.detail)) return true;
  if (mode !== "crash-after") return false;
  return /^update "assets" set "status"/i.test(site.detail) || site.n > jobBatch; // 1, and 2 for any later crash
};

const signRequest = (recipe: string, mode?: "express") => (s: Awaited<ReturnType<typeof signable>>) =>
  request("/v1/sign", {
    method: "POST",
    key: s.key,
    body: { asset_id: s.assetId, recipe_id: recipe, ...(mode ? { mode } : {}) },
    headers: { "idempotency-key": s.idem },
  });

const SIGN_PATHS = [
  { name: "POST /v1/sign sign-only", request: signRequest("rcp_system_sign_only"), success: [202] },
  { name: "POST /v1/sign express", request: signRequest("rcp_system_express_watermark_then_sign", "express"), success: [200, 202] },
];

describe("faults over HTTP: signing", () => {
  for (const path of SIGN_PATHS) {
    it(`${path.name}: one job per Idempotency-Key, whatever failed (but the known claim defect)`, async () => {
      const result = await sweep(
        { ...path, setup: signable, check: async (s, retried) => expectOneJob(s, retried) },
        { only: (site, mode, sites) => !claimWithoutJob(site, mode, sites) },
      );
      console.log(table(path.name, result));
    });

    // Fails today (see claimWithoutJob): passes once the admission can no longer leave a claim without its job.
    it.fails(`${path.name}: KNOWN DEFECT: a crash after the asset claim, or a failed job batch, leaves the asset claimed without a job`, async () => {
      await sweep({ ...path, setup: signable, check: async (s, retried) => expectOneJob(s, retried) }, { only: claimWithoutJob });
    });
  }

  it("GET /v1/jobs/{id}: a failing read answers a retryable 503", async () => {
    const owner = await signable();
    const started = await send(
      testEnv,
      request("/v1/sign", {
        method: "POST",
        key: owner.key,
        body: { asset_id: owner.assetId, recipe_id: "rcp_system_sign_only" },
        headers: { "idempotency-key": owner.idem },
      }),
    );
    expect(started.status, started.text).toBe(202);
    const jobId = started.body.job_id as string;
    const result = await sweep({
      name: "GET /v1/jobs/{id}",
      // A fresh key per trial: the key cache would otherwise hide the key lookup from later trials.
      setup: async () => ({ tenantId: owner.tenantId, key: (await addKey(owner.tenantId)).key }),
      request: (s) => request(`/v1/jobs/${jobId}`, { key: s.key }),
      success: [200],
      check: async (_s, retried) => {
        expect(retried.body.job_id).toBe(jobId);
      },
    });
    console.log(table("GET /v1/jobs/{id}", result));
  });
});

const form = (bytes: Uint8Array, name: string) => () => {
  const f = new FormData();
  f.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  return f;
};
const address = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

describe("faults over HTTP: verification", () => {
  it("POST /v1/verify public (bytes): a clean answer, and the retry verifies", async () => {
    const result = await sweep({
      name: "POST /v1/verify public",
      setup: async () => ({ ip: address() }),
      request: (s) => request("/v1/verify", { method: "POST", form: form(PHOTO, "photo.jpg"), headers: { "cf-connecting-ip": s.ip } }),
      success: [200],
      check: async (_s, retried) => {
        expect(retried.body.status).toBeTypeOf("string");
      },
    });
    console.log(table("POST /v1/verify public", result));
  });

  it("POST /v1/verify keyed (bytes)", async () => {
    const result = await sweep({
      name: "POST /v1/verify keyed bytes",
      setup: async () => createTenant(),
      request: (s) => request("/v1/verify", { method: "POST", key: s.key, form: form(PHOTO, "photo.jpg") }),
      success: [200],
      check: async (s, retried) => {
        expect(retried.body.status).toBeTypeOf("string");
        expect(await count("verifications", "tenant_id = ?", s.tenantId), "at most one record per answered verify").toBeLessThanOrEqual(2);
      },
    });
    console.log(table("POST /v1/verify keyed bytes", result));
  });

  it("POST /v1/verify keyed (asset id)", async () => {
    const owner = await createTenant();
    const { assetId } = await signedCopy(owner.key, fixture("sample.jpg"), "image/jpeg");
    const result = await sweep({
      name: "POST /v1/verify keyed asset_id",
      setup: async () => ({ tenantId: owner.tenantId, key: (await addKey(owner.tenantId)).key }),
      request: (s) => request("/v1/verify", { method: "POST", key: s.key, body: { asset_id: assetId } }),
      success: [200],
      check: async (_s, retried) => {
        expect(retried.body.status).toBeTypeOf("string");
      },
    });
    console.log(table("POST /v1/verify keyed asset_id", result));
  });
});
