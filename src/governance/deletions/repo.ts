import { and, asc, eq, inArray, isNotNull, isNull, lt, notInArray, or } from "drizzle-orm";
import type { Database } from "../../db/client";
import { keysetPage } from "../../db/keyset";
import { apiKeys, assets, creatorIdentities, governanceDeletions, jobs, tenants, uploads } from "../../db/schema";
import { tenantRow } from "../../db/tenant-row";
import { TERMINAL_STATES } from "../../jobs/schemas";
import { forgetCachedKeys } from "../../platform/auth/key-cache";
import type { PageRequest } from "../../platform/pagination";

/** A governance_deletions row (invariants on the table in db/schema.ts). */
export type DeletionRow = typeof governanceDeletions.$inferSelect;
/** Rows (or stored objects) removed per kind. Invariant: every count is a whole number ≥ 0. */
export type RemovedCounts = Record<string, number>;

const OPEN = ["queued", "running"] as const;

// ── deletion records ────────────────────────────────────────────────────────────────────────────────────────

export function findDeletion(db: Database, tenantId: string, id: string): Promise<DeletionRow | null> {
  return tenantRow(db, governanceDeletions, tenantId, id);
}

export function listDeletions(db: Database, tenantId: string, state: DeletionRow["state"] | undefined, page: PageRequest) {
  const where = and(eq(governanceDeletions.tenantId, tenantId), state ? eq(governanceDeletions.state, state) : undefined);
  return keysetPage(db, governanceDeletions, where, page);
}

