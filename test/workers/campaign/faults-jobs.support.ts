import { expect } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { admitSign, type SignRequest } from "../../../src/jobs/admission";
import type { StoredBlob } from "../../../src/jobs/outputs";
import { JOB_LEASE_MS } from "../../../src/jobs/policy";
import { getJob, requeueLapsed } from "../../../src/jobs/repo";
import { type JobServices, runJob, runJobForAnswer } from "../../../src/jobs/runner";
import { TERMINAL_STATES } from "../../../src/jobs/schemas";
import { requeueStaleJobs, STRANDED_CLAIM_MS } from "../../../src/jobs/sweep";
import { mediaServices } from "../../../src/media";
import { eventsNotFannedOut } from "../../../src/webhooks/repo/sweep";
import { type FaultPlan, type FaultSite, faultyEnv } from "../support/faults";
import { api, createTenant, fixture, json, type TestTenant, testEnv, uploadAsset } from "../support/helpers";

/*
 * #22 faults on the signing job: the shared machinery of the faults-jobs*.test.ts files. One case = one recipe driven
 * as the service drives it (the queue consumer's runJob; express: admission's take and runJobForAnswer, as the sign
 * route runs them), on a faulty env (test/workers/support/faults.ts); then the queue's answer with the healthy env:
 * the redelivery at once, and, when the dead runner's lease still holds the job, the sweep's re-queue once that lease
 * has lapsed and its message; then one duplicate delivery. Then the invariants: exactly one publication.
 */

/** A signing job as the service runs it. */
export interface JobCase {
  name: string;
  fixture: string;
  recipe: string;
  /** Express: admission takes the job for a run in the same request (SignOptions.takeForRun), then runJobForAnswer. */
  express: boolean;
  watermark: boolean;
  request?: Partial<SignRequest>;
}

export const SIGN_ONLY: JobCase = {
  name: "sign only (JPEG)",
  fixture: "sample.jpg",
  recipe: "rcp_system_sign_only",
  express: false,
  watermark: false,
};
export const WATERMARK_THEN_SIGN: JobCase = {
  name: "watermark then sign (JPEG)",
  fixture: "sample-1mp.jpg",
  recipe: "rcp_system_watermark_then_sign",
  express: false,
  watermark: true,
};
export const EXPRESS: JobCase = {
  name: "express watermark then sign (JPEG)",
  fixture: "sample-1mp.jpg",
  recipe: "rcp_system_express_watermark_then_sign",
  express: true,
  watermark: true,
  request: { mode: "express", fingerprint_algorithms: ["iscc-image", "pdq"] },
};

let services: Promise<JobServices> | null = null;
/** The media engines, built once (as an isolate does); their own I/O is not the job's (they are handed no env). */
export const jobServices = () => (services ??= mediaServices(testEnv));

/** A fresh tenant with the case's upload (each case publishes once, so each run needs its own asset). */
export async function preparedAsset(c: JobCase): Promise<{ tenant: TestTenant; assetId: string }> {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture(c.fixture), "image/jpeg", "photo.jpg");
  return { tenant, assetId };
}

const signRequest = (c: JobCase, assetId: string): SignRequest => ({ asset_id: assetId, recipe_id: c.recipe, ...c.request }) as SignRequest;

/**
 * The job's first delivery on `env`. Standard: admitted beforehand on the healthy env (as the route does), then
 * runJob as the queue consumer calls it. Express: admission (its take and first move ride in the insert's batch)
 * and the run in the request, both on `env`. Resolves to the job id (null when admission wrote no job) and what the
 * run threw.
 */
export async function firstDelivery(
  env: Bindings,
  c: JobCase,
  tenant: TestTenant,
  assetId: string,
  admittedJobId: string | null,
): Promise<{ jobId: string | null; error: unknown }> {
  try {
    if (!c.express) {
      await runJob(env, await jobServices(), tenant.tenantId, admittedJobId!);
      return { jobId: admittedJobId, error: null };
    }
    const result = await admitSign(database(env.DB), registryFor(env), tenant.tenantId, signRequest(c, assetId), {
      takeForRun: { leaseMs: JOB_LEASE_MS },
    });
    if (result.status !== "admitted") throw new Error(`not admitted: ${JSON.stringify(result)}`);
    await runJobForAnswer(env, await jobServices(), tenant.tenantId, result.job.id, result.job, result.taken ?? null);
    return { jobId: result.job.id, error: null };
  } catch (error) {
    return { jobId: admittedJobId ?? (await jobOfAsset(assetId)), error };
  }
}

