import { describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { admitSign } from "../../../src/jobs/admission";
import { JOB_LEASE_MS } from "../../../src/jobs/policy";
import { getJob, giveTakeBack } from "../../../src/jobs/repo";
import { runJob, runJobForAnswer } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { seedWallet, walletOf } from "../billing/wallet-fixture";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { realDecode, servicesWithDecode, servicesWithReader } from "../support/jobs.helpers";

/*
 * #19 review: an express job taken at admission (takeForRun) and its sign record folded into the publication batch.
 * Two runners, cancellation at each point, a run that dies, metering: one publication, one charge, one event.
 */

/** An express job admitted as POST /v1/sign admits it: taken for the request's run in the batch that writes it. */
async function admitTaken(wallet?: number) {
  const tenant = await createTenant();
  if (wallet !== undefined) await seedWallet(tenant.tenantId, wallet);
  const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
  const result = await admitSign(
    database(testEnv.DB),
    registryFor(testEnv),
    tenant.tenantId,
    {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    },
    { takeForRun: { leaseMs: JOB_LEASE_MS } },
  );
  if (result.status !== "admitted" || !result.taken?.taken) throw new Error(JSON.stringify(result));
  return { tenant, assetId, job: result.job, taken: result.taken };
}

/** testEnv with R2 writes counted (the watermark step's output is the first). */
function countedPuts() {
  const calls = { put: 0 };
  const bucket = testEnv.OBJECTS;
  const OBJECTS = Object.assign(Object.create(bucket) as R2Bucket, {
    put: (...args: Parameters<R2Bucket["put"]>) => {
      calls.put++;
      return bucket.put(...args);
    },
    get: (...args: Parameters<R2Bucket["get"]>) => bucket.get(...args),
    head: (...args: Parameters<R2Bucket["head"]>) => bucket.head(...args),
    delete: (...args: Parameters<R2Bucket["delete"]>) => bucket.delete(...args),
  });
  return { env: { ...testEnv, OBJECTS } as Bindings, calls };
}

async function view(key: string, jobId: string) {
  const job = await json(await api(`/v1/jobs/${jobId}`, { key }));
  return { job, steps: Object.fromEntries((job.steps as { step: string; state: string }[]).map((s) => [s.step, s.state])) };
}

async function count(sql: string, ...binds: unknown[]) {
  return (await testEnv.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;
}

/** What the job left behind: receipts, published objects, outbox events naming it, its reservation's state. */
async function ledger(tenantId: string, jobId: string) {
  return {
    receipts: await count("SELECT count(*) AS n FROM receipts WHERE job_id = ?", jobId),
    outputs: await count(
      "SELECT count(*) AS n FROM objects WHERE tenant_id = ? AND role IN ('signed_output', 'watermarked_output', 'sidecar_manifest')",
      tenantId,
    ),
    events: await count("SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND body LIKE ?", tenantId, `%${jobId}%`),
    reservation:
      (await testEnv.DB.prepare("SELECT state FROM wallet_reservations WHERE job_id = ?").bind(jobId).first<{ state: string }>())?.state ??
      null,
  };
}

/** The job's quote (what one charge takes from the wallet). */
async function quoteOf(jobId: string) {
  return (await testEnv.DB.prepare("SELECT amount_micros FROM wallet_reservations WHERE job_id = ?")
    .bind(jobId)
    .first<{ amount_micros: number }>())!.amount_micros;
}

const cancel = (key: string, jobId: string) =>
  api(`/v1/jobs/${jobId}/cancel`, { method: "POST", key, body: {}, headers: { "idempotency-key": crypto.randomUUID() } });

const ALL_COMPLETED = { inspect: "completed", watermark: "completed", fingerprint: "completed", sign: "completed", publish: "completed" };

describe("express take at admission: two runners (#19 review)", () => {
  it("the safety net takes nothing while admission's take holds; the request's run then publishes once on attempt 1", async () => {
    const { tenant, job, taken } = await admitTaken();
    const services = await mediaServices(testEnv);
    await runJob(testEnv, services, tenant.tenantId, job.id); // the safety net (or a redelivery) arriving early
    const held = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(held).toMatchObject({ state: "running", attempts: 1 });
    expect((await view(tenant.key, job.id)).steps.watermark).toBe("running");
    const answer = await runJobForAnswer(testEnv, services, tenant.tenantId, job.id, job, taken);
    expect(answer?.job).toMatchObject({ state: "completed", attempts: 1 });
    expect((await view(tenant.key, job.id)).steps).toEqual(ALL_COMPLETED);
    expect((await ledger(tenant.tenantId, job.id)).receipts).toBe(1);
  });

  it("a stale run whose lease lapsed during the publication check publishes and records nothing: one publication, one charge", async () => {
    const { tenant, job, taken } = await admitTaken(1_000_000);
    let theirs: { publication: string | null; sign: string | null } | null = null;
    const stale = await servicesWithReader(async () => {
      if (theirs) return;
      // this run's lease lapses; the safety net takes the job (attempt 2) and finishes it before this check returns
      await testEnv.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?")
        .bind(Date.now() - 1, job.id)
        .run();
      await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);
      const row = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
      const sign = await testEnv.DB.prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'sign'")
        .bind(job.id)
        .first<{ output: string }>();
      theirs = { publication: row.publicationId, sign: sign!.output };
    });
    expect(await runJobForAnswer(testEnv, stale, tenant.tenantId, job.id, job, taken)).toBeUndefined();
    const row = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(row).toMatchObject({ state: "completed", attempts: 2 });
    expect(row.publicationId).toBe(theirs!.publication);
    const sign = await testEnv.DB.prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'sign'")
      .bind(job.id)
      .first<{ output: string }>();
    expect(sign!.output).toBe(theirs!.sign); // the stale run's folded sign record did not overwrite the taker's
    expect((await view(tenant.key, job.id)).steps).toEqual(ALL_COMPLETED);
    const after = await ledger(tenant.tenantId, job.id);
    expect(after).toMatchObject({ receipts: 1, reservation: "settled" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000 - (await quoteOf(job.id)), reserved_micros: 0 });
  });

  it("a run that dies during the publication check: the safety net signs again and publishes once, charged once", async () => {
    const { tenant, job, taken } = await admitTaken(1_000_000);
    const dying = await servicesWithReader(async () => {
      throw new Error("worker died (test)");
    });
    await expect(runJobForAnswer(testEnv, dying, tenant.tenantId, job.id, job, taken)).rejects.toThrow("worker died");
    // between the runs: the sign step was never recorded (the documented price), nothing published or charged
    const between = await view(tenant.key, job.id);
    expect(between.job.state).toBe("running");
    expect(between.steps).toEqual({
      inspect: "completed",
      watermark: "completed",
      fingerprint: "completed",
      sign: "running",
      publish: "pending",
    });
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, events: 0, reservation: "held" });
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id); // the safety net
    const { job: done, steps } = await view(tenant.key, job.id);
    expect(done.state).toBe("completed");
    expect(steps).toEqual(ALL_COMPLETED);
    expect((await getJob(database(testEnv.DB), tenant.tenantId, job.id))!.attempts).toBe(2);
    const after = await ledger(tenant.tenantId, job.id);
    expect(after).toMatchObject({ receipts: 1, reservation: "settled" });
    expect(after.events).toBeGreaterThan(0);
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000 - (await quoteOf(job.id)), reserved_micros: 0 });
    // a redelivery after the end changes nothing
    const events = after.events;
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 1, events, reservation: "settled" });
  });

  it("media services fail to load: the take given back, the safety net takes at once and finishes with one publication", async () => {
    const { tenant, job } = await admitTaken(1_000_000);
    // as routes/sign.ts runExpress does when mediaServices rejects
    await giveTakeBack(database(testEnv.DB), job, job.attempts + 1, Date.now());
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);
    const { job: done, steps } = await view(tenant.key, job.id);
    expect(done.state).toBe("completed");
    expect(steps).toEqual(ALL_COMPLETED);
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 1, reservation: "settled" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000 - (await quoteOf(job.id)), reserved_micros: 0 });
  });
});

