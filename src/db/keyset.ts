import { and, desc, eq, lt, lte, or } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { PageRequest } from "../platform/pagination";

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
