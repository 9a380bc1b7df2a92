import { describe, expect, it, vi } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import type { AdmittedRequest } from "../../../src/jobs/admission";
import { admitSign } from "../../../src/jobs/admission";
import type { WatermarkOutput } from "../../../src/jobs/outputs";
import { JOB_LEASE_MS } from "../../../src/jobs/policy";
import { getJob, jobWithPublication, type ObjectRow } from "../../../src/jobs/repo";
import { type JobServices, runJob, runJobForAnswer } from "../../../src/jobs/runner";
import { decodePublished, fingerprintStep } from "../../../src/jobs/steps/fingerprint";
import { mediaServices } from "../../../src/media";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { admittedExpress, realDecode, servicesWithDecode, servicesWithReader } from "../support/jobs.helpers";

/*
 * #19: the express path's I/O budget. An express watermark job runs in a fixed number of D1 round trips and R2
 * calls (counted here, never timed), and folding step records into the next step's begin keeps what the records
 * and cancellation mean.
 */

/** testEnv with its D1 and R2 bindings wrapped to count round trips (a batch is one; a statement outside one is one). */
function countedEnv() {
  const calls = { d1: 0, r2Get: 0, r2Put: 0, order: [] as string[] };
  const real = testEnv.DB;
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const bind = statement.bind.bind(statement);
    for (const method of ["first", "all", "run", "raw"] as const) {
      const original = (statement[method] as (...a: unknown[]) => unknown).bind(statement);
      Object.assign(statement, {
        [method]: (...args: unknown[]) => {
          calls.d1++;
          return original(...args);
        },
      });
    }
    Object.assign(statement, { bind: (...args: unknown[]) => wrap(bind(...args)) });
    return statement;
  };
  const DB = {
    prepare: (sql: string) => wrap(real.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) => {
      calls.d1++;
      calls.order.push("d1");
      return real.batch(statements);
    },
    exec: (sql: string) => {
      calls.d1++;
      return real.exec(sql);
    },
    withSession: real.withSession.bind(real),
    dump: real.dump.bind(real),
  } as unknown as D1Database;
  const bucket = testEnv.OBJECTS;
  const OBJECTS = Object.assign(Object.create(bucket) as R2Bucket, {
    get: (...args: Parameters<R2Bucket["get"]>) => {
      calls.r2Get++;
      calls.order.push("r2 get");
      return bucket.get(...args);
    },
    put: (...args: Parameters<R2Bucket["put"]>) => {
      calls.r2Put++;
      return bucket.put(...args);
    },
  });
  return { env: { ...testEnv, DB, OBJECTS } as Bindings, calls };
}

async function jobAndSteps(key: string, jobId: string) {
  const job = await json(await api(`/v1/jobs/${jobId}`, { key }));
  return { job, steps: Object.fromEntries((job.steps as { step: string; state: string }[]).map((s) => [s.step, s.state])) };
}