describe("express take at admission: cancellation (#19 review)", () => {
  it("a cancel between admission and the run: canceled, nothing published, quote released, no step left running", async () => {
    const { tenant, assetId, job, taken } = await admitTaken(1_000_000);
    expect((await cancel(tenant.key, job.id)).status).toBe(200);
    await runJobForAnswer(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job, taken);
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(Object.values(steps)).not.toContain("running");
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, reservation: "released" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000, reserved_micros: 0 });
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
  });

  it("a cancel that lands before the run starts its first step stops it before any work, as a run taking on its own does", async () => {
    const { tenant, job, taken } = await admitTaken();
    const res = await cancel(tenant.key, job.id);
    expect(res.status).toBe(200);
    const { env, calls } = countedPuts();
    await runJobForAnswer(env, await mediaServices(testEnv), tenant.tenantId, job.id, job, taken);
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    // the watermark step should not run (nor write its output to R2) for a job whose cancellation was requested first
    expect(steps.watermark).toBe("skipped");
    expect(calls.put).toBe(0);
  });

  it("a run with its services in hand at the take (not read back): a cancel before it is seen at the next batch, nothing published", async () => {
    const { tenant, assetId, job, taken } = await admitTaken(1_000_000);
    expect((await cancel(tenant.key, job.id)).status).toBe(200);
    // as if the cancel landed while the first step ran: that step's work is recorded, the job ends canceled there
    expect(await runJobForAnswer(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job, taken, true)).toBeUndefined();
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(steps).toEqual({ inspect: "completed", watermark: "completed", fingerprint: "skipped", sign: "skipped", publish: "skipped" });
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, reservation: "released" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000, reserved_micros: 0 });
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
  });

  it("a cancel during the watermark step of a taken job: canceled, quote released, later steps skipped", async () => {
    const { tenant, job, taken } = await admitTaken(1_000_000);
    const decode = await realDecode();
    let decodes = 0;
    const withCancel = await servicesWithDecode(async (bytes, mediaType) => {
      if (++decodes === 1) expect((await json(await cancel(tenant.key, job.id))).state).toBe("cancel_requested");
      return decode(bytes, mediaType);
    });
    await runJobForAnswer(testEnv, withCancel, tenant.tenantId, job.id, job, taken);
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(steps.sign).toBe("skipped");
    expect(steps.publish).toBe("skipped");
    expect(Object.values(steps)).not.toContain("running");
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, reservation: "released" });
  });

  it("a cancel during the publication check of a metered job: sign recorded, nothing published, quote released", async () => {
    const { tenant, job, taken } = await admitTaken(1_000_000);
    let once = false;
    const services = await servicesWithReader(async () => {
      if (once) return;
      once = true;
      expect((await json(await cancel(tenant.key, job.id))).state).toBe("cancel_requested");
    });
    expect(await runJobForAnswer(testEnv, services, tenant.tenantId, job.id, job, taken)).toBeUndefined();
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(steps).toEqual({
      inspect: "completed",
      watermark: "completed",
      fingerprint: "completed",
      sign: "completed",
      publish: "skipped",
    });
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, events: 0, reservation: "released" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({ balance_micros: 1_000_000, reserved_micros: 0 });
  });
});

