import type { Bindings } from "../env";
import { log } from "../platform/logger";
import { sendFanout } from "../webhooks/queue";
import type { JobErrorCode } from "./job-errors";
import { endJob, type JobRow, type JobStepRow } from "./repo";

/**
 * Ends a job without a publication (`failed`, `rejected` or `expired`): one D1 batch (repo endJob) that ends the
 * job once and writes its job.failed event with it, then a nudge of the webhook fan-out.
 */
export async function finishJob(
  env: Bindings,
  job: JobRow,
  step: Pick<JobStepRow, "step"> | null,
  state: "failed" | "rejected" | "expired",
  code: JobErrorCode,
  message: string,
  attempt?: number,
) {
  const ended = await endJob(env.DB, job, step, state, code, message, attempt);
  // Nudge the fan-out now; if this Worker dies first, the cron sweep fans the committed event out.
  try {
    if (await ended.committed()) await sendFanout(env, [ended.eventId]);
  } catch (error) {
    log.warn("webhook fan-out nudge failed; the sweep will fan out", { job_id: job.id, error: String(error) });
  }
}
