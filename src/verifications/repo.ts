import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { keysetPage } from "../db/keyset";
import { assets, tenants, verificationReports, verificationRequests, verificationShares, verifications } from "../db/schema";
import { insertStatement } from "../db/statements";
import { tenantRow } from "../db/tenant-row";
import type { D1Rides } from "../platform/d1-rides";
import type { PageRequest } from "../platform/pagination";
import { MAX_MATCHES } from "../soft-bindings/repo";

/*
 * Every D1 statement of the verification area: records (`verifications`), stored-object requests
 * (`verification_requests`), reports and shares, and the asset/object reads a verification's subject needs.
 * Tenant-scoped reads always filter by tenant; only the share-token lookup is global (the token is the credential).
 */

export type VerificationRow = typeof verifications.$inferSelect;
export type VerificationInsert = typeof verifications.$inferInsert;
export type RequestRow = typeof verificationRequests.$inferSelect;
export type ReportRow = typeof verificationReports.$inferSelect;
export type ShareRow = typeof verificationShares.$inferSelect;
type Page = Pick<PageRequest, "snapshot" | "after" | "limit">;

// ── verification records ─────────────────────────────────────────────────────────────────────────────────────

export function findVerification(db: Database, tenantId: string, id: string): Promise<VerificationRow | null> {
  return tenantRow(db, verifications, tenantId, id);
}

/** The tenant's newest record of this active manifest label. */
export async function latestVerificationOfManifest(db: Database, tenantId: string, manifestId: string): Promise<VerificationRow | null> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.tenantId, tenantId), eq(verifications.manifestId, manifestId)))
    .orderBy(desc(verifications.createdAt))
    .limit(1);
  return row ?? null;
}

/** Every keyed verify stores one: the statement is built once per row shape (db/statements.ts), not per call. */
export async function insertVerification(db: Database, row: VerificationInsert): Promise<void> {
  await insertStatement(db, verifications, [row]).run();
}

/** One page (limit + 1 rows, for the next cursor) of the tenant's records, newest first. */
export function listVerifications(
  db: Database,
  tenantId: string,
  filter: { overall?: VerificationRow["overall"] | undefined; subjectType?: VerificationRow["subjectType"] | undefined },
  page: Page,
): Promise<VerificationRow[]> {
  const where = and(
    eq(verifications.tenantId, tenantId),
    filter.overall ? eq(verifications.overall, filter.overall) : undefined,
    filter.subjectType ? eq(verifications.subjectType, filter.subjectType) : undefined,
  );
  return keysetPage(db, verifications, where, page);
}

// ── subjects: published objects (single assets and objects are read through the assets repo) ──────────────────

/** The sidecar object id of the asset whose published output is this object, if any asset publishes it. */
export async function publishedSidecarOf(
  db: Database,
  tenantId: string,
  objectId: string,
): Promise<{ sidecarObjectId: string | null } | null> {
  const [row] = await db
    .select({ sidecarObjectId: assets.sidecarObjectId })
    .from(assets)
    .where(and(eq(assets.tenantId, tenantId), eq(assets.publishedObjectId, objectId)))
    .limit(1);
  return row ?? null;
}

/** Publication times of those of `publicationIds` still published (any tenant: a publication's time is public). */
export async function publishedAtOf(d1: D1Database, publicationIds: string[]): Promise<Map<string, number | null>> {
  const rows = await d1
    .prepare(
      `SELECT publication_id, published_at FROM assets WHERE status = 'published' AND publication_id IN (${publicationIds.map(() => "?").join(", ")})`,
    )
    .bind(...publicationIds)
    .all<{ publication_id: string; published_at: number | null }>();
  return new Map(rows.results.map((r) => [r.publication_id, r.published_at]));
}

/**
 * The state publishedAtOf reads, of the publications the exact index lookups `exact` answer (soft-bindings/repo.ts
 * indexMatches: the same rows, order and limit), as one statement for the lookup's own D1 batch (one snapshot).
 * Every publication it considered has a row, published or not, so a caller knows which ids it answers for: an id
 * without a row (a PDQ candidate, or a lookup whose text drifted from this one) is read with publishedAtOf.
 */
