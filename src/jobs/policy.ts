/*
 * The runner's time and retry limits, shared by the runner and the cron sweep (which enforces them on jobs whose
 * runner died).
 */

/**
 * How long a run holds its job without news (each finished step renews it). A job still `running` past its
 * lease lost its runner (the isolate crashed, or the queue gave its message up): the cron sweep takes it back.
 */
export const JOB_LEASE_MS = 15 * 60 * 1000;
/** Runs a job may start; at the next start, or when the sweep finds its lease lapsed, it fails (attempts_exhausted). */
export const MAX_JOB_ATTEMPTS = 6;
/** An accepted or queued job not started within this long after admission expires instead of running. */
export const JOB_START_DEADLINE_MS = 24 * 60 * 60 * 1000;

export const attemptsExhaustedMessage = (attempts: number) =>
  `The job's steps stopped before finishing on each of its ${attempts} attempts (the worker crashed or ran out of time); nothing was published.`;
export const startDeadlineMessage = () =>
  `The job did not start within ${JOB_START_DEADLINE_MS / 3_600_000} hours of admission; nothing was published.`;