/** Admits the case's job on the healthy env without running it (standard mode: the route then hands it to the queue). */
export async function admitted(c: JobCase, tenant: TestTenant, assetId: string): Promise<string> {
  const result = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, signRequest(c, assetId));
  if (result.status !== "admitted") throw new Error(`not admitted: ${JSON.stringify(result)}`);
  return result.job.id;
}

async function jobOfAsset(assetId: string): Promise<string | null> {
  const row = await testEnv.DB.prepare("SELECT id FROM jobs WHERE asset_id = ? ORDER BY created_at DESC LIMIT 1")
    .bind(assetId)
    .first<{ id: string }>();
  return row?.id ?? null;
}

const terminal = (state: string) => (TERMINAL_STATES as readonly string[]).includes(state);

/** What the recovery had to do (for the test's own assertions). */
export interface Recovery {
  jobId: string;
  /** The redelivery at once was dropped: the dead runner's live lease held the job. */
  heldByDeadLease: boolean;
  /** Admission wrote no job: the request died before; the client's retry admitted a new one. */
  readmitted: boolean;
}

/**
 * The queue's (and the cron sweep's) answer to a failed first delivery, on the healthy env. A job that does not exist
 * (the admission died before writing it) is signed again by the client once the sweep freed any claim it left.
 */
export async function recover(c: JobCase, tenant: TestTenant, assetId: string, jobId: string | null): Promise<Recovery> {
  const db = database(testEnv.DB);
  const engines = await jobServices();
  const run = (id: string) => runJob(testEnv, engines, tenant.tenantId, id);
  if (!jobId) {
    // The client retries the sign request; an asset left claimed by the dead admission is freed by the sweep first.
    await requeueStaleJobs(testEnv, Date.now() + STRANDED_CLAIM_MS + 1);
    const id = c.express
      ? (await firstDelivery(testEnv, c, tenant, assetId, null)).jobId!
      : await admitted(c, tenant, assetId).then(async (id) => (await run(id), id));
    await run(id); // a duplicate delivery (express: the safety net's message)
    return { jobId: id, heldByDeadLease: false, readmitted: true };
  }
  await run(jobId); // the queue's redelivery (express: the safety net's message)
  let heldByDeadLease = false;
  const job = (await getJob(db, tenant.tenantId, jobId))!;
  if (!terminal(job.state)) {
    // Only a live lease makes a delivery drop a job: the dead runner's (it could not give its lease back).
    expect(job.state).toBe("running");
    expect(job.leaseExpiresAt).not.toBeNull();
    heldByDeadLease = true;
    // JOB_LEASE_MS later: the lease has lapsed; the cron sweep re-queues the job and sends its message.
    await testEnv.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, jobId)
      .run();
    expect(await requeueLapsed(db, jobId, Date.now(), JOB_LEASE_MS)).toBe(true);
    await run(jobId);
  }
  await run(jobId); // and a duplicate delivery
  return { jobId, heldByDeadLease, readmitted: false };
}

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await testEnv.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row!.n;
}

/** Every blob a completed step of the job recorded (watermark output, signed output, manifest store). */
async function recordedBlobs(jobId: string): Promise<StoredBlob[]> {
  const { results } = await testEnv.DB.prepare(
    "SELECT output FROM job_steps WHERE job_id = ? AND state = 'completed' AND output IS NOT NULL",
  )
    .bind(jobId)
    .all<{ output: string }>();
  const blobs: StoredBlob[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== "object") return;
    const v = value as Record<string, unknown>;
    if (typeof v.key === "string" && typeof v.etag === "string") blobs.push(v as unknown as StoredBlob);
    else for (const child of Object.values(v)) walk(child);
  };
  for (const r of results) walk(JSON.parse(r.output));
  return blobs;
}

/** The keys stored under the tenant's job prefix. */
export async function jobObjects(tenantId: string): Promise<R2Object[]> {
  const listed = await testEnv.OBJECTS.list({ prefix: `t/${tenantId}/jobs/`, limit: 1000 });
  return listed.objects;
}

/**
 * The invariants of a job that ran under faults: completed exactly once, with one publication, one receipt, one
 * verification, one asset.signed (and asset.watermarked) outbox event, the published objects in place; its public
 * view terminal and consistent; and nothing stored under its prefix that no record names, nor a record naming bytes
 * that are not stored (each recorded etag is the stored object's).
 */
