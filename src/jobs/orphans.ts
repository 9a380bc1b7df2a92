import { database } from "../db/client";
import { failRun, finishRun, startRun } from "../derived-index/repo";
import type { Bindings } from "../env";
import { JOB_LEASE_MS } from "./policy";
import { referencesOf } from "./repo/orphans";

/*
 * The job-objects reconciler (#22). A job's steps write under keys of their own, `t/{tenant}/jobs/{job}/{step}/…`
 * (the same keys on every run, so a redelivered run overwrites what a dead one left), and record each object in
 * job_steps.output; the publication names the published ones in `objects`. A run that dies after a write and
 * before its record, in a job that then never runs again (cancelled, its attempts spent), leaves bytes no record
 * names: nothing else ever removes them (an asset deletion lists its jobs' prefixes; retention removes only what
 * `objects` names). This cron sweep does, a bounded slice per run.
 *
 * It lists the bucket under `t/` in key order from a cursor (the last key judged, kept in derived_index_runs like the
 * derived-index reconciler's), skipping each tenant's other prefixes (its uploads `o/`, `previews/`, `exports/`), and
 * wraps to the start at the end of the bucket.
 */

/** The reconciler's name in derived_index_runs. */
export const ORPHAN_RECONCILER = "job_objects";
/**
 * How old an unnamed object must be before it is removed: twice a job's lease. A run records its write within its
 * lease (each step renews it) or loses the job, so a write this old that no record names will never be recorded.
 */
export const ORPHAN_GRACE_MS = 2 * JOB_LEASE_MS;
/** Keys listed per page (each page is judged with one D1 batch) and pages per run: the run's bound. */
export const ORPHAN_PAGE_SIZE = 90;
export const ORPHAN_PAGES_PER_RUN = 10;

/** What one run did. */
export interface OrphanSweepReport {
  /** Keys listed under `t/` (job keys and others). */
  listed: number;
  /** Keys under a job's prefix. */
  jobKeys: number;
  removed: number;
  /** The listing reached the end of the bucket (the next run starts over). */
  passCompleted: boolean;
}

const JOB_KEY = /^t\/([^/]+)\/jobs\/([^/]+)\/./;

/**
 * Where the next page starts after `last`: inside a tenant's job prefix it continues; before it, it jumps to it;
 * past it, to the next tenant (the tenant's other objects are never listed page by page).
 */
export function nextStartAfter(last: string): string {
  const m = /^t\/([^/]+)\/(.*)$/s.exec(last);
  if (!m) return last;
  const [, tenant, rest] = m as unknown as [string, string, string];
  if (rest.startsWith("jobs/")) return last;
  // "t/T/jobs/" sorts before every key of the prefix, and no key equals it: listing after it starts the prefix.
  if (rest < "jobs/") return `t/${tenant}/jobs/`;
  // After every key of this tenant ("/" sorts below the characters of a tenant id, so T's keys end before T2's).
  return `t/${tenant}/\u{10FFFF}`;
}

/**
 * One bounded run. Invariant: an object is deleted only when all hold, as read in this run:
 * - its key is under a job's prefix `t/{tenant}/jobs/{job}/`;
 * - no `objects` row has it as r2_key, and no step record of any job names it (job_steps.output);
 * - its job is absent or has ended (an open job's next run rewrites, then records, the same key); a job whose
 *   step record cannot be read keeps all its objects;
 * - it was written more than ORPHAN_GRACE_MS (twice the job lease) before `now`, so a running job's fresh write is
 *   never taken, whatever its job's state reads.
 * Every other key is left alone. Records its progress (or its failure, then rethrows).
 */
export async function sweepJobOrphans(
  env: Pick<Bindings, "DB" | "OBJECTS">,
  now = Date.now(),
  bounds: { pageSize?: number; pages?: number } = {},
): Promise<OrphanSweepReport> {
  const db = database(env.DB);
  const run = await startRun(db, ORPHAN_RECONCILER, now);
  const report: OrphanSweepReport = { listed: 0, jobKeys: 0, removed: 0, passCompleted: false };
  let startAfter = run.bindingsCursor;
  try {
    for (let page = 0; page < (bounds.pages ?? ORPHAN_PAGES_PER_RUN); page++) {
      const listed = await env.OBJECTS.list({
        prefix: "t/",
        limit: bounds.pageSize ?? ORPHAN_PAGE_SIZE,
        ...(startAfter ? { startAfter } : {}),
      });
      report.listed += listed.objects.length;
      const candidates: { key: string; owner: string; tenantId: string; jobId: string }[] = [];
      for (const object of listed.objects) {
        const m = JOB_KEY.exec(object.key);
        if (!m) continue;
        report.jobKeys++;
        if (object.uploaded.getTime() > now - ORPHAN_GRACE_MS) continue;
        candidates.push({ key: object.key, owner: `${m[1]}/${m[2]}`, tenantId: m[1]!, jobId: m[2]! });
      }
      if (candidates.length > 0) {
        const jobs = [...new Map(candidates.map((c) => [c.owner, { tenantId: c.tenantId, jobId: c.jobId }])).values()];
        const refs = await referencesOf(
          env.DB,
          candidates.map((c) => c.key),
          jobs,
        );
        const orphans = candidates
          .filter((c) => !refs.objects.has(c.key) && !refs.steps.has(c.key) && !refs.open.has(c.owner))
          .map((c) => c.key);
        if (orphans.length > 0) await env.OBJECTS.delete(orphans);
        report.removed += orphans.length;
      }
      const last = listed.objects.at(-1)?.key;
      if (!listed.truncated || !last) {
        startAfter = "";
        report.passCompleted = true;
        break;
      }
      startAfter = nextStartAfter(last);
    }
    await finishRun(db, ORPHAN_RECONCILER, Date.now(), {
      bindingsCursor: startAfter,
      bandsCursor: "",
      scanned: report.listed,
      bindingsRemoved: report.removed,
      bandsRemoved: 0,
      passCompleted: report.passCompleted,
    });
    return report;
  } catch (error) {
    await failRun(db, ORPHAN_RECONCILER, Date.now()).catch(() => undefined);
    throw error;
  }
}
