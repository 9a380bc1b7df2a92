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
  return publicationsStateOf(
    d1,
    exact.map((q) => ({ algorithm: q.algorithm, bitsSql: "?", bitsBinds: [q.bitsHex], limit: q.limit })),
  );
}

/** The exact lookup of indexMatches (soft-bindings/repo.ts) without a filter, its value given by `bitsSql`. */
const EXACT_FROM = "FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id";
const EXACT_ORDER = "ORDER BY sb.created_at ASC, sb.publication_id ASC LIMIT ?";

function boundedLimit(limit: number): number {
  return Math.max(1, Math.min(MAX_MATCHES, Math.floor(limit)));
}

interface KeyedLookup {
  algorithm: string;
  /** The SQL of the looked-up value: `?` (bound from `bitsBinds`) or a scalar subquery. */
  bitsSql: string;
  bitsBinds: unknown[];
  limit: number;
}

function publicationsStateOf(
  d1: D1Database,
  lookups: KeyedLookup[],
): { statement: D1PreparedStatement; read(result: D1Result | undefined): PublicationsState } {
  const lookup = (q: KeyedLookup) =>
    `SELECT * FROM (SELECT sb.publication_id ${EXACT_FROM} WHERE sb.algorithm = ? AND sb.bits = ${q.bitsSql} ${EXACT_ORDER})`;
  const statement = d1
    .prepare(
      `WITH c AS (${lookups.map(lookup).join(" UNION ALL ")})
       SELECT c.publication_id, p.published_at, p.publication_id IS NOT NULL AS published
         FROM c LEFT JOIN assets p ON p.publication_id = c.publication_id AND p.status = 'published'`,
    )
    .bind(...lookups.flatMap((q) => [q.algorithm, ...q.bitsBinds, boundedLimit(q.limit)]));
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

/**
 * The value a memo's facts (verify_pixel_memos.facts, pixel-facts.ts ImagePixelFacts) give each exact lookup a
 * verification makes of them (verify-service.ts durableFacts): the watermark payload when the detector found one,
 * the ISCC code when it was computed. SQL over the memo row; NULL when the facts give none (or there is no memo).
 */
// `->>` raises on text that is not JSON (failing the whole batch): such facts give no value, as memoOf (pixel-memo.ts)
// refuses them; CASE evaluates its inner condition only once json_valid holds.
const MEMO_KEY_SQL = {
  watermark:
    "CASE WHEN json_valid(facts) THEN CASE WHEN facts ->> '$.watermark.status' = 'detected' THEN facts ->> '$.watermark.payload' END END",
  iscc: "CASE WHEN json_valid(facts) THEN CASE WHEN facts ->> '$.iscc.status' = 'computed' THEN facts ->> '$.iscc.bits' END END",
} as const;

/** The exact lookups a memo's facts call for, as sent before the memo is read (speculativeExactLookups). */
export interface SpeculativeExact {
  /** In the memo read's batch, in this order: the watermark lookup, the ISCC lookup, then the related state. */
  statements: D1PreparedStatement[];
  /**
   * What they answered, given the memo row read in the same batch (its `spec_*` columns: the values the lookups
   * used) and the statements' results. `keys[i]` is null where the memo gave no value (that lookup found nothing).
   */
  read(
    row: Pick<PixelMemoRow, "spec_watermark" | "spec_iscc"> | null,
    results: D1Result[],
  ): {
    keys: ({ algorithm: string; bitsHex: string; limit: number } | null)[];
    rows: { publication_id: string; manifest_label: string | null }[][];
    state: PublicationsState | null;
  };
}

/**
 * The exact index lookups (watermark payload, ISCC code) of a verification whose pixel facts come from the memo of
 * the claim signature `signatureSha256`, sent in the memo read's own D1 batch (#19): their values are read from
 * the memo row by D1 in that batch (MEMO_KEY_SQL), so the lookups need no second round trip. The statements are the
 * text of indexMatches' exact lookups (no filter: a verification's lookups are global) with the value a scalar
 * subquery; `withState`: the related publications' state of their rows rides too (exactPublicationsStateStatement).
 * A caller uses the answers only for lookups equal to those it would make of the memo it accepted (same algorithm,
 * value and limit); with no memo, or one without those facts, the values are NULL and the lookups read nothing.
 */
export function speculativeExactLookups(
  d1: D1Database,
  signatureSha256: string,
  lookups: { watermark: { algorithm: string; limit: number }; iscc: { algorithm: string; limit: number } },
  withState: boolean,
): SpeculativeExact {
  const keyed = (key: keyof typeof MEMO_KEY_SQL, q: { algorithm: string; limit: number }): KeyedLookup => ({
    algorithm: q.algorithm,
    bitsSql: `(SELECT ${MEMO_KEY_SQL[key]} FROM verify_pixel_memos WHERE signature_sha256 = ?)`,
    bitsBinds: [signatureSha256],
    limit: q.limit,
  });
  const both = [keyed("watermark", lookups.watermark), keyed("iscc", lookups.iscc)];
  const statements = both.map((q) =>
    d1
      .prepare(`SELECT sb.publication_id, a.manifest_label ${EXACT_FROM} WHERE sb.algorithm = ? AND sb.bits = ${q.bitsSql} ${EXACT_ORDER}`)
      .bind(q.algorithm, ...q.bitsBinds, boundedLimit(q.limit)),
  );
  const state = withState ? publicationsStateOf(d1, both) : null;
  if (state) statements.push(state.statement);
  return {
    statements,
    read(row, results) {
      const values = [row?.spec_watermark ?? null, row?.spec_iscc ?? null];
      return {
        keys: both.map((q, i) =>
          typeof values[i] === "string" ? { algorithm: q.algorithm, bitsHex: values[i] as string, limit: boundedLimit(q.limit) } : null,
        ),
        rows: both.map((_, i) => (results[i]?.results ?? []) as { publication_id: string; manifest_label: string | null }[]),
        state: state ? state.read(results[2]) : null,
      };
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
  /** The values of the exact lookups its facts call for, as D1 reads them (speculativeExactLookups); read only. */
  spec_watermark?: string | null;
  spec_iscc?: string | null;
}

/**
 * The memo of the publication whose active manifest's claim signature has this digest (global: a fact about bytes).
 * `also`: statements sent in the same batch (one snapshot), answered in order in `also`.
 */
export async function findPixelMemo(
  d1: D1Database,
  signatureSha256: string,
  rides?: D1Rides,
  also: D1PreparedStatement[] = [],
): Promise<{ row: PixelMemoRow | null; also: D1Result[] }> {
  const statement = d1
    .prepare(
      `SELECT publication_id, media_type, pixels_sha256, version, facts, measured_at, ${MEMO_KEY_SQL.watermark} AS spec_watermark, ${MEMO_KEY_SQL.iscc} AS spec_iscc FROM verify_pixel_memos WHERE signature_sha256 = ?`,
    )
    .bind(signatureSha256);
  const results = rides ? await rides.send([statement, ...also]) : await d1.batch([statement, ...also]);
  return { row: (results[0]?.results[0] as PixelMemoRow | undefined) ?? null, also: results.slice(1) };
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