describe("express take at admission: failures and the route (#19 review)", () => {
  it("output_invalid on a taken metered job: failed once, one job.failed event, quote released, no publication", async () => {
    const { tenant, job, taken } = await admitTaken(1_000_000);
    const services = await servicesWithReader(
      async () => undefined,
      (real) =>
        real.status === "read" ? { ...real, check: { ...real.check, validation_state: "Invalid", failure_codes: ["test.invalid"] } } : real,
    );
    await runJobForAnswer(testEnv, services, tenant.tenantId, job.id, job, taken);
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("failed");
    expect(after.error_code).toBe("svc.jobs.output_invalid");
    expect(steps).toEqual({ inspect: "completed", watermark: "completed", fingerprint: "completed", sign: "completed", publish: "failed" });
    const failed = await count(
      "SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND type = 'job.failed' AND body LIKE ?",
      tenant.tenantId,
      `%${job.id}%`,
    );
    expect(failed).toBe(1);
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, reservation: "released" });
    // the safety net arriving afterwards changes nothing
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);
    expect((await view(tenant.key, job.id)).job.state).toBe("failed");
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, reservation: "released" });
  });

  it("POST /v1/sign express: answered completed on attempt 1; replaying its Idempotency-Key makes no second job", async () => {
    const tenant = await createTenant();
    await seedWallet(tenant.tenantId, 1_000_000);
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const key = crypto.randomUUID();
    const body = { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode: "express" };
    const first = await api("/v1/sign", { method: "POST", key: tenant.key, body, headers: { "idempotency-key": key } });
    expect(first.status, await first.clone().text()).toBe(200);
    const answer = await json(first);
    expect(answer.state).toBe("completed");
    expect((await getJob(database(testEnv.DB), tenant.tenantId, answer.job_id))!.attempts).toBe(1);
    const again = await api("/v1/sign", { method: "POST", key: tenant.key, body, headers: { "idempotency-key": key } });
    expect((await json(again)).job_id).toBe(answer.job_id);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenant.tenantId)).toBe(1);
    expect(await ledger(tenant.tenantId, answer.job_id)).toMatchObject({ receipts: 1, reservation: "settled" });
    expect(await walletOf(tenant.tenantId)).toMatchObject({
      balance_micros: 1_000_000 - (await quoteOf(answer.job_id)),
      reserved_micros: 0,
    });
  });

  it("POST /v1/sign standard: not taken at admission (no attempt spent, no step begun)", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const res = await api("/v1/sign", {
      method: "POST",
      key: tenant.key,
      body: { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode: "standard" },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(res.status).toBe(202);
    const job = await json(res);
    expect(["accepted", "queued"]).toContain(job.state);
    expect((job.steps as { state: string }[]).every((s) => s.state === "pending")).toBe(true);
  });
});

