import { database } from "../db/client";
import type { Bindings } from "../env";
import { finishJob } from "./finish";
import { attemptsExhaustedMessage, JOB_LEASE_MS, JOB_START_DEADLINE_MS, MAX_JOB_ATTEMPTS, startDeadlineMessage } from "./policy";
import { finishCanceled, lapsedJobs, releaseStrandedClaims, requeueLapsed, touchQueued, unstartedJobs } from "./repo";
import { enqueueJob } from "./runner";

export { JOB_LEASE_MS, JOB_START_DEADLINE_MS, MAX_JOB_ATTEMPTS };

/** A queued job untouched for this long lost its queue message (or the send failed): send it again. */
export const STALE_QUEUED_MS = 2 * 60 * 1000;

/**
 * An asset claimed by an admission (`processing`) with no open job this long after the claim was stranded: the
 * admission died between its claim and its job's insert. Far longer than any request lives, so an admission still
 * on its way to the insert is never overtaken.
 */
export const STRANDED_CLAIM_MS = JOB_LEASE_MS;

/** What one sweep of the jobs did. */
export interface JobSweepResult {
  /** Accepted or queued jobs whose message was (re)sent. */
  sent: number;
  /** Running jobs whose lease lapsed, queued again. */
  requeued: number;
  /** Jobs ended by the sweep: attempts exhausted (failed), past the start deadline (expired), cancellation finished. */
  failed: number;
  expired: number;
  canceled: number;
  /** Assets freed from a claim no job holds (an admission that died before writing its job). */
  released: number;
}

/**
 * Cron: no job waits forever. An accepted or queued job whose message was lost is sent again, or expires past
 * the start deadline; a running job whose lease lapsed (its runner died, or the queue gave its message up) is
 * queued again, or fails with `svc.jobs.attempts_exhausted` (and `job.failed`) once its attempts are spent; a
 * cancellation whose runner died is finished; an asset an admission claimed but never wrote a job for is freed. Each move is conditional on the state read, so a runner that
 * comes back, or a second sweep, changes nothing twice.
 */
export async function requeueStaleJobs(env: Bindings, now = Date.now()): Promise<JobSweepResult> {
  const db = database(env.DB);
  const result: JobSweepResult = { sent: 0, requeued: 0, failed: 0, expired: 0, canceled: 0, released: 0 };
  result.released = await releaseStrandedClaims(db, now - STRANDED_CLAIM_MS, now);

  const unstarted = await unstartedJobs(db, now - STALE_QUEUED_MS);
  for (const job of unstarted) {
    if (job.attempts === 0 && job.createdAt < now - JOB_START_DEADLINE_MS) {
      await finishJob(env, job, null, "expired", "svc.jobs.expired", startDeadlineMessage());
      result.expired++;
      continue;
    }
    await enqueueJob(env, job);
    // Queued now, and touched so the next sweep waits another full period before sending again.
    await touchQueued(db, job.id, now);
    result.sent++;
  }

  const lapsed = await lapsedJobs(db, now, JOB_LEASE_MS);
  for (const job of lapsed) {
    if (job.state === "cancel_requested") {
      await finishCanceled(db, job);
      result.canceled++;
    } else if (job.attempts >= MAX_JOB_ATTEMPTS) {
      await finishJob(env, job, null, "failed", "svc.jobs.attempts_exhausted", attemptsExhaustedMessage(job.attempts));
      result.failed++;
    } else {
      if (await requeueLapsed(db, job.id, now, JOB_LEASE_MS)) {
        await enqueueJob(env, job);
        result.requeued++;
      }
    }
  }
  return result;
}
