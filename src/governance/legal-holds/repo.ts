import { and, desc, eq, isNotNull, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { legalHolds } from "../../db/schema";
import type { PageRequest } from "../../platform/pagination";

/** A legal_holds row (invariants on the table in db/schema.ts). */
export type LegalHoldRow = typeof legalHolds.$inferSelect;

const active = isNull(legalHolds.releasedAt);

/**
 * The oldest active hold that covers a deletion target, or null. An asset is covered by an account hold or a hold
 * on that asset; the account (everything) is covered by any active hold of the tenant.
 */
export async function activeHoldCovering(db: Database, tenantId: string, assetId: string | null): Promise<LegalHoldRow | null> {
  const covers = assetId === null ? undefined : or(eq(legalHolds.scope, "account"), eq(legalHolds.assetId, assetId));
  const [row] = await db
    .select()
    .from(legalHolds)
    .where(and(eq(legalHolds.tenantId, tenantId), active, covers))
    .orderBy(legalHolds.placedAt)
    .limit(1);
  return row ?? null;
}

/** Whether an account-wide hold is active for the tenant. */
export async function accountHoldActive(db: Database, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: legalHolds.id })
    .from(legalHolds)
    .where(and(eq(legalHolds.tenantId, tenantId), eq(legalHolds.scope, "account"), active))
    .limit(1);
  return row !== undefined;
}

/** Newest placed first, keyset by (placed_at, id) within the page's snapshot; `limit + 1` rows. */
export function listHolds(db: Database, tenantId: string, status: "active" | "released" | undefined, page: PageRequest) {
  const where: (SQL | undefined)[] = [eq(legalHolds.tenantId, tenantId), lte(legalHolds.placedAt, page.snapshot)];
  if (status === "active") where.push(active);
  if (status === "released") where.push(isNotNull(legalHolds.releasedAt));
  const after = page.after;
  if (after) {
    where.push(or(lt(legalHolds.placedAt, after.createdAt), and(eq(legalHolds.placedAt, after.createdAt), lt(legalHolds.id, after.id))));
  }
  return db
    .select()
    .from(legalHolds)
    .where(and(...where))
    .orderBy(desc(legalHolds.placedAt), desc(legalHolds.id))
    .limit(page.limit + 1);
}

/** Whether an asset-scoped hold on this asset is active (an account hold is not counted here). */
export async function assetHoldActive(db: Database, tenantId: string, assetId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: legalHolds.id })
    .from(legalHolds)
    .where(and(eq(legalHolds.tenantId, tenantId), eq(legalHolds.scope, "asset"), eq(legalHolds.assetId, assetId), active))
    .limit(1);
  return row !== undefined;
}