export async function expectPublishedOnce(c: JobCase, tenant: TestTenant, assetId: string, jobId: string) {
  const t = tenant.tenantId;
  const job = await testEnv.DB.prepare("SELECT state, publication_id, receipt_id FROM jobs WHERE id = ?").bind(jobId).first<{
    state: string;
    publication_id: string | null;
  }>();
  expect(job?.state).toBe("completed");
  expect(job?.publication_id).toMatch(/^pub_/);
  expect(await count("SELECT count(*) AS n FROM jobs WHERE asset_id = ? AND state = 'completed'", assetId)).toBe(1);
  expect(await count("SELECT count(*) AS n FROM receipts WHERE asset_id = ?", assetId)).toBe(1);
  expect(await count("SELECT count(*) AS n FROM verifications WHERE job_id = ?", jobId)).toBe(1);
  expect(await count("SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND type = 'asset.signed'", t)).toBe(1);
  expect(await count("SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND type = 'asset.watermarked'", t)).toBe(
    c.watermark ? 1 : 0,
  );
  expect(await count("SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND type = 'job.failed'", t)).toBe(0);
  // No event lost: each is fanned out, or the webhooks sweep's scan (a minute on) finds it (a crash ate the nudge).
  const { results: events } = await testEnv.DB.prepare("SELECT id, fanned_out_at FROM webhook_events WHERE tenant_id = ?")
    .bind(t)
    .all<{ id: string; fanned_out_at: number | null }>();
  const unsent = new Set(await eventsNotFannedOut(testEnv.DB, Date.now() + 61_000, 10_000));
  for (const e of events) expect(e.fanned_out_at !== null || unsent.has(e.id), `event ${e.id} lost`).toBe(true);
  expect(await count("SELECT count(*) AS n FROM objects WHERE asset_id = ?", assetId)).toBe(2); // source + signed output
  expect(await count("SELECT count(*) AS n FROM soft_bindings WHERE job_id = ?", jobId)).toBe(
    await count("SELECT count(*) AS n FROM soft_bindings WHERE publication_id = ?", job!.publication_id),
  );

  // The public view: terminal, every step completed, the result the asset's publication.
  const view = await json(await api(`/v1/jobs/${jobId}`, { key: tenant.key }));
  expect(view.state).toBe("completed");
  expect(view.terminal_at).not.toBeNull();
  expect(view.steps.map((s: { state: string }) => s.state).every((s: string) => s === "completed")).toBe(true);
  const asset = await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }));
  expect(asset.status).toBe("published");
  expect(asset.publication.publication_id).toBe(view.result.publication_id);
  expect(view.result.publication_id).toBe(job!.publication_id);

  // Storage: every object under the tenant's job prefix is named by a record with its etag, and every record's bytes are stored.
  const { results: published } = await testEnv.DB.prepare("SELECT r2_key, etag FROM objects WHERE tenant_id = ?").bind(t).all<{
    r2_key: string;
    etag: string;
  }>();
  const jobIds = (await testEnv.DB.prepare("SELECT id FROM jobs WHERE tenant_id = ?").bind(t).all<{ id: string }>()).results;
  const recorded = (await Promise.all(jobIds.map((j) => recordedBlobs(j.id)))).flat();
  const named = new Map<string, string>([
    ...published.map((o) => [o.r2_key, o.etag] as const),
    ...recorded.map((b) => [b.key, b.etag] as const),
  ]);
  const stored = await jobObjects(t);
  for (const object of stored) expect(named.get(object.key), `orphan ${object.key}`).toBe(object.etag);
  for (const blob of recorded) {
    const head = await testEnv.OBJECTS.head(blob.key);
    expect(head?.etag, `recorded but not stored: ${blob.key}`).toBe(blob.etag);
  }
}

/** One case under one fault: the faulted delivery, the queue's recovery, the invariants. Returns what happened. */
export async function runUnderFault(c: JobCase, plan: FaultPlan): Promise<{ faulted: FaultSite | null; recovery: Recovery }> {
  const { tenant, assetId } = await preparedAsset(c);
  const admittedId = c.express ? null : await admitted(c, tenant, assetId);
  const faulty = faultyEnv(testEnv, plan);
  const first = await firstDelivery(faulty.env, c, tenant, assetId, admittedId);
  if (plan.at !== undefined) expect(faulty.faulted, "the planned site was reached").not.toBeNull();
  const recovery = await recover(c, tenant, assetId, first.jobId);
  await expectPublishedOnce(c, tenant, assetId, recovery.jobId);
  return { faulted: faulty.faulted, recovery };
}

