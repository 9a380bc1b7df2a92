import { inArray } from "drizzle-orm";
import { database } from "../db/client";
import { jobs } from "../db/schema";
import type { Bindings } from "../env";
import { staleQueuedJobs } from "./queries";
import { enqueueJob } from "./runner";

/** A queued job untouched for this long lost its queue message (or the send failed): send it again. */
export const STALE_QUEUED_MS = 2 * 60 * 1000;

export async function requeueStaleJobs(env: Bindings, now = Date.now()) {
  const db = database(env.DB);
  const stale = await staleQueuedJobs(db, now - STALE_QUEUED_MS);
  for (const job of stale) await enqueueJob(env, job);
  // Touch them, so the next sweep waits another full period before sending again.
  if (stale.length > 0) await db.update(jobs).set({ updatedAt: now }).where(inArray(jobs.id, stale.map((j) => j.id)));
  return stale.length;
}
