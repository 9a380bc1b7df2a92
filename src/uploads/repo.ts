import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { assets, objects, uploads } from "../db/schema";

export type UploadRow = typeof uploads.$inferSelect;

export async function getUpload(db: Database, tenantId: string, uploadId: string) {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.tenantId, tenantId), eq(uploads.id, uploadId)))
    .limit(1);
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
 * Pins the object and completes the upload in one D1 transaction, only while the upload is still `initiated`:
 * the object row is written by the same statement sequence that moves the upload, so a concurrent abort (which
 * closes the upload before it deletes the bytes) or a second completion leaves no object record behind.
 * Returns whether this call completed the upload.
 */
export async function pinUpload(
  db: Database,
  upload: UploadRow,
  object: typeof objects.$inferInsert,
  asset: { kind: string; mediaType: string },
  now: number,
): Promise<boolean> {
  const d1 = db.$client;
  const open = "EXISTS (SELECT 1 FROM uploads WHERE id = ? AND status = 'initiated')";
  const results = await d1.batch([
    d1
      .prepare(
        `INSERT INTO objects (id, tenant_id, asset_id, role, r2_key, etag, byte_length, sha256, media_type, filename, inspection, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${open} ON CONFLICT DO NOTHING`,
      )
      .bind(
        object.id,
        object.tenantId,
        object.assetId,
        object.role,
        object.r2Key,
        object.etag,
        object.byteLength,
        object.sha256,
        object.mediaType,
        object.filename ?? null,
        object.inspection ?? null,
        object.createdAt,
        upload.id,
      ),
    d1
      .prepare(
        `UPDATE assets SET status = 'uploaded', kind = ?, media_type = ?, source_object_id = ?, updated_at = ? WHERE id = ? AND status = 'awaiting_upload' AND ${open}`,
      )
      .bind(asset.kind, asset.mediaType, object.id, now, upload.assetId, upload.id),
    d1.prepare("UPDATE uploads SET status = 'completed', completed_at = ? WHERE id = ? AND status = 'initiated'").bind(now, upload.id),
  ]);
  return (results[2]?.meta.changes ?? 0) === 1;
}

/** A multipart upload whose parts were spent on bytes that failed their checks: it can never complete. */
export async function failUpload(db: Database, upload: UploadRow, errorCode: string, now: number): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ status: "failed", errorCode })
    .where(and(eq(uploads.id, upload.id), eq(uploads.status, "initiated")))
    .returning({ id: uploads.id });
  if (rows.length === 1) {
    await db
      .update(assets)
      .set({ status: "upload_failed", updatedAt: now })
      .where(and(eq(assets.id, upload.assetId), eq(assets.status, "awaiting_upload")));
  }
  return rows.length === 1;
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
  return db
    .select()
    .from(uploads)
    .where(and(eq(uploads.status, "initiated"), lt(uploads.expiresAt, now)))
    .limit(limit);
}

/** Closed uploads (aborted, expired, failed) not yet swept whose URLs expired before `cutoff`; oldest first. */
export async function closedUnsweptUploads(db: Database, cutoff: number, limit = 100) {
  return db
    .select()
    .from(uploads)
    .where(and(inArray(uploads.status, ["aborted", "expired", "failed"]), isNull(uploads.sweptAt), lt(uploads.expiresAt, cutoff)))
    .orderBy(uploads.expiresAt)
    .limit(limit);
}

/** Whether an object row pins this R2 key (its bytes are a completed upload's or an output's). */
export async function keyIsPinned(db: Database, r2Key: string): Promise<boolean> {
  const [row] = await db.select({ id: objects.id }).from(objects).where(eq(objects.r2Key, r2Key)).limit(1);
  return row !== undefined;
}

/** Marks a closed upload swept; returns whether this call marked it (a concurrent sweep may have). */
export async function markUploadSwept(db: Database, uploadId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ sweptAt: now })
    .where(and(eq(uploads.id, uploadId), isNull(uploads.sweptAt), inArray(uploads.status, ["aborted", "expired", "failed"])))
    .returning({ id: uploads.id });
  return rows.length === 1;
}