/** The queued or running deletion of this target, if any. */
export async function openDeletionOf(db: Database, tenantId: string, target: string): Promise<DeletionRow | null> {
  const [row] = await db
    .select()
    .from(governanceDeletions)
    .where(
      and(
        eq(governanceDeletions.tenantId, tenantId),
        eq(governanceDeletions.target, target),
        inArray(governanceDeletions.state, [...OPEN]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Inserts a deletion. A queued one loses to an open deletion of the same target (the partial unique index):
 * false then, and the caller answers with the open one.
 */
export async function insertDeletion(db: Database, row: typeof governanceDeletions.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(governanceDeletions).values(row).onConflictDoNothing().returning({ id: governanceDeletions.id });
  return inserted.length === 1;
}

/**
 * Open deletions nobody has touched since `before` (their message was never sent, or the queue gave it up): the
 * sweep sends them again. Oldest first, at most `limit` (the sweep stays bounded).
 */
export function staleOpenDeletions(db: Database, before: number, limit: number): Promise<DeletionRow[]> {
  return db
    .select()
    .from(governanceDeletions)
    .where(and(inArray(governanceDeletions.state, [...OPEN]), lt(governanceDeletions.updatedAt, before)))
    .orderBy(asc(governanceDeletions.updatedAt))
    .limit(limit);
}

/**
 * Touches an open deletion about to be sent again, only if nobody touched it since it was read (`seenUpdatedAt`):
 * of two sweeps, or a sweep and a retried POST, one sends. True when this caller should send.
 */
export async function touchOpen(db: Database, id: string, seenUpdatedAt: number, now: number): Promise<boolean> {
  const done = await db
    .update(governanceDeletions)
    .set({ updatedAt: now })
    .where(
      and(eq(governanceDeletions.id, id), inArray(governanceDeletions.state, [...OPEN]), eq(governanceDeletions.updatedAt, seenUpdatedAt)),
    )
    .returning({ id: governanceDeletions.id });
  return done.length === 1;
}

/** Terminal deletions finished before `before` whose outcome audit is still owed (at most `limit`). */
export function owedAudits(db: Database, before: number, limit: number): Promise<DeletionRow[]> {
  return db
    .select()
    .from(governanceDeletions)
    .where(
      and(isNotNull(governanceDeletions.completedAt), isNull(governanceDeletions.auditedAt), lt(governanceDeletions.completedAt, before)),
    )
    .orderBy(asc(governanceDeletions.completedAt))
    .limit(limit);
}

/**
 * Claims a terminal deletion's owed audit for this caller: true for one caller at a time (a claim older than
 * `leaseMs` is taken over: its holder died). Never true once the audit is recorded, so it is appended once.
 */
export async function claimAudit(db: Database, id: string, now: number, leaseMs: number): Promise<boolean> {
  const done = await db
    .update(governanceDeletions)
    .set({ auditClaimedAt: now })
    .where(
      and(
        eq(governanceDeletions.id, id),
        isNotNull(governanceDeletions.completedAt),
        isNull(governanceDeletions.auditedAt),
        or(isNull(governanceDeletions.auditClaimedAt), lt(governanceDeletions.auditClaimedAt, now - leaseMs)),
      ),
    )
    .returning({ id: governanceDeletions.id });
  return done.length === 1;
}

/** The owed audit is recorded (`ok`), or its append failed and the claim is let go for a later try. */
export async function settleAuditClaim(db: Database, id: string, ok: boolean, now: number) {
  await db
    .update(governanceDeletions)
    .set(ok ? { auditedAt: now, auditClaimedAt: null } : { auditClaimedAt: null })
    .where(eq(governanceDeletions.id, id));
}

/** queued → running (also counts the attempt); a terminal deletion is left alone (false). */
export async function markRunning(db: Database, id: string, now: number): Promise<boolean> {
  const [row] = await db
    .select({ attempts: governanceDeletions.attempts })
    .from(governanceDeletions)
    .where(and(eq(governanceDeletions.id, id), inArray(governanceDeletions.state, [...OPEN])));
  if (!row) return false;
  await db
    .update(governanceDeletions)
    .set({ state: "running", attempts: row.attempts + 1, updatedAt: now })
    .where(and(eq(governanceDeletions.id, id), inArray(governanceDeletions.state, [...OPEN])));
  return true;
}

export async function setPhase(db: Database, id: string, phase: string, now: number) {
  await db.update(governanceDeletions).set({ phase, updatedAt: now }).where(eq(governanceDeletions.id, id));
}

/** An open deletion becomes terminal; false when it already was (a redelivered message). */
export async function finishDeletion(
  db: Database,
  id: string,
  state: "completed" | "refused" | "failed",
  fields: { reasonCode?: string | null; legalHoldId?: string | null },
  now: number,
): Promise<boolean> {
  const done = await db
    .update(governanceDeletions)
    .set({
      state,
      // Omitted fields keep what the row holds (a completed account deletion keeps the late hold it noted).
      ...(fields.reasonCode !== undefined ? { reasonCode: fields.reasonCode } : {}),
      ...(fields.legalHoldId !== undefined ? { legalHoldId: fields.legalHoldId } : {}),
      completedAt: now,
      updatedAt: now,
    })
    .where(and(eq(governanceDeletions.id, id), inArray(governanceDeletions.state, [...OPEN])))
    .returning({ id: governanceDeletions.id });
  return done.length === 1;
}

/** Names a hold placed after the account was closed on the (still running) deletion it came too late to stop. */
export async function noteLateHold(db: Database, id: string, legalHoldId: string, now: number) {
  await db
    .update(governanceDeletions)
    .set({ legalHoldId, updatedAt: now })
    .where(and(eq(governanceDeletions.id, id), isNull(governanceDeletions.legalHoldId), inArray(governanceDeletions.state, [...OPEN])));
}

/** Adds counts to the record (a read-modify-write: only the deletion's own single consumer writes it). */
export async function addRemoved(db: Database, id: string, counts: RemovedCounts, now: number) {
  const nonZero = Object.entries(counts).filter(([, n]) => n > 0);
  if (nonZero.length === 0) return;
  const [row] = await db.select({ removed: governanceDeletions.removed }).from(governanceDeletions).where(eq(governanceDeletions.id, id));
  if (!row) return;
  const total = JSON.parse(row.removed) as RemovedCounts;
  for (const [kind, n] of nonZero) total[kind] = (total[kind] ?? 0) + n;
  await db
    .update(governanceDeletions)
    .set({ removed: JSON.stringify(total), updatedAt: now })
    .where(eq(governanceDeletions.id, id));
}

/** Whether an account deletion of the tenant is queued or running, and whether one of this asset is. */
export async function pendingDeletions(db: Database, tenantId: string, assetId: string | null) {
  const targets = assetId ? ["account", assetId] : ["account"];
  const rows = await db
    .select({ target: governanceDeletions.target })
    .from(governanceDeletions)
    .where(
      and(
        eq(governanceDeletions.tenantId, tenantId),
        inArray(governanceDeletions.target, targets),
        inArray(governanceDeletions.state, [...OPEN]),
      ),
    );
  return { account: rows.some((r) => r.target === "account"), asset: assetId !== null && rows.some((r) => r.target === assetId) };
}

// ── what a deletion removes ─────────────────────────────────────────────────────────────────────────────────

export async function assetExists(db: Database, tenantId: string, assetId: string): Promise<boolean> {
  return (await tenantRow(db, assets, tenantId, assetId)) !== null;
}

/** Up to `limit` asset ids of the tenant, oldest first (an account deletion's next batch). */
export async function assetIdsOf(db: Database, tenantId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: assets.id })
    .from(assets)
    .where(eq(assets.tenantId, tenantId))
    .orderBy(asc(assets.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The asset's jobs that are not terminal yet (they must be cancelled and stopped before anything is removed). */
export async function openJobIdsOf(db: Database, tenantId: string, assetId: string): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.assetId, assetId), notInArray(jobs.state, [...TERMINAL_STATES])));
  return rows.map((r) => r.id);
}

/** The asset's multipart uploads still open in R2 (their parts are not objects yet: they must be aborted). */
export async function openMultipartUploadsOf(db: Database, tenantId: string, assetId: string) {
  const rows = await db
    .select({ key: uploads.r2Key, uploadId: uploads.multipartUploadId })
    .from(uploads)
    .where(
      and(eq(uploads.tenantId, tenantId), eq(uploads.assetId, assetId), eq(uploads.mode, "multipart"), eq(uploads.status, "initiated")),
    );
  return rows.filter((r): r is { key: string; uploadId: string } => r.uploadId !== null);
}

/** Every R2 key an asset's rows name: its objects, its uploads' keys, its preview; and its jobs (for their prefixes). */
export async function storedKeysOf(d1: D1Database, tenantId: string, assetId: string) {
  const [objectKeys, uploadKeys, asset, jobIds] = await d1.batch<{ k: string | null }>([
    d1.prepare("SELECT r2_key AS k FROM objects WHERE tenant_id = ? AND asset_id = ?").bind(tenantId, assetId),
    d1.prepare("SELECT r2_key AS k FROM uploads WHERE tenant_id = ? AND asset_id = ?").bind(tenantId, assetId),
    d1.prepare("SELECT publication_id AS k FROM assets WHERE tenant_id = ? AND id = ?").bind(tenantId, assetId),
    d1.prepare("SELECT id AS k FROM jobs WHERE tenant_id = ? AND asset_id = ?").bind(tenantId, assetId),
  ]);
  const keys = new Set<string>();
  for (const r of [...objectKeys!.results, ...uploadKeys!.results]) if (r.k) keys.add(r.k);
  const publicationId = asset!.results[0]?.k ?? null;
  return { keys: [...keys], publicationId, jobIds: jobIds!.results.map((r) => r.k!).filter(Boolean) };
}

/**
 * Removes an asset's rows in one D1 transaction, children before parents: fingerprint bands and soft bindings (the
 * recovery index), verifications of the asset or its objects with their reports and shares, receipts, job steps,
 * webhook events about the asset with their deliveries and attempts, capture admissions, jobs, uploads, objects,
 * and last the asset. The publication is recorded as deleted (its log entry stays). Every statement is scoped to
 * the tenant. Returns the rows removed per kind; a second run removes nothing (idempotent). Within an account
 * deletion (`tenantWide`), verifications and webhook records are left to `purgeAccountRows`, which removes all of
 * them at once: searching them per asset would cost a scan of the tenant's rows for every asset. With
 * `respectHolds`, nothing is removed while an active hold covers the asset, and `heldBy` names that hold; without
 * it (an account deletion past its point of no return) holds are not consulted.
 */
export async function purgeAssetRows(
  d1: D1Database,
  tenantId: string,
  assetId: string,
  publicationId: string | null,
  deletionId: string,
  now: number,
  tenantWide = false,
  respectHolds = true,
): Promise<{ counts: RemovedCounts; heldBy: string | null }> {
  const T = tenantId;
  const A = assetId;
  // An active hold covering the asset (account-wide or on it) turns every statement into a no-op: the batch is one
  // transaction, so a hold placed after the caller's check either keeps all of the asset's rows or none.
  const coveringHold = "FROM legal_holds WHERE tenant_id = ?1 AND released_at IS NULL AND (scope = 'account' OR asset_id = ?2)";
  const unheld = respectHolds ? ` AND NOT EXISTS (SELECT 1 ${coveringHold})` : "";
  const objectsOfAsset = "SELECT id FROM objects WHERE tenant_id = ?1 AND asset_id = ?2";
  const verificationsOfAsset = `SELECT id FROM verifications WHERE tenant_id = ?1 AND (asset_id = ?2 OR object_id IN (${objectsOfAsset}))`;
  const eventsOfAsset =
    "SELECT id FROM webhook_events WHERE tenant_id = ?1 AND json_valid(body) AND json_extract(body, '$.data.asset_id') = ?2";
  const deliveriesOfAsset = `SELECT id FROM webhook_deliveries WHERE tenant_id = ?1 AND event_id IN (${eventsOfAsset})`;
  const steps: [string, string][] = [
    [
      "pdq_bands",
      "DELETE FROM pdq_bands WHERE publication_id IN (SELECT publication_id FROM soft_bindings WHERE tenant_id = ?1 AND asset_id = ?2)",
    ],
    [
      "pdq_regions",
      "DELETE FROM pdq_regions WHERE publication_id IN (SELECT publication_id FROM soft_bindings WHERE tenant_id = ?1 AND asset_id = ?2)",
    ],
    [
      "chromaprint_frames",
      "DELETE FROM chromaprint_frames WHERE publication_id IN (SELECT publication_id FROM soft_bindings WHERE tenant_id = ?1 AND asset_id = ?2)",
    ],
    [
      "video_frames",
      "DELETE FROM video_frames WHERE publication_id IN (SELECT publication_id FROM soft_bindings WHERE tenant_id = ?1 AND asset_id = ?2)",
    ],
    ["soft_bindings", "DELETE FROM soft_bindings WHERE tenant_id = ?1 AND asset_id = ?2"],
    ["verification_reports", `DELETE FROM verification_reports WHERE tenant_id = ?1 AND verification_id IN (${verificationsOfAsset})`],
    ["verification_shares", `DELETE FROM verification_shares WHERE tenant_id = ?1 AND verification_id IN (${verificationsOfAsset})`],
    ["verification_requests", `DELETE FROM verification_requests WHERE tenant_id = ?1 AND object_id IN (${objectsOfAsset})`],
    ["verifications", `DELETE FROM verifications WHERE tenant_id = ?1 AND id IN (${verificationsOfAsset})`],
    ["receipts", "DELETE FROM receipts WHERE tenant_id = ?1 AND asset_id = ?2"],
    ["job_steps", "DELETE FROM job_steps WHERE tenant_id = ?1 AND job_id IN (SELECT id FROM jobs WHERE tenant_id = ?1 AND asset_id = ?2)"],
    ["webhook_attempts", `DELETE FROM webhook_attempts WHERE tenant_id = ?1 AND delivery_id IN (${deliveriesOfAsset})`],
    ["webhook_deliveries", `DELETE FROM webhook_deliveries WHERE tenant_id = ?1 AND id IN (${deliveriesOfAsset})`],
    ["webhook_events", `DELETE FROM webhook_events WHERE tenant_id = ?1 AND id IN (${eventsOfAsset})`],
    ["capture_admissions", "DELETE FROM capture_admissions WHERE tenant_id = ?1 AND asset_id = ?2"],
    ["jobs", "DELETE FROM jobs WHERE tenant_id = ?1 AND asset_id = ?2"],
    ["uploads", "DELETE FROM uploads WHERE tenant_id = ?1 AND asset_id = ?2"],
    ["objects", "DELETE FROM objects WHERE tenant_id = ?1 AND asset_id = ?2"],
  ];
  const perAssetOnly = new Set([
    "verification_reports",
    "verification_shares",
    "verification_requests",
    "verifications",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_events",
  ]);
  const chosen = tenantWide ? steps.filter(([kind]) => !perAssetOnly.has(kind)) : steps;
  const statements = chosen.map(([, sql]) => d1.prepare(sql + unheld).bind(T, A));
  if (publicationId) {
    statements.push(
      d1
        .prepare(
          "INSERT OR IGNORE INTO deleted_publications (publication_id, tenant_id, deletion_id, deleted_at) SELECT ?3, ?1, ?4, ?5 WHERE EXISTS (SELECT 1 FROM assets WHERE tenant_id = ?1 AND id = ?2)" +
            unheld,
        )
        .bind(T, A, publicationId, deletionId, now),
    );
  }
  statements.push(d1.prepare(`DELETE FROM assets WHERE tenant_id = ?1 AND id = ?2${unheld}`).bind(T, A));
  const assetsAt = statements.length - 1;
  statements.push(d1.prepare(`SELECT id ${coveringHold} ORDER BY placed_at LIMIT 1`).bind(T, A));
  const results = await d1.batch<{ id: string }>(statements);
  const counts: RemovedCounts = {};
  chosen.forEach(([kind], i) => {
    counts[kind] = results[i]!.meta.changes ?? 0;
  });
  counts.assets = results[assetsAt]!.meta.changes ?? 0;
  const heldBy = respectHolds ? (results[assetsAt + 1]!.results[0]?.id ?? null) : null;
  return { counts, heldBy };
}

/** The tenant's creator identities not yet erased (erased through the creators area's own rule). */
export async function unerasedCreatorIds(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: creatorIdentities.id, status: creatorIdentities.status })
    .from(creatorIdentities)
    .where(eq(creatorIdentities.tenantId, tenantId));
  return rows.filter((r) => r.status !== "erased").map((r) => r.id);
}