export function exactPublicationsStateStatement(
  d1: D1Database,
  exact: { algorithm: string; bitsHex: string; limit: number }[],
): { statement: D1PreparedStatement; read(result: D1Result | undefined): PublicationsState } | null {
  if (exact.length === 0) return null;
  const lookup =
    "SELECT * FROM (SELECT sb.publication_id FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id WHERE sb.algorithm = ? AND sb.bits = ? ORDER BY sb.created_at ASC, sb.publication_id ASC LIMIT ?)";
  const statement = d1
    .prepare(
      `WITH c AS (${exact.map(() => lookup).join(" UNION ALL ")})
       SELECT c.publication_id, p.published_at, p.publication_id IS NOT NULL AS published
         FROM c LEFT JOIN assets p ON p.publication_id = c.publication_id AND p.status = 'published'`,
    )
    .bind(...exact.flatMap((q) => [q.algorithm, q.bitsHex, Math.max(1, Math.min(MAX_MATCHES, Math.floor(q.limit)))]));
  return {
    statement,
    read(result) {
      const considered = new Set<string>();
      const publishedAt = new Map<string, number | null>();
      for (const row of (result?.results ?? []) as { publication_id: string; published_at: number | null; published: number }[]) {
        considered.add(row.publication_id);
        if (row.published) publishedAt.set(row.publication_id, row.published_at);
      }
      return { considered, publishedAt };
    },
  };
}

/** Publications' state as publishedAtOf reads it, for the ids in `considered` only. */
export interface PublicationsState {
  considered: Set<string>;
  publishedAt: Map<string, number | null>;
}

// ── stored-object verification requests ──────────────────────────────────────────────────────────────────────

export function findRequest(db: Database, tenantId: string, id: string): Promise<RequestRow | null> {
  return tenantRow(db, verificationRequests, tenantId, id);
}

export async function insertRequest(db: Database, row: RequestRow): Promise<void> {
  await db.insert(verificationRequests).values(row);
}

export async function markRequestRunning(db: Database, id: string, attempts: number, now: number): Promise<void> {
  await db.update(verificationRequests).set({ state: "running", attempts, updatedAt: now }).where(eq(verificationRequests.id, id));
}

/** Fails a request still open (queued or running); a terminal one is left as it is. */
export async function failOpenRequest(db: Database, id: string, code: string, message: string, now: number): Promise<void> {
  await db
    .update(verificationRequests)
    .set({ state: "failed", errorCode: code, errorMessage: message, updatedAt: now, completedAt: now })
    .where(and(eq(verificationRequests.id, id), inArray(verificationRequests.state, ["queued", "running"])));
}

/** The stored-object record a completion writes (its subject type, job and policy are fixed). */
export interface StoredRecord {
  id: string;
  tenantId: string;
  overall: string;
  assetId: string | null;
  objectId: string;
  sourceByteLength: number;
  sourceMediaType: string;
  validationPath: string | null;
  evidence: string;
  status: string;
  statusVocabularyVersion: string;
  manifestId: string | null;
  now: number;
}

/**
 * The record and the request's completion as one batch; the insert is conditional on the request still being
 * open, so a redelivered message never writes twice.
 */
export async function completeRequest(d1: D1Database, r: StoredRecord): Promise<void> {
  const open = "EXISTS (SELECT 1 FROM verification_requests WHERE id = ? AND state IN ('queued', 'running'))";
  await d1.batch([
    d1
      .prepare(
        `INSERT INTO verifications (id, tenant_id, subject_type, overall, asset_id, job_id, object_id, policy_version, source_byte_length, source_media_type, validation_path, evidence, status, status_vocabulary_version, manifest_id, created_at, validated_at)
       SELECT ?, ?, 'stored_object', ?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${open}`,
      )
      .bind(
        r.id,
        r.tenantId,
        r.overall,
        r.assetId,
        r.objectId,
        r.sourceByteLength,
        r.sourceMediaType,
        r.validationPath,
        r.evidence,
        r.status,
        r.statusVocabularyVersion,
        r.manifestId,
        r.now,
        r.now,
        r.id,
      ),
    d1
      .prepare(
        "UPDATE verification_requests SET state = 'completed', updated_at = ?, completed_at = ? WHERE id = ? AND state IN ('queued', 'running')",
      )
      .bind(r.now, r.now, r.id),
  ]);
}

/** Open requests not touched since `before` (at most 100). */
export function staleRequests(db: Database, before: number): Promise<RequestRow[]> {
  return db
    .select()
    .from(verificationRequests)
    .where(and(inArray(verificationRequests.state, ["queued", "running"]), lt(verificationRequests.updatedAt, before)))
    .limit(100);
}