/** The case's I/O sites, from one run with no fault (which must itself publish once). */
export async function probeSites(c: JobCase): Promise<FaultSite[]> {
  const { tenant, assetId } = await preparedAsset(c);
  const admittedId = c.express ? null : await admitted(c, tenant, assetId);
  const probe = faultyEnv(testEnv);
  const first = await firstDelivery(probe.env, c, tenant, assetId, admittedId);
  if (first.error) throw first.error;
  await expectPublishedOnce(c, tenant, assetId, first.jobId!);
  return [...probe.log];
}

/**
 * The step of the job a site belongs to, for the test's name; the four the issue names are marked:
 * "after watermark", "after R2 put", "inside the publication batch", "after publication before the event".
 */
export function siteLabel(site: FaultSite, sites: FaultSite[]): string {
  const d = site.detail.toLowerCase();
  const before = sites[sites.findIndex((s) => s.n === site.n) - 1];
  const publication = sites.find((s) => s.op === "d1.batch" && s.detail.includes("UPDATE jobs SET state = 'completed', publication_id"));
  if (site.n === publication?.n) return "inside the publication batch (one D1 transaction)";
  if (site.op === "r2.put" && d.endsWith("/watermark/output")) return "after watermark: R2 put of the watermarked intermediate";
  if (site.op === "r2.put" && d.endsWith("/sign/output")) return "after R2 put of the signed output";
  if (site.op === "r2.put" && d.endsWith("/sign/manifest.c2pa")) return "after R2 put of the manifest store";
  if (site.kind === "queue" && publication && site.n > publication.n) return "after publication before the event: the webhook fan-out send";
  if (site.op === "r2.get" && /\/o\//.test(d)) return "the upload's read";
  if (d.startsWith('update "assets" set "status"')) return "admission's claim of the asset";
  if (d.startsWith('select "id", "tenant_id", "kind"')) return "admission's reads";
  if (d.startsWith('insert into "jobs"')) return "admission's insert (with the take and the first move)";
  if (d.startsWith('update "jobs" set "state"')) return "the take (with the steps, asset and source reads)";
  if (d.startsWith('select "id", "tenant_id", "asset_id"')) return "the job's read";
  if (d.startsWith('update "job_steps" set "state" = ?, "started_at"')) return "a step's begin";
  if (d.startsWith('update "job_steps" set "state" = ?, "completed_at"')) {
    const after = before?.op === "r2.put" ? before.detail.split("/").slice(-2)[0] : null;
    return after === "watermark"
      ? "after watermark: its record (advanceStep)"
      : `a step's record (advanceStep)${after ? ` after the ${after} writes` : ""}`;
  }
  return `${site.op} ${site.detail.slice(0, 48)}`;
}

/** A seeded choice of `k` of `items` (mulberry32): the same sample on every run of the same seed. */
export function seededSample<T>(items: T[], k: number, seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

/** The fault modes, "crash-after" first: the dangerous one (the write landed, the code never learned it). */
export const MODES = ["crash-after", "crash-before", "error"] as const;

/**
 * Which sites each mode runs. Every site for crash-after; crash-before and error on a seeded sample of `sampled`
 * sites (the CI budget), or on every site when the campaign binding CAMPAIGN_FAULTS is "all" (`npm run campaign`).
 */
export function sitesFor(mode: (typeof MODES)[number], sites: FaultSite[], seed: number, sampled = 3): FaultSite[] {
  const all = (testEnv as unknown as { CAMPAIGN_FAULTS?: string }).CAMPAIGN_FAULTS === "all";
  if (mode === "crash-after" || all) return sites;
  return seededSample(sites, sampled, seed + MODES.indexOf(mode)).sort((a, b) => a.n - b.n);
}

/** The same site in another run (its keys name another tenant and job): same call, same target. */
export const sameSite = (a: FaultSite, b: FaultSite) =>
  a.op === b.op &&
  a.detail.replace(/t\/ten_\w+\/(o\/\w+|jobs\/job_\w+)/, "") === b.detail.replace(/t\/ten_\w+\/(o\/\w+|jobs\/job_\w+)/, "");
