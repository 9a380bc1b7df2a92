import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { releasedTraversals } from "../db/schema";
import { CURSOR_TTL_MS, type ReleaseCheck } from "../platform/pagination";

/*
 * Released traversals. A release names (tenant, traversal): the check reads only the tenant's own releases, so a
 * cursor of tenant A is never affected by anything tenant B does, and B cannot even name A's traversal (the
 * release route verifies the cursor's MAC for the caller's tenant first).
 */

/** Margin for a page that was being served as the release landed: its fresh cursor lives at most this longer. */
const IN_FLIGHT_MARGIN_MS = 5 * 60 * 1000;

/** The check pageRequest needs: was this traversal released by this tenant? */
export function releasedCheck(db: Database, tenantId: string): ReleaseCheck {
  return async (traversal) => {
    const [row] = await db
      .select({ traversal: releasedTraversals.traversal })
      .from(releasedTraversals)
      .where(and(eq(releasedTraversals.tenantId, tenantId), eq(releasedTraversals.traversal, traversal)))
      .limit(1);
    return Boolean(row);
  };
}

/**
 * Records the release. Every cursor of the traversal was issued before now and lives CURSOR_TTL_MS, so the record
 * can go once that (plus the in-flight margin) has passed. Releasing twice keeps the first record.
 */
export async function releaseTraversal(db: Database, tenantId: string, traversal: string, now = Date.now()) {
  await db
    .insert(releasedTraversals)
    .values({ tenantId, traversal, expiresAt: now + CURSOR_TTL_MS + IN_FLIGHT_MARGIN_MS })
    .onConflictDoNothing();
}

/** Cron: a released traversal's cursors have all expired by themselves, so its record can go. */
export async function sweepReleasedCursors(db: Database, now = Date.now()) {
  await db.delete(releasedTraversals).where(lt(releasedTraversals.expiresAt, now));
}
