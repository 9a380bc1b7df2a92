import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { assets, objects } from "../db/schema";

/**
 * Cron: assets whose retention has passed lose their stored media (uploaded source, signed output, sidecar and
 * preview); the asset becomes `retention_expired` and its records (jobs, receipts, verifications) stay.
 * Bytes are deleted before the status changes, so a crash leaves the asset to be swept again, never half-kept.
 */
export async function sweepExpiredRetention(db: Database, bucket: R2Bucket, now = Date.now(), limit = 50): Promise<number> {
  const due = await db
    .select({ id: assets.id, tenantId: assets.tenantId, publicationId: assets.publicationId })
    .from(assets)
    .where(and(eq(assets.status, "published"), isNotNull(assets.retentionUntil), lt(assets.retentionUntil, now)))
    .limit(limit);
  for (const asset of due) {
    const stored = await db
      .select({ key: objects.r2Key })
      .from(objects)
      .where(and(eq(objects.tenantId, asset.tenantId), eq(objects.assetId, asset.id)));
    const keys = stored.map((o) => o.key);
    if (asset.publicationId) keys.push(`t/${asset.tenantId}/previews/${asset.publicationId}/512.jpg`);
    if (keys.length > 0) await bucket.delete(keys);
    await db
      .update(assets)
      .set({ status: "retention_expired", updatedAt: now })
      .where(and(inArray(assets.id, [asset.id]), eq(assets.status, "published")));
  }
  return due.length;
}
