import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { releasedCursors } from "../db/schema";
import { CURSOR_TTL_MS } from "../platform/pagination";

/** A check for pageRequest: was this cursor's traversal released by its tenant? */
export function releasedCheck(db: Database, tenantId: string) {
  return async (mac: string) => {
    const [row] = await db.select({ mac: releasedCursors.mac }).from(releasedCursors).where(and(eq(releasedCursors.mac, mac), eq(releasedCursors.tenantId, tenantId))).limit(1);
    return Boolean(row);
  };
}

export async function releaseCursor(db: Database, tenantId: string, mac: string, now = Date.now()) {
  await db.insert(releasedCursors).values({ mac, tenantId, expiresAt: now + CURSOR_TTL_MS }).onConflictDoNothing();
}

/** Cron: a released cursor has expired by itself after the cursor lifetime, so its record can go. */
export async function sweepReleasedCursors(db: Database, now = Date.now()) {
  await db.delete(releasedCursors).where(lt(releasedCursors.expiresAt, now));
}
