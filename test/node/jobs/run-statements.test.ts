import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../../src/db/schema";
import { advanceStep, claimAssetForJob, insertJob, type JobRow, type JobStepRow, takeJobAndLoad } from "../../../src/jobs/repo";
import { heldBy, notCancelled, recordingDb, reference, sqlOf } from "../../support/recording-d1";

/*
 * #19: the run's statements (the take, the step records) are built once per shape with placeholders and bound per
 * call (repo/index.ts `shape`). Each must be exactly the statement drizzle builds for the same values: the same SQL
 * text and the same bound values in the same order. The references below are the queries as they were written
 * before the shapes.
 */

const { jobs, jobSteps, assets, objects } = schema;

const begin = (jobId: string, attempt: number, step: string, now: number) =>
  sqlOf(
    reference
      .update(jobSteps)
      .set({ state: "running", startedAt: now })
      .where(and(eq(jobSteps.jobId, jobId), eq(jobSteps.step, step), inArray(jobSteps.jobId, notCancelled(jobId, attempt)))),
  );
const selectJob = (tenantId: string, jobId: string) =>
  sqlOf(
    reference
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)))
      .limit(1),
  );

describe("run statements built once per shape (#19)", () => {
  it("the take and its reads are drizzle's statements for the same values", async () => {
    const { db, statements } = recordingDb((_, index) => (index === null ? [{ id: "ast_1" }] : index === 0 ? [{ id: "job_1" }] : []));
    const job = { id: "job_1", tenantId: "ten_1", assetId: "ast_1", attempts: 2 } as JobRow;
    const started = 1_700_000_000_000;
    await takeJobAndLoad(db, job, started, 60_000);
    expect(statements).toEqual([
      sqlOf(
        reference
          .update(jobs)
          .set({ state: "running", attempts: 3, leaseExpiresAt: started + 60_000, updatedAt: started })
          .where(
            and(
              eq(jobs.id, "job_1"),
              eq(jobs.attempts, 2),
              or(
                inArray(jobs.state, ["accepted", "queued"]),
                and(eq(jobs.state, "running"), or(isNull(jobs.leaseExpiresAt), lt(jobs.leaseExpiresAt, started))),
              ),
            ),
          )
          .returning({ id: jobs.id }),
      ),
      sqlOf(reference.select().from(jobSteps).where(eq(jobSteps.jobId, "job_1")).orderBy(asc(jobSteps.position))),
      sqlOf(
        reference
          .select()
          .from(assets)
          .where(and(eq(assets.tenantId, "ten_1"), eq(assets.id, "ast_1")))
          .limit(1),
      ),
      sqlOf(
        reference
          .select()
          .from(objects)
          .where(
            and(
              eq(objects.tenantId, "ten_1"),
              eq(
                objects.id,
                reference
                  .select({ id: assets.sourceObjectId })
                  .from(assets)
                  .where(and(eq(assets.tenantId, "ten_1"), eq(assets.id, "ast_1"))),
              ),
            ),
          )
          .limit(1),
      ),
    ]);
  });

  it("a step's record, the instant records and the next begin are drizzle's statements for the same values", async () => {
    const { db, statements } = recordingDb((_, index) => (index === null ? [{ id: "ast_1" }] : index === 0 ? [{ id: "job_1" }] : []));
    const before = Date.now();
    await advanceStep(
      db,
      "ten_1",
      "job_1",
      {
        finished: { step: "watermark", output: { payload: "00ff" } },
        instant: [{ step: "fingerprint", output: { fingerprints: [] }, startedAt: 5, completedAt: 7 }],
        next: "sign",
      },
      3,
      60_000,
    );
    // the batch's own time: read back from the first statement it bound
    const now = statements[0]!.params[1] as number;
    expect(now).toBeGreaterThanOrEqual(before);
    expect(statements).toEqual([
      sqlOf(
        reference
          .update(jobSteps)
          .set({ state: "completed", completedAt: now, output: JSON.stringify({ payload: "00ff" }) })
          .where(and(eq(jobSteps.jobId, "job_1"), eq(jobSteps.step, "watermark"), inArray(jobSteps.jobId, heldBy("job_1", 3)))),
      ),
      sqlOf(
        reference
          .update(jobs)
          .set({ updatedAt: now, leaseExpiresAt: now + 60_000 })
          .where(and(eq(jobs.id, "job_1"), eq(jobs.state, "running"), eq(jobs.attempts, 3))),
      ),
      // An instant step's begin and end are one statement (#19).
      sqlOf(
        reference
          .update(jobSteps)
          .set({ state: "completed", startedAt: 5, completedAt: 7, output: JSON.stringify({ fingerprints: [] }) })
          .where(and(eq(jobSteps.jobId, "job_1"), eq(jobSteps.step, "fingerprint"), inArray(jobSteps.jobId, notCancelled("job_1", 3)))),
      ),
      begin("job_1", 3, "sign", now),
      selectJob("ten_1", "job_1"),
    ]);
  });

  it("admission's claim and the job's rows are drizzle's statements for the same values", async () => {
    const { db, statements } = recordingDb((_, index) => (index === null ? [{ id: "ast_1" }] : index === 0 ? [{ id: "job_1" }] : []));
    expect(await claimAssetForJob(db, "ten_1", "ast_1", 42)).toBe(true);
    const job = {
      id: "job_1",
      tenantId: "ten_1",
      assetId: "ast_1",
      recipeId: "rcp_system_express_watermark_then_sign",
      recipeVersion: 1,
      policyVersion: "svc.sign-policy.v1",
      activePlanRevision: 1,
      pricingVersion: null,
      kind: "watermark_then_sign",
      mode: "express",
      state: "accepted",
      admitted: JSON.stringify({ recipe_id: "rcp_system_express_watermark_then_sign" }),
      mediaInspection: null,
      errorCode: null,
      errorMessage: null,
      cancelRequestedAt: null,
      cancelReason: null,
      terminalAt: null,
      receiptId: null,
      publicationId: null,
      verificationId: null,
      attempts: 0,
      leaseExpiresAt: null,
      createdAt: 42,
      updatedAt: 42,
    } as JobRow;
    const steps = ["inspect", "watermark", "sign"].map(
      (step, position): JobStepRow => ({
        jobId: "job_1",
        tenantId: "ten_1",
        step,
        position,
        state: "pending",
        startedAt: null,
        completedAt: null,
        output: null,
        errorCode: null,
      }),
    );
    await insertJob(db, job, steps);
    const claim = () =>
      reference
        .update(assets)
        .set({ status: "processing", updatedAt: 42 })
        .where(and(eq(assets.tenantId, "ten_1"), eq(assets.id, "ast_1"), inArray(assets.status, ["uploaded", "failed"])));
    expect(statements).toEqual([
      sqlOf(claim().returning({ id: assets.id })),
      // insertJob claims in its own batch, guarded by the claim's changes() (#22)
      sqlOf(claim()),
      { sql: "SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('svc: asset busy') END AS claimed", params: [] },
      sqlOf(reference.insert(jobs).values(job)),
      sqlOf(reference.insert(jobSteps).values(steps)),
    ]);
  });

  it("a job row that leaves properties out is drizzle's insert of that row (the columns' defaults)", async () => {
    const { db, statements } = recordingDb((_, index) => (index === null ? [{ id: "ast_1" }] : index === 0 ? [{ id: "job_1" }] : []));
    const job = { id: "job_2", tenantId: "ten_1", assetId: "ast_1", state: "accepted", createdAt: 1, updatedAt: 1 } as JobRow;
    await insertJob(db, job, []).catch(() => undefined);
    expect(statements[2]).toEqual(sqlOf(reference.insert(jobs).values(job)));
  });
});
