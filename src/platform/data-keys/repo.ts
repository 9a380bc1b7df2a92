import { and, asc, eq, gt, ne } from "drizzle-orm";
import type { Database } from "../../db/client";
import { tenantDataKeys } from "../../db/schema";

/** A tenant_data_keys row. Invariant: `wrapped` opens only under master key `masterKeyId` with this row's AAD. */
export type DataKeyRow = typeof tenantDataKeys.$inferSelect;

export async function findTenantDataKey(db: Database, tenantId: string): Promise<DataKeyRow | null> {
  return (await db.select().from(tenantDataKeys).where(eq(tenantDataKeys.tenantId, tenantId)).get()) ?? null;
}

export async function findDataKey(db: Database, dataKeyId: string): Promise<DataKeyRow | null> {
  return (await db.select().from(tenantDataKeys).where(eq(tenantDataKeys.id, dataKeyId)).get()) ?? null;
}

/** Inserts the tenant's data key unless one exists (one per tenant: a concurrent first use keeps the first). */
export async function insertDataKeyIfAbsent(db: Database, row: typeof tenantDataKeys.$inferInsert): Promise<void> {
  await db.insert(tenantDataKeys).values(row).onConflictDoNothing();
}

/** Data keys not wrapped by `currentMasterKeyId`, in id order after `afterId` (a bounded batch). */
export async function dataKeysNotUnder(db: Database, currentMasterKeyId: string, afterId: string, limit: number): Promise<DataKeyRow[]> {
  return db
    .select()
    .from(tenantDataKeys)
    .where(and(ne(tenantDataKeys.masterKeyId, currentMasterKeyId), gt(tenantDataKeys.id, afterId)))
    .orderBy(asc(tenantDataKeys.id))
    .limit(limit);
}

/** Replaces the wrapping of one data key, only if it is still wrapped by `fromMasterKeyId` (a concurrent rewrap wins once). */
export async function rewrapDataKey(
  db: Database,
  row: { id: string; fromMasterKeyId: string; toMasterKeyId: string; wrapped: string },
  now: number,
): Promise<boolean> {
  const updated = await db
    .update(tenantDataKeys)
    .set({ masterKeyId: row.toMasterKeyId, wrapped: row.wrapped, rewrappedAt: now })
    .where(and(eq(tenantDataKeys.id, row.id), eq(tenantDataKeys.masterKeyId, row.fromMasterKeyId)))
    .returning({ id: tenantDataKeys.id });
  return updated.length === 1;
}
