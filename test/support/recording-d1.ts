import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Database } from "../../src/db/client";
import * as schema from "../../src/db/schema";

/*
 * For the tests that pin our once-built statements (src/db/statements.ts) to drizzle's own: a D1 stand-in that
 * records every bound statement, and drizzle's reference rendering of a query.
 */

export type Recorded = { sql: string; params: unknown[] };

/**
 * A D1 stand-in recording each bound statement's SQL and values, in order. `answer` gives a statement's result rows:
 * `index` is its place in a batch, or null for a statement run alone (`all`/`run`, not enumerable, so a recorded
 * statement compares as { sql, params }).
 */
export function recordingDb(answer: (sql: string, index: number | null) => Record<string, unknown>[] = () => []) {
  const statements: Recorded[] = [];
  const client = {
    prepare: (sql: string) => ({
      bind: (...params: unknown[]) => {
        const s = { sql, params };
        statements.push(s);
        const run = async () => ({ results: answer(sql, null), success: true, meta: {} });
        return Object.defineProperties(s, { all: { value: run }, run: { value: run } });
      },
    }),
    batch: async (batch: { sql: string }[]) => batch.map((s, i) => ({ results: answer(s.sql, i), success: true, meta: {} })),
  };
  const db = drizzle(client as unknown as D1Database, { schema }) as unknown as Database;
  return { db, statements };
}

/** drizzle without a database: only for rendering reference queries. */
export const reference = drizzle({} as D1Database, { schema });

/** A query's SQL text and bound values as drizzle renders them. */
export const sqlOf = (q: { toSQL(): Recorded }): Recorded => {
  const { sql, params } = q.toSQL();
  return { sql, params };
};

/** The job runner's guards as drizzle wrote them: the job held at this attempt, and not being cancelled. */
export const heldBy = (jobId: string, attempt: number) =>
  reference
    .select({ id: schema.jobs.id })
    .from(schema.jobs)
    .where(and(eq(schema.jobs.id, jobId), eq(schema.jobs.attempts, attempt)));
export const notCancelled = (jobId: string, attempt: number) =>
  reference
    .select({ id: schema.jobs.id })
    .from(schema.jobs)
    .where(and(eq(schema.jobs.id, jobId), eq(schema.jobs.attempts, attempt), isNull(schema.jobs.cancelRequestedAt)));
