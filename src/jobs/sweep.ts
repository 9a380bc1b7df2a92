import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { database } from "../db/client";
import { jobs } from "../db/schema";
import type { Bindings } from "../env";
import {
  attemptsExhaustedMessage,
  enqueueJob,
  finishCanceled,
  finishJob,
  JOB_LEASE_MS,
  JOB_START_DEADLINE_MS,
  MAX_JOB_ATTEMPTS,
  startDeadlineMessage,
} from "./runner";

export { JOB_LEASE_MS, JOB_START_DEADLINE_MS, MAX_JOB_ATTEMPTS };

/** A queued job untouched for this long lost its queue message (or the send failed): send it again. */
export const STALE_QUEUED_MS = 2 * 60 * 1000;

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
}

/**
 * Cron: no job waits forever. An accepted or queued job whose message was lost is sent again, or expires past
 * the start deadline; a running job whose lease lapsed (its runner died, or the queue gave its message up) is
 * queued again, or fails with `svc.jobs.attempts_exhausted` (and `job.failed`) once its attempts are spent; a
 * cancellation whose runner died is finished. Each move is conditional on the state read, so a runner that
 * comes back, or a second sweep, changes nothing twice.
 */
export async function requeueStaleJobs(env: Bindings, now = Date.now()): Promise<JobSweepResult> {
  const db = database(env.DB);
  const result: JobSweepResult = { sent: 0, requeued: 0, failed: 0, expired: 0, canceled: 0 };

  const unstarted = await db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, ["accepted", "queued"]), lt(jobs.updatedAt, now - STALE_QUEUED_MS)))
    .limit(100);
  for (const job of unstarted) {
    if (job.attempts === 0 && job.createdAt < now - JOB_START_DEADLINE_MS) {
      await finishJob(env, job, null, "expired", "svc.jobs.expired", startDeadlineMessage());
      result.expired++;
      continue;
    }
    await enqueueJob(env, job);
    // Queued now, and touched so the next sweep waits another full period before sending again.
    await db
      .update(jobs)
      .set({ state: "queued", updatedAt: now })
      .where(and(eq(jobs.id, job.id), inArray(jobs.state, ["accepted", "queued"])));
    result.sent++;
  }

  const leaseLapsed = or(lt(jobs.leaseExpiresAt, now), and(isNull(jobs.leaseExpiresAt), lt(jobs.updatedAt, now - JOB_LEASE_MS)));
  const lapsed = await db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, ["running", "cancel_requested"]), leaseLapsed))
    .limit(100);
  for (const job of lapsed) {
    if (job.state === "cancel_requested") {
      await finishCanceled(db, job);
      result.canceled++;
    } else if (job.attempts >= MAX_JOB_ATTEMPTS) {
      await finishJob(env, job, null, "failed", "svc.jobs.attempts_exhausted", attemptsExhaustedMessage(job.attempts));
      result.failed++;
    } else {
      const taken = await db
        .update(jobs)
        .set({ state: "queued", leaseExpiresAt: null, updatedAt: now })
        .where(and(eq(jobs.id, job.id), eq(jobs.state, "running"), leaseLapsed))
        .returning({ id: jobs.id });
      if (taken.length === 1) {
        await enqueueJob(env, job);
        result.requeued++;
      }
    }
  }
  return result;
}