describe("express job I/O (#19)", () => {
  it("runs in 4 D1 round trips, reads R2 once and writes 3 objects, with every step recorded", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const { env, calls } = countedEnv();
    await runJob(env, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    // take+load; inspect recorded + watermark begun; watermark recorded with the fingerprints (worked out from the
    // read-back in hand) + sign begun; the publication batch, with the sign step's record and the publish step's
    // begin (which reads the job back).
    expect(calls.d1).toBe(4);
    // The upload is read once; the watermarked and signed bytes are used in hand, never read back.
    expect(calls.r2Get).toBe(1);
    expect(calls.r2Put).toBe(3); // watermarked output, manifest store, signed output
    // The upload's read is issued with the first step's begin (after the take), not after it.
    expect(calls.order.slice(0, 3)).toEqual(["d1", "r2 get", "d1"]);
    const { job: done, steps } = await jobAndSteps(tenant.key, job.id);
    expect(done.state).toBe("completed");
    expect(steps).toEqual({
      inspect: "completed",
      watermark: "completed",
      fingerprint: "completed",
      sign: "completed",
      publish: "completed",
    });
    for (const s of done.steps) expect(s.started_at !== null && s.completed_at !== null, s.step).toBe(true);
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }));
    expect(asset.status).toBe("published");
  });

  it("a row in hand that went stale (cancelled before the run) is read again: the job ends canceled, nothing runs", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const cancel = await api(`/v1/jobs/${job.id}/cancel`, {
      method: "POST",
      key: tenant.key,
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(cancel.status).toBe(200);
    const { env, calls } = countedEnv();
    await runJob(env, await mediaServices(testEnv), tenant.tenantId, job.id, job); // `job` still says accepted
    expect(calls.r2Get).toBe(0);
    const { job: after, steps } = await jobAndSteps(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(Object.values(steps).every((s) => s === "skipped")).toBe(true);
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
  });

  it("a cancellation during the watermark step: that step is recorded, the next never begins, nothing is published", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const decode = await realDecode();
    let decodes = 0;
    // The watermark step's read-back decode (its second) is where the customer's cancel lands.
    const services = await servicesWithDecode(async (bytes, mediaType) => {
      if (++decodes === 2) {
        const res = await api(`/v1/jobs/${job.id}/cancel`, {
          method: "POST",
          key: tenant.key,
          body: {},
          headers: { "idempotency-key": crypto.randomUUID() },
        });
        expect((await json(res)).state).toBe("cancel_requested");
      }
      return decode(bytes, mediaType);
    });
    await runJob(testEnv, services, tenant.tenantId, job.id, job);
    const { job: after, steps } = await jobAndSteps(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(after.result).toBeNull();
    expect(steps).toEqual({ inspect: "completed", watermark: "completed", fingerprint: "skipped", sign: "skipped", publish: "skipped" });
    const receipts = await testEnv.DB.prepare("SELECT count(*) AS n FROM receipts WHERE job_id = ?").bind(job.id).first<{ n: number }>();
    expect(receipts!.n).toBe(0);
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
  });
});

describe("step spans (#19)", () => {
  it("the fingerprints folded into the sign step's begin are in the fingerprint span only, not also in the watermark's", async () => {
    const { tenant, job } = await admittedExpress();
    // A clock that moves on every read (workerd's stands still while no I/O lands), so each span's ends are the
    // moments the runner took them: a record carrying the batch's time instead would end after the folded work.
    let clock = Date.now();
    const now = vi.spyOn(Date, "now").mockImplementation(() => ++clock);
    try {
      await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    } finally {
      now.mockRestore();
    }
    const steps = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!.steps;
    const at = (name: string) => steps.find((s) => s.step === name)!;
    const [watermark, fingerprint, sign, publish] = ["watermark", "fingerprint", "sign", "publish"].map(at);
    for (const s of [watermark, fingerprint, sign, publish]) expect(s!.state, s!.step).toBe("completed");
    // one after the other, no overlap: the sum of the spans is the time the steps took
    expect(watermark!.startedAt!).toBeLessThan(watermark!.completedAt!);
    expect(watermark!.completedAt!).toBeLessThanOrEqual(fingerprint!.startedAt!);
    expect(fingerprint!.startedAt!).toBeLessThan(fingerprint!.completedAt!);
    expect(fingerprint!.completedAt!).toBeLessThanOrEqual(sign!.startedAt!);
    expect(sign!.completedAt!).toBeLessThanOrEqual(publish!.startedAt!);
  });
});

