import { and, count, eq, max } from "drizzle-orm";
import { liveKeySql } from "../../api-keys/repo";
import type { Database } from "../../db/client";
import { apiKeys, tenants } from "../../db/schema";

export async function getTenant(db: Database, tenantId: string) {
  const rows = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return rows[0] ?? null;
}

/** Keys that authenticate now: the same rule as the API-key view's `active` status. */
export async function keyStats(db: Database, tenantId: string, now = Date.now()) {
  const [row] = await db
    .select({ active: count(), newest: max(apiKeys.createdAt), lastUsed: max(apiKeys.lastUsedAt) })
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), liveKeySql("api_keys", now)));
  return { active: row?.active ?? 0, newestCreatedAt: row?.newest ?? null, lastUsedAt: row?.lastUsed ?? null };
}
