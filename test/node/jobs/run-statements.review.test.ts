import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../../src/db/schema";
import { advanceStep } from "../../../src/jobs/repo";
import { heldBy, notCancelled, recordingDb, reference, sqlOf } from "../../support/recording-d1";

/*
 * #19 review: the run's shapes (repo/index.ts `shape`) always SET every column they were built with, and bind the
 * call's value as given. drizzle's `.set()` leaves out a property whose value is undefined; a step output that
 * JSON.stringify cannot write (undefined) therefore gave drizzle's `UPDATE … SET state, completed_at` (output left
 * as it was), while the shape bound `undefined` for `output`, which D1 refuses (D1_TYPE_ERROR: the whole step
 * batch fails, the run throws as transient and is retried until its attempts are exhausted). Fixed by storing
 * such an output as null (repo/index.ts `jsonOrNull`): the statement is drizzle's for `output: null`.
 */

const { jobs, jobSteps } = schema;

describe("run statements built once per shape: review (#19)", () => {
  it("a finished step whose output JSON.stringify leaves undefined is recorded with a null output (no undefined bound)", async () => {
    const { db, statements } = recordingDb();
    await advanceStep(db, "ten_1", "job_1", { finished: { step: "watermark", output: undefined }, next: null }, 3, 60_000);
    const now = statements[0]!.params[1] as number;
    expect(statements[0]!.params).not.toContain(undefined);
    expect(statements[0]).toEqual(
      sqlOf(
        reference
          .update(jobSteps)
          .set({ state: "completed", completedAt: now, output: null })
          .where(and(eq(jobSteps.jobId, "job_1"), eq(jobSteps.step, "watermark"), inArray(jobSteps.jobId, heldBy("job_1", 3)))),
      ),
    );
  });

  it("an instant step whose output JSON.stringify leaves undefined is recorded with a null output (no undefined bound)", async () => {
    const { db, statements } = recordingDb();
    await advanceStep(
      db,
      "ten_1",
      "job_1",
      { finished: null, instant: [{ step: "inspect", output: undefined, startedAt: 5, completedAt: 7 }], next: null },
      3,
      60_000,
    );
    // The instant step's begin and end are one statement (#19).
    expect(statements[0]!.params).not.toContain(undefined);
    expect(statements[0]).toEqual(
      sqlOf(
        reference
          .update(jobSteps)
          .set({ state: "completed", startedAt: 5, completedAt: 7, output: null })
          .where(and(eq(jobSteps.jobId, "job_1"), eq(jobSteps.step, "inspect"), inArray(jobSteps.jobId, notCancelled("job_1", 3)))),
      ),
    );
  });
});