describe("express take at admission: more edges (#19 review)", () => {
  it("the watermark step fails on a taken metered job: rejected once, one job.failed event, quote released", async () => {
    const { tenant, assetId, job, taken } = await admitTaken(1_000_000);
    const failing = await servicesWithDecode(async () => ({ status: "failed" as const, message: "cannot decode (test)" }));
    await runJobForAnswer(testEnv, failing, tenant.tenantId, job.id, job, taken);
    const { job: after, steps } = await view(tenant.key, job.id);
    expect(after.state).toBe("rejected"); // decode_failed is a rejecting code
    expect(after.error_code).toBe("svc.jobs.decode_failed");
    expect(steps.watermark).toBe("failed");
    expect(Object.values(steps)).not.toContain("running");
    const failed = await count(
      "SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND type = 'job.failed' AND body LIKE ?",
      tenant.tenantId,
      `%${job.id}%`,
    );
    expect(failed).toBe(1);
    expect(await ledger(tenant.tenantId, job.id)).toMatchObject({ receipts: 0, outputs: 0, reservation: "released" });
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("failed");
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id); // the safety net afterwards
    expect(
      await count("SELECT count(*) AS n FROM webhook_events WHERE tenant_id = ? AND body LIKE ?", tenant.tenantId, `%${job.id}%`),
    ).toBe(failed);
  });

  it("media services failed and the take was given back: a cancel then ends the job at once (as for a job not yet taken)", async () => {
    const { tenant, job } = await admitTaken(1_000_000);
    await giveTakeBack(database(testEnv.DB), job, job.attempts + 1, Date.now()); // runExpress's give-back
    // the job reads as admitted and untaken: no attempt spent, no lease, the begun step pending (inspect stays recorded)
    expect((await getJob(database(testEnv.DB), tenant.tenantId, job.id))!).toMatchObject({
      state: job.state,
      attempts: 0,
      leaseExpiresAt: null,
    });
    expect((await view(tenant.key, job.id)).steps).toEqual({
      inspect: "completed",
      watermark: "pending",
      fingerprint: "pending",
      sign: "pending",
      publish: "pending",
    });
    const res = await json(await cancel(tenant.key, job.id));
    // nothing runs the job until the safety net (EXPRESS_SAFETY_NET_SECONDS later): the job should not sit in
    // cancel_requested with its watermark step shown running and its quote held meanwhile
    expect(res.state).toBe("canceled");
    const { steps } = await view(tenant.key, job.id);
    expect(Object.values(steps)).not.toContain("running");
    expect((await ledger(tenant.tenantId, job.id)).reservation).toBe("released");
  });

  it("the same Idempotency-Key sent twice at once, and a second key for the same asset: one job, one publication", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const body = { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode: "express" };
    const key = crypto.randomUUID();
    const post = (k: string) => api("/v1/sign", { method: "POST", key: tenant.key, body, headers: { "idempotency-key": k } });
    const answers = await Promise.all([post(key), post(key), post(crypto.randomUUID())]);
    const statuses = answers.map((r) => r.status);
    const bodies = await Promise.all(answers.map((r) => json(r)));
    const ok = bodies.filter((_, i) => statuses[i] === 200);
    expect(ok.length, JSON.stringify(bodies)).toBeGreaterThanOrEqual(1);
    for (const [i, b] of bodies.entries())
      if (statuses[i] !== 200) expect(["svc.idempotency.request_in_progress", "svc.sign.asset_busy"], JSON.stringify(b)).toContain(b.code);
    expect(new Set(ok.map((b) => b.job_id)).size).toBe(1);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenant.tenantId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM receipts WHERE job_id = ?", ok[0].job_id)).toBe(1);
  });
});

