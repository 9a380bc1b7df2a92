import { describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { admitSign } from "../../../src/jobs/admission";
import type { FingerprintOutput } from "../../../src/jobs/outputs";
import { getJob } from "../../../src/jobs/repo";
import { type JobServices, runJob, runJobForAnswer } from "../../../src/jobs/runner";
import { JOB_LEASE_MS, requeueStaleJobs } from "../../../src/jobs/sweep";
import { mediaServices } from "../../../src/media";
import { createTenant, fixture, testEnv, uploadAsset } from "../support/helpers";

/*
 * Review of the deferred PDQ windows (#19). An express run records its fingerprint step (folded, with the sign
 * step's begin) as `pdq_regions_deferred` BEFORE it signs. If that run dies during the sign step, the job is
 * finished by a queue run (the safety net, or the sweep's re-queue): it resumes from the recorded fingerprint,
 * publishes with the windows still deferred, and sends no follow-up (the queue's services have no `background`);
 * the message it consumed was the last one. The publication then never gets its windows, and nothing notices
 * (the record stays `pdq_regions_deferred` for good).
 */

const db = testEnv.DB;

describe("express windows deferred, run resumed by the queue (#19 review)", () => {
  it("a job finished by the queue after its express run died in the sign step gets its windows indexed", async () => {
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("photo-bridge.jpg"), "image/jpeg", "photo.jpg");
    const admitted = await admitSign(database(db), registryFor(testEnv), tenant.tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    if (admitted.status !== "admitted") throw new Error(JSON.stringify(admitted));
    const job = admitted.job;

    // Every message sent is recorded and delivered below, as the queue would (nothing is lost).
    const sent: { job_id: string; tenant_id: string }[] = [];
    const queue = { send: async (body: { job_id: string; tenant_id: string }) => void sent.push(body) };
    // The request's isolate dies at the sign step's first R2 write (the CPU limit, an eviction).
    const dying = {
      ...testEnv,
      JOBS_QUEUE: queue,
      OBJECTS: new Proxy(testEnv.OBJECTS, {
        get(target, name) {
          if (name === "put")
            return (key: string, ...rest: unknown[]) => {
              if (key.includes("/sign/")) throw new Error("isolate died");
              return (target.put as (...a: unknown[]) => unknown).call(target, key, ...rest);
            };
          const v = Reflect.get(target, name);
          return typeof v === "function" ? v.bind(target) : v;
        },
      }),
    } as unknown as Bindings;
    const pending: Promise<unknown>[] = [];
    const express: JobServices = { ...(await mediaServices(testEnv)), background: (w) => pending.push(w) };
    await runJobForAnswer(dying, express, tenant.tenantId, job.id, job).catch(() => undefined);
    await Promise.allSettled(pending);
    const recorded = await db
      .prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'fingerprint'")
      .bind(job.id)
      .first<{ output: string | null }>();
    // precondition of the finding: the dead express run recorded its fingerprint step with the windows deferred
    expect(JSON.parse(recorded!.output!).pdq_regions_deferred).toBe(true);

    // The route's safety-net message, then the sweep once the dead run's lease lapsed; every message delivered.
    sent.push({ job_id: job.id, tenant_id: job.tenantId });
    const healthy = { ...testEnv, JOBS_QUEUE: queue } as unknown as Bindings;
    const consumer = await mediaServices(testEnv); // the queue consumer's services: no background
    for (let round = 0; round < 4; round++) {
      while (sent.length > 0) {
        const m = sent.shift()!;
        await runJob(healthy, consumer, m.tenant_id, m.job_id);
      }
      const now = (await getJob(database(db), tenant.tenantId, job.id))!;
      if (now.state === "completed") break;
      await requeueStaleJobs(healthy, Date.now() + 2 * JOB_LEASE_MS + round * 60_000);
    }
    const done = (await getJob(database(db), tenant.tenantId, job.id))!;
    expect(done.state).toBe("completed");
    // one more duplicate delivery of any message (the queue is at-least-once) changes nothing below
    while (sent.length > 0) {
      const m = sent.shift()!;
      await runJob(healthy, consumer, m.tenant_id, m.job_id);
    }

    const output = JSON.parse(
      (await db.prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'fingerprint'").bind(job.id).first<{ output: string }>())!
        .output,
    ) as FingerprintOutput;
    const windows = (await db
      .prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?")
      .bind(done.publicationId)
      .first<{ n: number }>())!.n;
    expect(output.pdq_regions_deferred).toBeUndefined(); // fails: still deferred, no message left to index them
    expect(windows).toBeGreaterThan(0);
  }, 180_000);
});
