import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { assets, objects, uploads } from "../db/schema";

export type UploadRow = typeof uploads.$inferSelect;

export async function getUpload(db: Database, tenantId: string, uploadId: string) {
  const [row] = await db.select().from(uploads).where(and(eq(uploads.tenantId, tenantId), eq(uploads.id, uploadId))).limit(1);
  return row ?? null;
}

/** For the storage routes, which are authorized by the capability rather than a tenant credential. */
export async function getUploadById(db: Database, uploadId: string) {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId)).limit(1);
  return row ?? null;
}

export async function insertUploadWithAsset(db: Database, upload: typeof uploads.$inferInsert, asset: typeof assets.$inferInsert) {
  await db.batch([db.insert(assets).values(asset), db.insert(uploads).values(upload)]);
}

/**
 * Pins the object and completes the upload in one batch; the conditional update makes a concurrent second
 * completion a no-op (it then reads the completed row).
 */
export async function pinUpload(
  db: Database,
  upload: UploadRow,
  object: typeof objects.$inferInsert,
  asset: { kind: string; mediaType: string },
  now: number,
) {
  await db.batch([
    db.insert(objects).values(object).onConflictDoNothing(),
    db
      .update(uploads)
      .set({ status: "completed", completedAt: now })
      .where(and(eq(uploads.id, upload.id), eq(uploads.status, "initiated"))),
    db
      .update(assets)
      .set({ status: "uploaded", kind: asset.kind, mediaType: asset.mediaType, sourceObjectId: object.id, updatedAt: now })
      .where(and(eq(assets.id, upload.assetId), eq(assets.status, "awaiting_upload"))),
  ]);
}

export async function closeUpload(db: Database, upload: UploadRow, status: "aborted" | "expired", now: number) {
  const rows = await db
    .update(uploads)
    .set({ status })
    .where(and(eq(uploads.id, upload.id), eq(uploads.status, "initiated")))
    .returning({ id: uploads.id });
  if (rows.length === 1) {
    await db
      .update(assets)
      .set({ status: status === "aborted" ? "upload_aborted" : "upload_expired", updatedAt: now })
      .where(and(eq(assets.id, upload.assetId), eq(assets.status, "awaiting_upload")));
  }
  return rows.length === 1;
}

export async function expiredUploads(db: Database, now: number, limit = 100) {
  return db.select().from(uploads).where(and(eq(uploads.status, "initiated"), lt(uploads.expiresAt, now))).limit(limit);
}