describe("sign record folded into the publication batch (#19)", () => {
  it("records the sign step and the publish step's begin with the publication: both carry their times", async () => {
    const { tenant, job } = await admittedExpress();
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    const steps = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!.steps;
    const sign = steps.find((s) => s.step === "sign")!;
    const publish = steps.find((s) => s.step === "publish")!;
    expect(sign.state).toBe("completed");
    expect(JSON.parse(sign.output!).manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(publish.state).toBe("completed");
    expect(publish.startedAt).not.toBeNull();
    expect(sign.completedAt!).toBeLessThanOrEqual(publish.startedAt!);
    expect(publish.startedAt!).toBeLessThanOrEqual(publish.completedAt!);
  });

  it("a cancellation during the publish step's check: the sign step stays recorded, nothing is published", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    let cancelled = false;
    const services = await servicesWithReader(async () => {
      if (cancelled) return;
      cancelled = true;
      const res = await api(`/v1/jobs/${job.id}/cancel`, {
        method: "POST",
        key: tenant.key,
        body: {},
        headers: { "idempotency-key": crypto.randomUUID() },
      });
      expect((await json(res)).state).toBe("cancel_requested");
    });
    expect(await runJobForAnswer(testEnv, services, tenant.tenantId, job.id, job)).toBeUndefined();
    const { job: after, steps } = await jobAndSteps(tenant.key, job.id);
    expect(after.state).toBe("canceled");
    expect(steps).toEqual({
      inspect: "completed",
      watermark: "completed",
      fingerprint: "completed",
      sign: "completed",
      publish: "skipped",
    });
    const receipts = await testEnv.DB.prepare("SELECT count(*) AS n FROM receipts WHERE job_id = ?").bind(job.id).first<{ n: number }>();
    expect(receipts!.n).toBe(0);
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
  });

  it("an output the reference reader judges invalid: sign completed, publish failed, as before the fold", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const services = await servicesWithReader(
      async () => undefined,
      (real) =>
        real.status === "read" ? { ...real, check: { ...real.check, validation_state: "Invalid", failure_codes: ["test.invalid"] } } : real,
    );
    await runJob(testEnv, services, tenant.tenantId, job.id, job);
    const { job: after, steps } = await jobAndSteps(tenant.key, job.id);
    expect(after.state).toBe("failed");
    expect(after.error_code).toBe("svc.jobs.output_invalid");
    expect(steps).toEqual({ inspect: "completed", watermark: "completed", fingerprint: "completed", sign: "completed", publish: "failed" });
    const row = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(row.steps.find((s) => s.step === "publish")!.startedAt).not.toBeNull();
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("failed");
  });
});

describe("express fingerprints folded into the next record (#19)", () => {
  it("are recorded completed with the watermark's record; a fingerprint that fails is not folded but fails its own step", async () => {
    const { tenant, job } = await admittedExpress();
    const { env, calls } = countedEnv();
    const services = await mediaServices(testEnv);
    const image = services.image!;
    let computes = 0;
    const failing = {
      ...image.fingerprinters.get("pdq")!,
      algorithm: "pdq",
      compute: () => {
        computes++;
        return { status: "failed" as const, message: "no texture to hash (test)" };
      },
    };
    const broken: JobServices = {
      ...services,
      image: { ...image, fingerprinters: new Map([...image.fingerprinters, ["pdq", failing as never]]) },
    };
    await runJob(env, broken, tenant.tenantId, job.id, job);
    const { job: after, steps } = await jobAndSteps(tenant.key, job.id);
    expect(after.state).toBe("failed");
    expect(after.error_code).toBe("svc.jobs.fingerprint_failed");
    expect(steps).toEqual({ inspect: "completed", watermark: "completed", fingerprint: "failed", sign: "pending", publish: "pending" });
    // tried folded (no record), then as its own step: begun in the watermark's record batch, failed there
    expect(computes).toBe(2);
    expect(calls.r2Put).toBe(1); // the watermarked output only: nothing was signed
  });
});

/** The webhooks queue whose sends wait until `release()`; `sent` holds what went through. */
function heldWebhooksQueue() {
  const queue = testEnv.WEBHOOKS_QUEUE;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: unknown[] = [];
  const WEBHOOKS_QUEUE = Object.assign(Object.create(queue) as Queue, {
    sendBatch: async (...args: Parameters<Queue["sendBatch"]>) => {
      await held;
      sent.push(...args[0]);
      return queue.sendBatch(...args);
    },
  });
  return { WEBHOOKS_QUEUE, sent, release: () => release() };
}