/**
 * Closes the account: every key revoked (they answer 401 from now on) and the tenant marked deleted (403 for any
 * credential that still resolves to it), its name and contact e-mail removed.
 */
export async function closeAccount(db: Database, tenantId: string, now: number): Promise<{ apiKeys: number }> {
  const revoked = await db
    .update(apiKeys)
    .set({ status: "revoked", revokedAt: now, revokedBy: "account_deletion" })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.status, "active")))
    .returning({ id: apiKeys.id });
  await db.update(tenants).set({ status: "deleted", name: "deleted", contactEmail: null }).where(eq(tenants.id, tenantId));
  forgetCachedKeys({ tenantId }); // this isolate refuses the keys from now on; others within the key cache's bound
  return { apiKeys: revoked.length };
}

/**
 * Removes the rest of an account's rows once its assets are gone: webhook endpoints and every event, delivery and
 * attempt; capture identities, enrolments and challenges; verifications not tied to an asset with their requests,
 * reports and shares; the creator disclosure policy; idempotency records (they hold past responses), request logs,
 * released cursors; console users marked deleted with their e-mails erased; and last the tenant data key (whatever was sealed under it can no longer be opened). Kept:
 * the audit log, billing records (charges, wallet transactions, the billing account), legal holds, deletions.
 */