export async function touchRequests(db: Database, ids: string[], now: number): Promise<void> {
  await db.update(verificationRequests).set({ updatedAt: now }).where(inArray(verificationRequests.id, ids));
}

// ── reports ──────────────────────────────────────────────────────────────────────────────────────────────────

export async function insertReport(db: Database, row: ReportRow): Promise<ReportRow> {
  const [inserted] = await db.insert(verificationReports).values(row).returning();
  return inserted!;
}

export function findReport(db: Database, tenantId: string, id: string): Promise<ReportRow | null> {
  return tenantRow(db, verificationReports, tenantId, id);
}

// ── shares ───────────────────────────────────────────────────────────────────────────────────────────────────

/** One page (limit + 1 rows) of a verification's shares, newest first. */
export function listShares(db: Database, tenantId: string, verificationId: string, page: Page): Promise<ShareRow[]> {
  const where = and(eq(verificationShares.tenantId, tenantId), eq(verificationShares.verificationId, verificationId));
  return keysetPage(db, verificationShares, where, page);
}

export async function insertShare(db: Database, row: ShareRow): Promise<ShareRow> {
  const [inserted] = await db.insert(verificationShares).values(row).returning();
  return inserted!;
}

/** Closes a share (only the first close sets closed_at) and reads it back; null when the tenant has no such share. */
export async function closeShare(db: Database, tenantId: string, shareId: string, now: number): Promise<ShareRow | null> {
  const where = and(eq(verificationShares.tenantId, tenantId), eq(verificationShares.id, shareId));
  await db
    .update(verificationShares)
    .set({ closedAt: now })
    .where(and(where, isNull(verificationShares.closedAt)));
  const [row] = await db.select().from(verificationShares).where(where).limit(1);
  return row ?? null;
}

/** The share whose token hashes to `tokenHash` (any tenant) and its tenant's status. */
export async function shareByTokenHash(db: Database, tokenHash: string) {
  const [found] = await db
    .select({ share: verificationShares, tenantStatus: tenants.status })
    .from(verificationShares)
    .innerJoin(tenants, eq(tenants.id, verificationShares.tenantId))
    .where(eq(verificationShares.tokenHash, tokenHash))
    .limit(1);
  return found ?? null;
}

// ── pixel memos (pixel-memo.ts) ──────────────────────────────────────────────────────────────────────────────

export interface PixelMemoRow {
  publication_id: string;
  media_type: string;
  pixels_sha256: string;
  version: number;
  facts: string;
  measured_at: number;
}

/** The memo of the publication whose active manifest's claim signature has this digest (global: a fact about bytes). */
export async function findPixelMemo(d1: D1Database, signatureSha256: string, rides?: D1Rides): Promise<PixelMemoRow | null> {
  const statement = d1
    .prepare(
      "SELECT publication_id, media_type, pixels_sha256, version, facts, measured_at FROM verify_pixel_memos WHERE signature_sha256 = ?",
    )
    .bind(signatureSha256);
  if (!rides) return statement.first<PixelMemoRow>();
  const [result] = await rides.send([statement]);
  return (result?.results[0] as PixelMemoRow | undefined) ?? null;
}

/** Whether a publication has its memo at `version` (the fill's idempotence: a redelivered follow-up measures nothing). */
export async function hasPixelMemo(d1: D1Database, publicationId: string, version: number): Promise<boolean> {
  const row = await d1
    .prepare("SELECT 1 AS one FROM verify_pixel_memos WHERE publication_id = ? AND version = ? LIMIT 1")
    .bind(publicationId, version)
    .first();
  return row !== null;
}

/**
 * Stores a publication's memo, only while the publication still has a soft binding (a deletion that landed first
 * leaves nothing behind; the trigger of migration 0040 removes it with the bindings afterwards). Replaces a memo of
 * the same signature (a new version).
 */
export async function putPixelMemo(d1: D1Database, row: PixelMemoRow & { signature_sha256: string }): Promise<boolean> {
  const result = await d1
    .prepare(
      `INSERT OR REPLACE INTO verify_pixel_memos (signature_sha256, publication_id, media_type, pixels_sha256, version, facts, measured_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM soft_bindings WHERE publication_id = ?2)`,
    )
    .bind(row.signature_sha256, row.publication_id, row.media_type, row.pixels_sha256, row.version, row.facts, row.measured_at)
    .run();
  return (result.meta.changes ?? 0) > 0;
}