describe("express fan-out nudge (#19)", () => {
  it("is handed to the caller's background, not awaited by the run; the events it sends are the publication's", async () => {
    const { tenant, job } = await admittedExpress();
    // A fan-out send that does not finish until released: the run must return without it.
    const { WEBHOOKS_QUEUE, sent, release } = heldWebhooksQueue();
    const background: Promise<unknown>[] = [];
    const services: JobServices = { ...(await mediaServices(testEnv)), background: (work) => background.push(work) };
    await runJob({ ...testEnv, WEBHOOKS_QUEUE } as Bindings, services, tenant.tenantId, job.id, job);
    expect((await jobAndSteps(tenant.key, job.id)).job.state).toBe("completed");
    // the fan-out nudge and the deferred PDQ windows' follow-up message (steps/pdq-windows.ts)
    expect(background).toHaveLength(2);
    expect(sent).toHaveLength(0);
    release();
    await Promise.all(background);
    const events = await testEnv.DB.prepare("SELECT id FROM webhook_events WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .all<{ id: string }>();
    expect(events.results.length).toBeGreaterThan(0);
    expect((sent as { body: { event_id: string } }[]).map((m) => m.body.event_id).sort()).toEqual(events.results.map((e) => e.id).sort());
  });
});

describe("queued fan-out nudge (#19)", () => {
  it("without a background (the queue consumer) is awaited by the run: the run ends only once the events are sent", async () => {
    const { tenant, job } = await admittedExpress();
    const { WEBHOOKS_QUEUE, sent, release } = heldWebhooksQueue();
    let ended = false;
    const run = runJob({ ...testEnv, WEBHOOKS_QUEUE } as Bindings, await mediaServices(testEnv), tenant.tenantId, job.id, job).then(
      () => (ended = true),
    );
    // the publication commits, then the run waits on the held send
    for (let i = 0; i < 200 && (await jobAndSteps(tenant.key, job.id)).job.state !== "completed"; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await jobAndSteps(tenant.key, job.id)).job.state).toBe("completed");
    expect(ended).toBe(false);
    release();
    await run;
    expect(sent.length).toBeGreaterThan(0);
  });
});

