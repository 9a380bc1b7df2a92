import { and, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { keysetPage } from "../../db/keyset";
import { governanceExports } from "../../db/schema";
import type { PageRequest } from "../../platform/pagination";

export type ExportRow = typeof governanceExports.$inferSelect;
export type ExportState = ExportRow["state"];

/** Inserts a queued export; null when the tenant already has one queued or running (the partial unique index). */
export async function insertExport(db: Database, row: typeof governanceExports.$inferInsert): Promise<ExportRow | null> {
  const rows = await db.insert(governanceExports).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function findExport(db: Database, tenantId: string, id: string): Promise<ExportRow | null> {
  const rows = await db
    .select()
    .from(governanceExports)
    .where(and(eq(governanceExports.tenantId, tenantId), eq(governanceExports.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** The tenant's queued or running export, if any. */
export async function activeExport(db: Database, tenantId: string): Promise<ExportRow | null> {
  const rows = await db
    .select()
    .from(governanceExports)
    .where(and(eq(governanceExports.tenantId, tenantId), or(eq(governanceExports.state, "queued"), eq(governanceExports.state, "running"))))
    .limit(1);
  return rows[0] ?? null;
}

export function listExports(db: Database, tenantId: string, filters: { state?: ExportState | undefined }, page: PageRequest) {
  const where: SQL[] = [eq(governanceExports.tenantId, tenantId)];
  if (filters.state) where.push(eq(governanceExports.state, filters.state));
  return keysetPage(db, governanceExports, and(...where), page);
}

/**
 * Takes the export for one attempt: a queued one, or a running one whose lease lapsed (its worker is presumed dead).
 * Null when another attempt holds it or it is finished. The returned `attempts` names this attempt: later writes
 * of the attempt are guarded by it, so a presumed-dead attempt that wakes up changes nothing.
 */
export async function claimExport(db: Database, id: string, now: number, leaseUntil: number): Promise<ExportRow | null> {
  const rows = await db
    .update(governanceExports)
    .set({ state: "running", leaseUntil, startedAt: now, updatedAt: now, attempts: sql`${governanceExports.attempts} + 1` })
    .where(
      and(
        eq(governanceExports.id, id),
        or(eq(governanceExports.state, "queued"), and(eq(governanceExports.state, "running"), lt(governanceExports.leaseUntil, now))),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

function mine(id: string, attempt: number) {
  return and(eq(governanceExports.id, id), eq(governanceExports.state, "running"), eq(governanceExports.attempts, attempt));
}

/** Records the attempt's multipart upload (so a restart or a failure can abort it) and extends its lease. */
export async function updateAttempt(
  db: Database,
  id: string,
  attempt: number,
  fields: { multipartUploadId?: string | null; manifestUploadId?: string | null; leaseUntil: number },
  now: number,
): Promise<boolean> {
  const rows = await db
    .update(governanceExports)
    .set({ ...fields, updatedAt: now })
    .where(mine(id, attempt))
    .returning({ id: governanceExports.id });
  return rows.length > 0;
}

/** running → completed, only for the attempt that holds the export. */
export async function markCompleted(
  db: Database,
  id: string,
  attempt: number,
  fields: Pick<ExportRow, "r2Key" | "counts" | "fileCount" | "byteLength" | "archiveSha256" | "manifestSha256" | "signature" | "expiresAt">,
  now: number,
): Promise<boolean> {
  const rows = await db
    .update(governanceExports)
    .set({
      ...fields,
      state: "completed",
      completedAt: now,
      leaseUntil: null,
      multipartUploadId: null,
      manifestUploadId: null,
      updatedAt: now,
    })
    .where(mine(id, attempt))
    .returning({ id: governanceExports.id });
  return rows.length > 0;
}

/** queued | running → failed with a reason code (only this attempt's, when named); false when it was already finished. */
export async function markFailed(db: Database, id: string, attempt: number | null, errorCode: string, now: number): Promise<boolean> {
  const open = or(eq(governanceExports.state, "queued"), eq(governanceExports.state, "running"));
  const rows = await db
    .update(governanceExports)
    .set({
      state: "failed",
      errorCode,
      completedAt: now,
      leaseUntil: null,
      multipartUploadId: null,
      manifestUploadId: null,
      updatedAt: now,
    })
    .where(attempt === null ? and(eq(governanceExports.id, id), open) : mine(id, attempt))
    .returning({ id: governanceExports.id });
  return rows.length > 0;
}

/** running → queued after a transient failure of this attempt: the retried message (or the sweep) starts over. */
export async function releaseAttempt(db: Database, id: string, attempt: number, now: number): Promise<void> {
  await db
    .update(governanceExports)
    .set({ state: "queued", leaseUntil: null, multipartUploadId: null, manifestUploadId: null, updatedAt: now })
    .where(mine(id, attempt));
}

/** Exports the sweep puts back on the queue: queued and untouched for `quietMs`, or running past their lease. */
export async function staleExports(db: Database, now: number, quietMs: number, limit: number): Promise<ExportRow[]> {
  return db
    .select()
    .from(governanceExports)
    .where(
      or(
        and(eq(governanceExports.state, "queued"), lt(governanceExports.updatedAt, now - quietMs)),
        and(eq(governanceExports.state, "running"), lt(governanceExports.leaseUntil, now)),
      ),
    )
    .limit(limit);
}

/** Completed exports whose archive is due for deletion. */
export async function dueForExpiry(db: Database, now: number, limit: number): Promise<ExportRow[]> {
  return db
    .select()
    .from(governanceExports)
    .where(and(eq(governanceExports.state, "completed"), lt(governanceExports.expiresAt, now)))
    .limit(limit);
}

/** completed → expired, once its archive is deleted. */
export async function markExpired(db: Database, id: string, now: number): Promise<void> {
  await db
    .update(governanceExports)
    .set({ state: "expired", updatedAt: now })
    .where(and(eq(governanceExports.id, id), eq(governanceExports.state, "completed")));
}

/** By id alone: for the Worker-served download, whose signed URL (not a tenant's key) is the authority. */
export async function exportById(db: Database, id: string): Promise<ExportRow | null> {
  const rows = await db.select().from(governanceExports).where(eq(governanceExports.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Marks the export's end as appended to the audit log; false when it already was (the caller appended a second time). */
export async function markAudited(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(governanceExports)
    .set({ audited: true })
    .where(and(eq(governanceExports.id, id), eq(governanceExports.audited, false)))
    .returning({ id: governanceExports.id });
  return rows.length > 0;
}

/**
 * Finished exports whose end is not yet in the audit log and finished before `before` (the sweep leaves the attempt
 * that just finished time to append it itself). Reads the partial index on unaudited rows.
 */
export async function unauditedExports(db: Database, before: number, limit: number): Promise<ExportRow[]> {
  return db
    .select()
    .from(governanceExports)
    .where(
      and(
        // Literal, as the partial index states it, so SQLite can use the index.
        sql`audited = 0`,
        lt(governanceExports.completedAt, before),
        inArray(governanceExports.state, ["completed", "failed", "expired"]),
      ),
    )
    .limit(limit);
}

/** A tenant's exports a deletion ends: queued, running, or completed with an archive still kept. */
export async function liveExports(db: Database, tenantId: string): Promise<ExportRow[]> {
  return db
    .select()
    .from(governanceExports)
    .where(and(eq(governanceExports.tenantId, tenantId), inArray(governanceExports.state, ["queued", "running", "completed"])));
}

/** completed → expired before its time, with the reason in `error_code` (its archive is being deleted). */
export async function markExpiredEarly(db: Database, id: string, reason: string, now: number): Promise<boolean> {
  const rows = await db
    .update(governanceExports)
    .set({ state: "expired", errorCode: reason, expiresAt: now, updatedAt: now })
    .where(and(eq(governanceExports.id, id), eq(governanceExports.state, "completed")))
    .returning({ id: governanceExports.id });
  return rows.length > 0;
}