export async function purgeAccountRows(d1: D1Database, tenantId: string): Promise<RemovedCounts> {
  const tables: [string, string][] = [
    ["webhook_attempts", "DELETE FROM webhook_attempts WHERE tenant_id = ?1"],
    ["webhook_deliveries", "DELETE FROM webhook_deliveries WHERE tenant_id = ?1"],
    ["webhook_events", "DELETE FROM webhook_events WHERE tenant_id = ?1"],
    ["webhook_endpoints", "DELETE FROM webhook_endpoints WHERE tenant_id = ?1"],
    ["capture_admission_challenges", "DELETE FROM capture_admission_challenges WHERE tenant_id = ?1"],
    ["capture_admissions", "DELETE FROM capture_admissions WHERE tenant_id = ?1"],
    ["capture_identities", "DELETE FROM capture_identities WHERE tenant_id = ?1"],
    ["capture_identity_enrollments", "DELETE FROM capture_identity_enrollments WHERE tenant_id = ?1"],
    ["verification_reports", "DELETE FROM verification_reports WHERE tenant_id = ?1"],
    ["verification_shares", "DELETE FROM verification_shares WHERE tenant_id = ?1"],
    ["verification_requests", "DELETE FROM verification_requests WHERE tenant_id = ?1"],
    ["verifications", "DELETE FROM verifications WHERE tenant_id = ?1"],
    ["creator_disclosure_policies", "DELETE FROM creator_disclosure_policies WHERE tenant_id = ?1"],
    ["idempotency_records", "DELETE FROM idempotency_records WHERE tenant_id = ?1"],
    ["api_request_logs", "DELETE FROM api_request_logs WHERE tenant_id = ?1"],
    ["released_traversals", "DELETE FROM released_traversals WHERE tenant_id = ?1"],
    ["uploads", "DELETE FROM uploads WHERE tenant_id = ?1"],
    // Console users keep their row as deleted (like a user the identity provider deleted: the subject cannot sign
    // in and provision again under the closed account), their sealed e-mail and its blind index erased. It erases
    // whatever the status (a deleted user still holding an e-mail is erased again); the identity callback never
    // writes to a deleted user (applyIdpEvent), so a racing e-mail change cannot re-store one after this.
    [
      "users",
      "UPDATE users SET status = 'deleted', email_sealed = NULL, email_data_key_id = NULL, email_index = NULL, updated_at = CAST(strftime('%s','now') AS INTEGER) * 1000 WHERE tenant_id = ?1 AND (status <> 'deleted' OR email_index IS NOT NULL)",
    ],
    ["tenant_data_keys", "DELETE FROM tenant_data_keys WHERE tenant_id = ?1"],
  ];
  const results = await d1.batch(tables.map(([, sql]) => d1.prepare(sql).bind(tenantId)));
  const counts: RemovedCounts = {};
  tables.forEach(([kind], i) => {
    counts[kind] = results[i]!.meta.changes ?? 0;
  });
  return counts;
}

/** Keys of jobs whose assets are already gone cannot be named by rows: the account's R2 prefix is swept instead. */
export function accountPrefix(tenantId: string): string {
  return `t/${tenantId}/`;
}