describe("express fingerprints (#19)", () => {
  it("computed from the read-back pixels in the run are exactly those a redelivery computes from the stored output", async () => {
    const { tenant, job } = await admittedExpress();
    const services = await mediaServices(testEnv);
    await runJob(testEnv, services, tenant.tenantId, job.id, job);
    const { job: row, steps, asset } = (await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(row.state).toBe("completed");
    const output = (name: string) => JSON.parse(steps.find((s) => s.step === name)!.output!);
    const source = await testEnv.DB.prepare("SELECT * FROM objects WHERE id = ?")
      .bind(asset!.sourceObjectId)
      .first<Record<string, unknown>>();
    // The redelivery path (steps/fingerprint.ts): the watermarked output read back from R2 and decoded again.
    const pixels = await decodePublished(
      testEnv,
      services.image!,
      { r2Key: source!["r2_key"], etag: source!["etag"], mediaType: source!["media_type"] } as ObjectRow,
      output("watermark") as WatermarkOutput,
    );
    const admitted = JSON.parse(row.admitted) as AdmittedRequest;
    expect(fingerprintStep(services.image!, admitted, pixels)).toEqual(output("fingerprint"));
  });
});

describe("express answer read (#19, security)", () => {
  it("reads a job, its asset and published objects only within the caller's tenant", async () => {
    const { tenant, job } = await admittedExpress();
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    const db = database(testEnv.DB);
    const mine = await jobWithPublication(db, tenant.tenantId, job.id);
    expect(mine?.job.state).toBe("completed");
    expect(mine?.output?.id).toBe(mine?.asset?.publishedObjectId);
    expect(mine?.output?.tenantId).toBe(tenant.tenantId);
    expect(mine?.sidecar).toBeNull();
    const other = await createTenant();
    expect(await jobWithPublication(db, other.tenantId, job.id)).toBeNull();
  });
});

describe("express answer from the publication batch (#19)", () => {
  it("is exactly what a read after the run shows, read without a round trip of its own", async () => {
    const { tenant, job } = await admittedExpress();
    const { env, calls } = countedEnv();
    const answer = await runJobForAnswer(env, await mediaServices(testEnv), tenant.tenantId, job.id, job);
    expect(calls.d1).toBe(4); // the run's own round trips: the answer's rows rode with the publication
    expect(answer).toBeTruthy();
    const read = await jobWithPublication(database(testEnv.DB), tenant.tenantId, job.id);
    expect(answer).toEqual(read);
    expect(answer!.job.state).toBe("completed");
    expect(answer!.output?.id).toBe(answer!.asset?.publishedObjectId);
    expect(answer!.steps.map((s) => s.state)).toEqual(["completed", "completed", "completed", "completed", "completed"]);
  });

  it("is not given when the run did not publish (a cancellation landed first): the caller reads the job", async () => {
    const { tenant, job } = await admittedExpress();
    const cancel = await api(`/v1/jobs/${job.id}/cancel`, {
      method: "POST",
      key: tenant.key,
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(cancel.status).toBe(200);
    expect(await runJobForAnswer(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id, job)).toBeUndefined();
  });
});

describe("express take at admission (#19)", () => {
  it("the job is taken, and its first step begun, in the batch that writes it: admission 2 round trips, the run 3", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const { env, calls } = countedEnv();
    const result = await admitSign(
      database(env.DB),
      registryFor(testEnv),
      tenant.tenantId,
      // The fingerprint set of admittedExpress(), whose run this one is compared with below.
      {
        asset_id: assetId,
        recipe_id: "rcp_system_express_watermark_then_sign",
        mode: "express",
        fingerprint_algorithms: ["iscc-image", "pdq"],
      },
      { takeForRun: { leaseMs: JOB_LEASE_MS } },
    );
    if (result.status !== "admitted") throw new Error(result.status);
    // the reads; the claim, the job, its take and first move (#22: the claim joined the batch, was 3)
    expect(calls.d1).toBe(2);
    expect(result.taken?.taken).toBe(true);
    // taken as takeJobAndLoad takes: running, attempt 1, under a lease; the asset and source read with it
    const row = (await getJob(database(testEnv.DB), tenant.tenantId, result.job.id))!;
    expect(row).toMatchObject({ state: "running", attempts: 1 });
    expect(row.leaseExpiresAt).toBeGreaterThan(Date.now());
    if (!result.taken?.taken) throw new Error("not taken");
    expect(result.taken.found?.asset.id).toBe(assetId);
    // the run's first move rode with the take: inspect recorded, watermark begun (read after them in the same batch)
    expect(result.taken.steps.map((s) => [s.step, s.state])).toEqual([
      ["inspect", "completed"],
      ["watermark", "running"],
      ["fingerprint", "pending"],
      ["sign", "pending"],
      ["publish", "pending"],
    ]);
    expect(result.taken.begun).toBe("watermark");

    calls.d1 = 0;
    const answer = await runJobForAnswer(env, await mediaServices(testEnv), tenant.tenantId, result.job.id, result.job, result.taken);
    // no take or first begin of its own: the job read back before any work (a cancellation or another runner's take
    // may land while the request loads its media services: review finding), the watermark recorded with the sign
    // step begun, the publication
    expect(calls.d1).toBe(3);
    expect(answer?.job.state).toBe("completed");
    expect(answer?.job.attempts).toBe(1);
    expect(answer).toEqual(await jobWithPublication(database(testEnv.DB), tenant.tenantId, result.job.id));

    // the records are those of a run that takes and begins on its own (the inspect output, every step's times)
    const other = await admittedExpress();
    await runJob(testEnv, await mediaServices(testEnv), other.tenant.tenantId, other.job.id, other.job);
    const theirs = (await jobWithPublication(database(testEnv.DB), other.tenant.tenantId, other.job.id))!;
    const shape = (steps: typeof theirs.steps) =>
      steps.map((s) => ({
        step: s.step,
        state: s.state,
        timed: s.startedAt !== null && s.completedAt !== null,
        keys: Object.keys(JSON.parse(s.output ?? "{}")),
      }));
    expect(shape(answer!.steps)).toEqual(shape(theirs.steps));
    const inspect = JSON.parse(answer!.steps[0]!.output!);
    expect(inspect).toEqual({ media_type: "image/jpeg", object_id: answer!.asset!.sourceObjectId });
  });

  it("a run that follows the take with its services in hand (no wait between them) reads nothing back: 2 round trips", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const services = await mediaServices(testEnv);
    const { env, calls } = countedEnv();
    const result = await admitSign(
      database(env.DB),
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
    if (result.status !== "admitted" || !result.taken?.taken) throw new Error(result.status);
    calls.d1 = 0;
    const answer = await runJobForAnswer(env, services, tenant.tenantId, result.job.id, result.job, result.taken, true);
    // the watermark recorded with the sign step begun; the publication (the job is not read back first)
    expect(calls.d1).toBe(2);
    expect(answer?.job).toMatchObject({ state: "completed", attempts: 1 });
    expect(answer).toEqual(await jobWithPublication(database(testEnv.DB), tenant.tenantId, result.job.id));
    for (const s of answer!.steps)
      expect([s.step, s.state, s.startedAt !== null && s.completedAt !== null]).toEqual([s.step, "completed", true]);
  });

  it("is only made when asked (a caller that runs the job) and only for express jobs", async () => {
    const tenant = await createTenant();
    const admit = async (mode: "express" | "standard", options = {}) => {
      const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
      const result = await admitSign(
        database(testEnv.DB),
        registryFor(testEnv),
        tenant.tenantId,
        { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode },
        options,
      );
      if (result.status !== "admitted") throw new Error(result.status);
      return { result, row: (await getJob(database(testEnv.DB), tenant.tenantId, result.job.id))! };
    };
    const plain = await admit("express");
    expect(plain.result.taken).toBeUndefined();
    expect(plain.row).toMatchObject({ state: "accepted", attempts: 0 });
    const standard = await admit("standard", { takeForRun: { leaseMs: JOB_LEASE_MS } });
    expect(standard.result.taken).toBeUndefined();
    expect(standard.row).toMatchObject({ state: "accepted", attempts: 0 });
  });
});

describe("sign admission I/O (#19)", () => {
  it("reads the asset, its source's facts and the metering state in one round trip, then claims and writes the job in one batch (2 in all)", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const { env, calls } = countedEnv();
    const result = await admitSign(database(env.DB), registryFor(testEnv), tenant.tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
    });
    expect(result.status).toBe("admitted");
    // asset + facts + the metering state (billing) (were three round trips); the claim with the job and its steps
    // (#22: the claim joined the job's batch, was a round trip of its own)
    expect(calls.d1).toBe(2);
  });

  it("a decoding recipe is still bounded by the source's facts read in that batch", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    // Facts that put the source above the decode limit: the refusal must come from the facts the batch read.
    await testEnv.DB.prepare(
      "UPDATE objects SET inspection = json_set(inspection, '$.width', 20000, '$.height', 20000) WHERE id = (SELECT source_object_id FROM assets WHERE id = ?)",
    )
      .bind(assetId)
      .run();
    const result = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
    });
    expect(result).toMatchObject({ status: "refused", code: "svc.sign.image_dimensions_unsupported" });
  });

  it("another tenant's asset is not found", async () => {
    const owner = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const other = await createTenant();
    const result = await admitSign(database(testEnv.DB), registryFor(testEnv), other.tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
    });
    expect(result.status).toBe("asset_not_found");
  });
});
