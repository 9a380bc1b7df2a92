import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { newestFirst, pageWindow } from "../db/keyset";
import { assets, jobSteps, jobs } from "../db/schema";

export type JobRow = typeof jobs.$inferSelect;
export type JobStepRow = typeof jobSteps.$inferSelect;

export async function getJob(db: Database, tenantId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)))
    .limit(1);
  return row ?? null;
}

export async function stepsOf(db: Database, jobIds: string[]) {
  if (jobIds.length === 0) return new Map<string, JobStepRow[]>();
  const rows = await db.select().from(jobSteps).where(inArray(jobSteps.jobId, jobIds)).orderBy(asc(jobSteps.position));
  const byJob = new Map<string, JobStepRow[]>();
  for (const row of rows) byJob.set(row.jobId, [...(byJob.get(row.jobId) ?? []), row]);
  return byJob;
}

export async function listJobs(
  db: Database,
  tenantId: string,
  filters: { kind?: string | undefined; state?: string | undefined },
  page: { snapshot: number; after: { createdAt: number; id: string } | null; limit: number },
) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.tenantId, tenantId),
        pageWindow(jobs.createdAt, jobs.id, page),
        filters.kind ? eq(jobs.kind, filters.kind as JobRow["kind"]) : undefined,
        filters.state ? eq(jobs.state, filters.state as JobRow["state"]) : undefined,
      ),
    )
    .orderBy(...newestFirst(jobs.createdAt, jobs.id))
    .limit(page.limit + 1);
}

export async function getAsset(db: Database, tenantId: string, assetId: string) {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.tenantId, tenantId), eq(assets.id, assetId)))
    .limit(1);
  return row ?? null;
}