describe("express take at admission: a run that starts after its take lapsed (#19 review)", () => {
  /** Admission's take, then the safety net taking over (the take lapsed) and publishing; then the late run starts. */
  async function lateRun() {
    const { tenant, job, taken } = await admitTaken();
    await testEnv.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, job.id)
      .run();
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);
    expect((await view(tenant.key, job.id)).job.state).toBe("completed");
    const published = await testEnv.DB.prepare("SELECT r2_key, etag FROM objects WHERE tenant_id = ? AND role = 'signed_output'")
      .bind(tenant.tenantId)
      .first<{ r2_key: string; etag: string }>();
    const steps = (await view(tenant.key, job.id)).job.steps;
    const { env, calls } = countedPuts();
    await runJobForAnswer(env, await mediaServices(testEnv), tenant.tenantId, job.id, job, taken);
    return { tenant, job, published: published!, steps, calls };
  }

  it("changes nothing the taker published or recorded", async () => {
    const { tenant, job, published, steps } = await lateRun();
    expect((await testEnv.OBJECTS.head(published.r2_key))?.etag).toBe(published.etag);
    expect((await view(tenant.key, job.id)).job.steps).toEqual(steps);
    expect((await getJob(database(testEnv.DB), tenant.tenantId, job.id))!).toMatchObject({ state: "completed", attempts: 2 });
    expect((await ledger(tenant.tenantId, job.id)).receipts).toBe(1);
  });

  it("does no step work (no R2 write) once another runner holds the job, as a run whose own take fails", async () => {
    const { calls } = await lateRun();
    expect(calls.put).toBe(0);
  });
});
