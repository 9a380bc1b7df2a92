import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { JOB_LEASE_MS, MAX_JOB_ATTEMPTS } from "../../../src/jobs/policy";
import { getJob, takeJobAndLoad } from "../../../src/jobs/repo";
import { type JobServices, runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { testEnv } from "../support/helpers";
import { admittedExpress, realDecode, servicesWithDecode } from "../support/jobs.helpers";

/*
 * #19 review: only one runner holds a live lease. A runner whose lease lapsed while it worked (another runner took
 * the job since) must neither record steps nor publish: its step records ride in advanceStep's batch and its
 * publication in publishBatch, so both must be bound to the attempt that took the job, not only to "not cancelled".
 */

/** The lease of the running job lapses and a second runner takes it (it holds a live lease from now on). */
async function lapseAndTakeOver(tenantId: string, jobId: string) {
  const db = database(testEnv.DB);
  await testEnv.DB.prepare("UPDATE jobs SET lease_expires_at = 0 WHERE id = ?").bind(jobId).run();
  const current = (await getJob(db, tenantId, jobId))!;
  const take = await takeJobAndLoad(db, current, Date.now(), JOB_LEASE_MS);
  expect(take.taken).toBe(true);
}

async function stepStates(jobId: string) {
  const { results } = await testEnv.DB.prepare("SELECT step, state FROM job_steps WHERE job_id = ? ORDER BY position").bind(jobId).all<{
    step: string;
    state: string;
  }>();
  return Object.fromEntries(results.map((r) => [r.step, r.state]));
}

async function receiptsOf(jobId: string) {
  const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM receipts WHERE job_id = ?").bind(jobId).first<{ n: number }>();
  return row!.n;
}

describe("a stale runner (#19 review, security)", () => {
  it("whose lease lapsed during the watermark step records no step and publishes nothing", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const decode = await realDecode();
    let decodes = 0;
    // The watermark step's read-back decode (its second): this runner's lease lapses, another takes the job.
    const services = await servicesWithDecode(async (bytes, mediaType) => {
      if (++decodes === 2) await lapseAndTakeOver(tenant.tenantId, job.id);
      return decode(bytes, mediaType);
    });
    await runJob(testEnv, services, tenant.tenantId, job.id, job);

    const after = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(after.attempts).toBe(2); // the second runner's take
    expect(after.state).toBe("running"); // still the second runner's to finish
    expect(after.publicationId).toBeNull();
    expect(await receiptsOf(job.id)).toBe(0);
    // The stale runner's watermark is not recorded as the job's, and it began nothing after it.
    expect(await stepStates(job.id)).toEqual({
      inspect: "completed",
      watermark: "running",
      fingerprint: "pending",
      sign: "pending",
      publish: "pending",
    });
    const asset = await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(assetId).first<{ status: string }>();
    expect(asset!.status).toBe("processing");
  });

  it("whose lease lapsed while its output was checked does not publish", async () => {
    const { tenant, job } = await admittedExpress();
    const real = await mediaServices(testEnv);
    const services: JobServices = {
      ...real,
      reader: {
        // The publish step's check of the signed output: this runner's lease lapses, another takes the job.
        read: async (input) => {
          await lapseAndTakeOver(tenant.tenantId, job.id);
          return real.reader.read(input);
        },
      },
    };
    await runJob(testEnv, services, tenant.tenantId, job.id, job);

    const after = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(after.attempts).toBe(2);
    expect(after.state).toBe("running");
    expect(after.publicationId).toBeNull();
    expect(await receiptsOf(job.id)).toBe(0);
    // The sign step's record and the publish step's begin ride with the publication batch: bound to this runner's
    // attempt, neither is written (the second runner signs again, as after any lapse mid-step).
    expect(await stepStates(job.id)).toEqual({
      inspect: "completed",
      watermark: "completed",
      fingerprint: "completed",
      sign: "running",
      publish: "pending",
    });
  });
});

describe("a stale runner's step failure (#19 review, security)", () => {
  it("does not end the job another runner now holds", async () => {
    const { tenant, assetId, job } = await admittedExpress();
    const decode = await realDecode();
    let decodes = 0;
    // The watermark's read-back decode: this runner's lease lapses, another takes the job, then the decode fails.
    const services = await servicesWithDecode(async (bytes, mediaType) => {
      if (++decodes === 2) {
        await lapseAndTakeOver(tenant.tenantId, job.id);
        return { status: "unsupported", message: "not decoded here" };
      }
      return decode(bytes, mediaType);
    });
    await runJob(testEnv, services, tenant.tenantId, job.id, job);

    const after = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(after.state).toBe("running"); // the second runner's, not ended by the stale one
    expect(after.attempts).toBe(2);
    expect(after.errorCode).toBeNull();
    expect((await stepStates(job.id)).watermark).toBe("running");
    const asset = await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(assetId).first<{ status: string }>();
    expect(asset!.status).toBe("processing");
  });
});

describe("a job that ends while a step was running (#19 review)", () => {
  it("attempts exhausted: the step whose runs kept dying is not left `running` under a failed job", async () => {
    const { tenant, job } = await admittedExpress();
    const dying = await servicesWithDecode(async () => {
      throw new Error("the isolate died here");
    });
    await expect(runJob(testEnv, dying, tenant.tenantId, job.id, job)).rejects.toThrow("the isolate died here");
    expect((await stepStates(job.id)).watermark).toBe("running");
    // Its attempts are spent (as after MAX_JOB_ATTEMPTS such runs): the next start fails it.
    await testEnv.DB.prepare("UPDATE jobs SET attempts = ?, lease_expires_at = 0 WHERE id = ?").bind(MAX_JOB_ATTEMPTS, job.id).run();
    await runJob(testEnv, await mediaServices(testEnv), tenant.tenantId, job.id);

    const after = (await getJob(database(testEnv.DB), tenant.tenantId, job.id))!;
    expect(after.state).toBe("failed");
    expect(after.errorCode).toBe("svc.jobs.attempts_exhausted");
    const states = await stepStates(job.id);
    expect(Object.values(states)).not.toContain("running");
    expect(states).toEqual({ inspect: "completed", watermark: "failed", fingerprint: "pending", sign: "pending", publish: "pending" });
  });
});
