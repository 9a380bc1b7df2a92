import type { Database } from "../db/client";
import { finishCanceled, getJob, type JobRow, type JobStepRow, requestCancel, stepsOf } from "./repo";

/** The outcome of a cancel request; `job` and `steps` are as they are after it. */
export type CancelResult =
  | { status: "canceled" | "cancel_requested"; job: JobRow; steps: JobStepRow[] }
  | { status: "not_found" }
  | { status: "terminal"; job: JobRow };

/**
 * Requests cancellation. A job that has not started is canceled at once; a running one is marked
 * `cancel_requested` and the runner stops before its next step. Publication checks the mark in the same
 * transaction, so a cancelled job never publishes.
 */
export async function cancelJob(
  db: Database,
  tenantId: string,
  jobId: string,
  reason: string | null,
  now = Date.now(),
): Promise<CancelResult> {
  const job = await getJob(db, tenantId, jobId);
  if (!job) return { status: "not_found" };
  if (["completed", "canceled", "expired", "rejected", "failed"].includes(job.state)) return { status: "terminal", job };
  await requestCancel(db, job, reason, now);
  let after = (await getJob(db, tenantId, jobId))!;
  if (job.state === "queued" || job.state === "accepted") {
    await finishCanceled(db, after);
    after = (await getJob(db, tenantId, jobId))!;
  }
  const steps = (await stepsOf(db, [job.id])).get(job.id) ?? [];
  return { status: after.state === "canceled" ? "canceled" : "cancel_requested", job: after, steps };
}
