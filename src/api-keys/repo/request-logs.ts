import { and, count, desc, eq, gte, lt, lte, max, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiRequestLogs } from "../../db/schema";
import { insertStatement } from "../../db/statements";

/** Request logs are kept this long, then swept. */
export const REQUEST_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type ApiRequestLogRow = typeof apiRequestLogs.$inferSelect;

export type RequestLogInsert = typeof apiRequestLogs.$inferInsert;

/** D1 binds at most 100 values per statement; a row binds 8. */
const ROWS_PER_STATEMENT = 12;

/**
 * Best effort, in one D1 batch: a log already written for a request id is left as it is. Each statement is built
 * once per number of rows (and properties given) and bound per call (db/statements.ts): drizzle building the insert
 * cost 10–22 ms of CPU per flush, taken from the requests that follow it on the same thread.
 */
export async function insertRequestLogs(db: Database, rows: RequestLogInsert[]) {
  const statements = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    statements.push(insertStatement(db, apiRequestLogs, rows.slice(i, i + ROWS_PER_STATEMENT), { onConflictDoNothing: true }));
  }
  if (statements.length > 0) await db.$client.batch(statements);
}

export async function sweepRequestLogs(db: Database, now = Date.now()) {
  await db.delete(apiRequestLogs).where(lt(apiRequestLogs.createdAt, now - REQUEST_LOG_RETENTION_MS));
}

/** Newest first, keyset-paginated on (created_at, request_id), bounded by the snapshot time the traversal started at. */
export async function listRequestLogs(
  db: Database,
  tenantId: string,
  apiKeyId: string | undefined,
  page: { snapshot: number; after: { createdAt: number; id: string } | null; limit: number },
) {
  const after = page.after;
  return db
    .select()
    .from(apiRequestLogs)
    .where(
      and(
        eq(apiRequestLogs.tenantId, tenantId),
        apiKeyId ? eq(apiRequestLogs.apiKeyId, apiKeyId) : undefined,
        lte(apiRequestLogs.createdAt, page.snapshot),
        after
          ? or(
              lt(apiRequestLogs.createdAt, after.createdAt),
              and(eq(apiRequestLogs.createdAt, after.createdAt), lt(apiRequestLogs.requestId, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(apiRequestLogs.createdAt), desc(apiRequestLogs.requestId))
    .limit(page.limit + 1);
}

/** Counts since `start` by status class and by operation (most used first). */
export async function summarizeRequestLogs(db: Database, tenantId: string, apiKeyId: string | undefined, start: number) {
  const where = and(
    eq(apiRequestLogs.tenantId, tenantId),
    apiKeyId ? eq(apiRequestLogs.apiKeyId, apiKeyId) : undefined,
    gte(apiRequestLogs.createdAt, start),
  );
  const [byClass, byOperation] = await Promise.all([
    db
      .select({ cls: sql<number>`${apiRequestLogs.status} / 100`, n: count() })
      .from(apiRequestLogs)
      .where(where)
      .groupBy(sql`${apiRequestLogs.status} / 100`),
    db
      .select({ method: apiRequestLogs.method, operation: apiRequestLogs.operation, n: count(), last: max(apiRequestLogs.createdAt) })
      .from(apiRequestLogs)
      .where(where)
      .groupBy(apiRequestLogs.method, apiRequestLogs.operation)
      .orderBy(desc(count())),
  ]);
  return { byClass, byOperation };
}
