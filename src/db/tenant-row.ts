import { and, eq } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

/** A table of tenant-owned rows: each carries its tenant and an id unique within the table. */
type TenantOwned = SQLiteTable & { tenantId: SQLiteColumn; id: SQLiteColumn };

/**
 * The tenant's row of `table` with this id, or null: another tenant's row is never found (it answers exactly like
 * a missing one).
 */
export async function tenantRow<T extends TenantOwned>(
  db: Database,
  table: T,
  tenantId: string,
  id: string,
): Promise<T["$inferSelect"] | null> {
  const [row] = await db
    .select()
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)))
    .limit(1);
  return row ?? null;
}
