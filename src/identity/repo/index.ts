import { and, count, eq, max } from "drizzle-orm";
import { liveKeySql } from "../../api-keys/repo";
import type { Database } from "../../db/client";
import { apiKeys, tenants } from "../../db/schema";
import { KEY_CACHE_MAX_ENTRIES, KEY_CACHE_TTL_MS } from "../../platform/auth/key-cache";
import { TtlCache } from "../../platform/ttl-cache";

export async function getTenant(db: Database, tenantId: string) {
  const rows = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return rows[0] ?? null;
}

/**
 * The account row as `GET /v1/me` shows it, remembered per isolate for as long as the key cache keeps a key record
 * (KEY_CACHE_TTL_MS): the account only changes when it is closed, which refuses its keys in this isolate at once
 * and everywhere within that same bound, so a stale row is never served longer than the key that reads it.
 */
const tenantRows = new TtlCache<NonNullable<Awaited<ReturnType<typeof getTenant>>>>(KEY_CACHE_TTL_MS, KEY_CACHE_MAX_ENTRIES);

export async function getTenantCached(db: Database, tenantId: string) {
  const hit = tenantRows.get(tenantId);
  if (hit) return hit.value;
  const epoch = tenantRows.epoch;
  const row = await getTenant(db, tenantId);
  if (row) tenantRows.set(tenantId, row, epoch);
  return row;
}

/** Keys that authenticate now: the same rule as the API-key view's `active` status. */
export async function keyStats(db: Database, tenantId: string, now = Date.now()) {
  const [row] = await db
    .select({ active: count(), newest: max(apiKeys.createdAt), lastUsed: max(apiKeys.lastUsedAt) })
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), liveKeySql("api_keys", now)));
  return { active: row?.active ?? 0, newestCreatedAt: row?.newest ?? null, lastUsedAt: row?.lastUsed ?? null };
}
