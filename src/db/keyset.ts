import { and, desc, eq, lt, lte, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { PageRequest } from "../platform/pagination";
import type { Database } from "./client";

/**
 * Keyset paging for lists ordered newest first by (created_at, id): rows of the page's snapshot that come after
 * the cursor's last row. Every list uses this pair with `newestFirst`, so a cursor means the same everywhere.
 */
export function pageWindow(createdAt: SQLiteColumn, id: SQLiteColumn, page: Pick<PageRequest, "snapshot" | "after">) {
  const after = page.after;
  return and(
    lte(createdAt, page.snapshot),
    after ? or(lt(createdAt, after.createdAt), and(eq(createdAt, after.createdAt), lt(id, after.id))) : undefined,
  );
}

export function newestFirst(createdAt: SQLiteColumn, id: SQLiteColumn) {
  return [desc(createdAt), desc(id)] as const;
}

/** A table listed by keyset: its rows carry the (created_at, id) pair a cursor names. */
type Listed = SQLiteTable & { createdAt: SQLiteColumn; id: SQLiteColumn };

/**
 * One page of `table`'s rows matching `where`: newest first, within the page's window, `limit + 1` rows so that
 * `pageOf` can tell whether a next page exists.
 */
export function keysetPage<T extends Listed>(
  db: Database,
  table: T,
  where: SQL | undefined,
  page: Pick<PageRequest, "snapshot" | "after" | "limit">,
): Promise<T["$inferSelect"][]> {
  return db
    .select()
    .from(table)
    .where(and(where, pageWindow(table.createdAt, table.id, page)))
    .orderBy(...newestFirst(table.createdAt, table.id))
    .limit(page.limit + 1);
}
