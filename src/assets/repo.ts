import { and, count, eq, gte, inArray, isNotNull, lt, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { keysetPage } from "../db/keyset";
import { assets, jobs, legalHolds, objects, verifications } from "../db/schema";
import type { PageRequest } from "../platform/pagination";

export type AssetRow = typeof assets.$inferSelect;

export interface AssetFilters {
  kind?: string | undefined;
  status?: string | undefined;
  media?: string | undefined;
  from?: number | undefined;
  recipe_id?: string | undefined;
  verification_outcome?: string | undefined;
}

function filtered(tenantId: string, f: AssetFilters, snapshot: number) {
  return and(
    eq(assets.tenantId, tenantId),
    lte(assets.createdAt, snapshot),
    f.kind ? eq(assets.kind, f.kind) : undefined,
    f.status ? eq(assets.status, f.status as AssetRow["status"]) : undefined,
    f.media ? sql`lower(${assets.mediaType}) = lower(${f.media})` : undefined,
    f.from !== undefined ? gte(assets.createdAt, f.from) : undefined,
    f.recipe_id ? eq(assets.publishedRecipeId, f.recipe_id) : undefined,
    f.verification_outcome
      ? sql`EXISTS (SELECT 1 FROM ${verifications} WHERE ${verifications.assetId} = ${assets.id} AND ${verifications.tenantId} = ${assets.tenantId} AND ${verifications.overall} = ${f.verification_outcome})`
      : undefined,
  );
}

export async function listAssets(db: Database, tenantId: string, f: AssetFilters, page: PageRequest) {
  const where = filtered(tenantId, f, page.snapshot);
  const [rows, [total]] = await Promise.all([keysetPage(db, assets, where, page), db.select({ n: count() }).from(assets).where(where)]);
  return { rows, total: total?.n ?? 0 };
}

export function assetJobs(db: Database, tenantId: string, assetId: string, page: PageRequest) {
  return keysetPage(db, jobs, and(eq(jobs.tenantId, tenantId), eq(jobs.assetId, assetId)), page);
}

export function assetVerifications(db: Database, tenantId: string, assetId: string, page: PageRequest) {
  return keysetPage(db, verifications, and(eq(verifications.tenantId, tenantId), eq(verifications.assetId, assetId)), page);
}

/** One asset of the tenant, or null. */
export async function getAsset(db: Database, tenantId: string, assetId: string) {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.tenantId, tenantId), eq(assets.id, assetId)))
    .limit(1);
  return row ?? null;
}

export async function objectOf(db: Database, tenantId: string, objectId: string) {
  const [row] = await db
    .select()
    .from(objects)
    .where(and(eq(objects.tenantId, tenantId), eq(objects.id, objectId)))
    .limit(1);
  return row ?? null;
}

/** Published assets whose retention has passed, at most `limit`; an asset under an active legal hold (on it or its account) is skipped. */
export async function assetsPastRetention(db: Database, now: number, limit: number) {
  return db
    .select({ id: assets.id, tenantId: assets.tenantId, publicationId: assets.publicationId })
    .from(assets)
    .where(
      and(
        eq(assets.status, "published"),
        isNotNull(assets.retentionUntil),
        lt(assets.retentionUntil, now),
        sql`NOT EXISTS (SELECT 1 FROM ${legalHolds} WHERE ${legalHolds.tenantId} = ${assets.tenantId} AND ${legalHolds.releasedAt} IS NULL AND (${legalHolds.scope} = 'account' OR ${legalHolds.assetId} = ${assets.id}))`,
      ),
    )
    .limit(limit);
}

/** The R2 keys of every object stored for an asset. */
export async function objectKeysOf(db: Database, tenantId: string, assetId: string) {
  const stored = await db
    .select({ key: objects.r2Key })
    .from(objects)
    .where(and(eq(objects.tenantId, tenantId), eq(objects.assetId, assetId)));
  return stored.map((o) => o.key);
}

/** The ids of every job of an asset (their R2 prefixes hold step outputs no `objects` row names). */
export async function jobIdsOfAsset(db: Database, tenantId: string, assetId: string): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.assetId, assetId)));
  return rows.map((r) => r.id);
}

/** published → retention_expired; an asset no longer published is left as it is. */
export async function markRetentionExpired(db: Database, assetId: string, now: number) {
  await db
    .update(assets)
    .set({ status: "retention_expired", updatedAt: now })
    .where(and(inArray(assets.id, [assetId]), eq(assets.status, "published")));
}
