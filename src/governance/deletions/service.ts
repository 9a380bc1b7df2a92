import { eraseCreator } from "../../creators/service";
import type { Database } from "../../db/client";
import { database } from "../../db/client";
import type { Bindings } from "../../env";
import { cancelJob } from "../../jobs/service";
import { resetOverviewAggregate } from "../../overview/repo";
import { recordAudit } from "../../platform/audit";
import { newId } from "../../platform/ids";
import { log } from "../../platform/logger";
import { iso } from "../../platform/openapi";
import { holdCovering } from "../legal-holds/service";
import {
  accountPrefix,
  addRemoved,
  assetExists,
  assetIdsOf,
  closeAccount,
  type DeletionRow,
  findDeletion,
  finishDeletion,
  insertDeletion,
  markRunning,
  openDeletionOf,
  openJobIdsOf,
  openMultipartUploadsOf,
  purgeAccountRows,
  purgeAssetRows,
  type RemovedCounts,
  setPhase,
  storedKeysOf,
  unerasedCreatorIds,
} from "./repo";

/*
 * Deletions: asset- or account-scoped, refused while a legal hold covers the target, carried out on the jobs queue
 * in bounded, idempotent steps (every step removes what is still there, so a redelivered message repeats nothing).
 */

export const DELETION_MESSAGE = "governance.deletion";

/** Assets an account deletion removes per queue message, and R2 list pages it sweeps per message. */
const ASSETS_PER_MESSAGE = 10;
const R2_PAGES_PER_MESSAGE = 5;
/** Seconds before re-checking an asset whose cancelled job is still stopping. */
const JOB_STOP_WAIT_SECONDS = 2;
/** Deliveries of one deletion's message before it is marked failed (the queue retries with backoff before). */
const MAX_ATTEMPTS = 8;
/**
 * How long a deletion may keep going before it is marked failed: it re-queues itself while a cancelled job stops
 * (bounded by the job lease and the jobs sweep) and while a large account is removed batch by batch.
 */
const MAX_DELETION_MS = 24 * 60 * 60 * 1000;

/** What is kept after a deletion, and why (the `retained` list of every deletion record). */
export const RETAINED = [
  {
    kind: "audit_log",
    reason:
      "The tenant's audit log (including this deletion) is kept: it is the record of who did what that the law and security reviews require.",
  },
  {
    kind: "billing_records",
    reason:
      "Charges, wallet transactions and the billing account are kept for the retention period tax and accounting law requires; they hold amounts and ids, no media.",
  },
  {
    kind: "transparency_log_entries",
    reason:
      'Entries already in the public transparency log stay (the log is append-only and every leaf is needed to prove the others); they hold only a manifest hash and a publication id, which now resolves to "deleted".',
  },
  {
    kind: "governance_records",
    reason: "Legal holds and deletion records themselves are kept, so what was removed, when and why stays answerable.",
  },
] as const;

/** What a caller asked to delete, validated by the route's schema. Invariant: `confirm` is compared, never trusted. */
export type DeletionRequest = { scope: "asset"; assetId: string } | { scope: "account"; confirm: string };

/** The outcome of a deletion request. Invariant: `refused` and `accepted` name a stored deletion record. */
export type RequestResult =
  | { status: "accepted"; deletion: DeletionRow; created: boolean }
  | { status: "refused"; deletion: DeletionRow; holdId: string }
  | { status: "not_found" }
  | { status: "confirmation_mismatch" };

/**
 * Records a deletion and queues its work, or refuses it: a missing asset is not found; an account deletion must be
 * confirmed with the tenant's own id; an active legal hold covering the target refuses it (recorded as `refused`,
 * nothing removed). A target with a deletion already queued or running answers that one (nothing new is queued).
 */
export async function requestDeletion(
  env: Bindings,
  db: Database,
  tenantId: string,
  request: DeletionRequest,
  requestedBy: string | null,
  now = Date.now(),
): Promise<RequestResult> {
  const assetId = request.scope === "asset" ? request.assetId : null;
  if (request.scope === "account" && request.confirm !== tenantId) return { status: "confirmation_mismatch" };
  if (assetId !== null && !(await assetExists(db, tenantId, assetId))) return { status: "not_found" };
  const target = assetId ?? "account";
  const base = {
    tenantId,
    scope: request.scope,
    assetId,
    target,
    removed: "{}",
    requestedBy,
    createdAt: now,
    updatedAt: now,
  } as const;
  const hold = await holdCovering(db, tenantId, assetId);
  if (hold.status === "held") {
    const refused = {
      ...base,
      id: newId("governanceDeletion"),
      state: "refused" as const,
      reasonCode: "svc.governance.legal_hold_active",
      legalHoldId: hold.hold.id,
      completedAt: now,
    };
    await insertDeletion(db, refused);
    return { status: "refused", deletion: { ...refused, phase: null, attempts: 0 }, holdId: hold.hold.id };
  }
  const open = await openDeletionOf(db, tenantId, target);
  if (open) return { status: "accepted", deletion: open, created: false };
  const row = {
    ...base,
    id: newId("governanceDeletion"),
    state: "queued" as const,
    phase: null,
    reasonCode: null,
    legalHoldId: null,
    attempts: 0,
    completedAt: null,
  };
  if (!(await insertDeletion(db, row))) {
    const winner = await openDeletionOf(db, tenantId, target);
    if (winner) return { status: "accepted", deletion: winner, created: false };
  }
  await enqueueDeletion(env, tenantId, row.id);
  return { status: "accepted", deletion: row, created: true };
}

export async function enqueueDeletion(env: Bindings, tenantId: string, deletionId: string, delaySeconds = 0) {
  await env.JOBS_QUEUE.send(
    { type: DELETION_MESSAGE, tenant_id: tenantId, deletion_id: deletionId },
    delaySeconds > 0 ? { delaySeconds } : undefined,
  );
}

/** One asset's removal: stopped jobs first, then bytes, then rows. `wait`: a cancelled job is still stopping. */
type AssetPurge = { status: "purged"; counts: RemovedCounts } | { status: "wait" };

async function purgeAsset(env: Bindings, db: Database, deletion: DeletionRow, assetId: string): Promise<AssetPurge> {
  const { tenantId, id: deletionId } = deletion;
  const open = await openJobIdsOf(db, tenantId, assetId);
  for (const jobId of open) await cancelJob(db, tenantId, jobId, "The asset is being deleted.");
  if ((await openJobIdsOf(db, tenantId, assetId)).length > 0) return { status: "wait" };
  for (const open of await openMultipartUploadsOf(db, tenantId, assetId)) {
    // Already completed or aborted in R2 (a repeated run): nothing left to abort.
    await env.OBJECTS.resumeMultipartUpload(open.key, open.uploadId)
      .abort()
      .catch(() => undefined);
  }
  const { keys, publicationId, jobIds } = await storedKeysOf(env.DB, tenantId, assetId);
  // Bytes before rows: if this stops half way the rows still name what is left, and the next run removes it.
  const r2Keys = [...keys];
  if (publicationId) r2Keys.push(`${accountPrefix(tenantId)}previews/${publicationId}/512.jpg`);
  for (const jobId of jobIds) r2Keys.push(...(await listAll(env.OBJECTS, `${accountPrefix(tenantId)}jobs/${jobId}/`)));
  for (let i = 0; i < r2Keys.length; i += 1000) await env.OBJECTS.delete(r2Keys.slice(i, i + 1000));
  const counts = await purgeAssetRows(env.DB, tenantId, assetId, publicationId, deletionId, Date.now(), deletion.scope === "account");
  return { status: "purged", counts: { ...counts, stored_objects: r2Keys.length } };
}

/** Every key under a (small, per-job) prefix. */
async function listAll(bucket: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/**
 * The queue handler: carries a deletion forward by one bounded step and re-queues itself until it is done.
 * Idempotent: a terminal deletion is left alone, and every step removes only what is still there. A legal hold
 * placed after the request stops it before its next step (`refused`; what was removed before stays removed).
 */
export async function runDeletion(env: Bindings, tenantId: string, deletionId: string, attempt = 1): Promise<void> {
  const db = database(env.DB);
  const now = Date.now();
  if (!(await markRunning(db, deletionId, now))) return;
  const deletion = await findDeletion(db, tenantId, deletionId);
  if (!deletion) return;
  if (attempt > MAX_ATTEMPTS || now - deletion.createdAt > MAX_DELETION_MS) return fail(env, db, deletion);
  const hold = await holdCovering(db, tenantId, deletion.assetId);
  if (hold.status === "held") {
    if (
      await finishDeletion(db, deletionId, "refused", { reasonCode: "svc.governance.legal_hold_active", legalHoldId: hold.hold.id }, now)
    ) {
      await audit(env, deletion, "deletion.refused", "denied", {
        error_code: "svc.governance.legal_hold_active",
        legal_hold_id: hold.hold.id,
      });
    }
    return;
  }
  if (deletion.scope === "asset") {
    const purged = await purgeAsset(env, db, deletion, deletion.assetId!);
    if (purged.status === "wait") return enqueueDeletion(env, tenantId, deletionId, JOB_STOP_WAIT_SECONDS);
    await addRemoved(db, deletionId, purged.counts, Date.now());
    return complete(env, db, deletion);
  }
  return runAccountStep(env, db, deletion);
}

/**
 * One step of an account deletion. Phase `assets` (null): up to ten assets per message until none is left. Then
 * phase `tenant`: keys revoked and the tenant closed (so nothing new arrives), any asset created in the meantime
 * removed, creators erased, the remaining rows removed, and the tenant's R2 prefix swept page by page.
 */
async function runAccountStep(env: Bindings, db: Database, deletion: DeletionRow): Promise<void> {
  const { tenantId, id } = deletion;
  if (deletion.phase !== "tenant") {
    const batch = await assetIdsOf(db, tenantId, ASSETS_PER_MESSAGE);
    if (batch.length > 0) {
      const waited = await purgeAssets(env, db, deletion, batch);
      return enqueueDeletion(env, tenantId, id, waited ? JOB_STOP_WAIT_SECONDS : 0);
    }
    const closed = await closeAccount(db, tenantId, Date.now());
    await addRemoved(db, id, { api_keys_revoked: closed.apiKeys }, Date.now());
    await setPhase(db, id, "tenant", Date.now());
  }
  const stragglers = await assetIdsOf(db, tenantId, ASSETS_PER_MESSAGE);
  if (stragglers.length > 0) {
    const waited = await purgeAssets(env, db, deletion, stragglers);
    return enqueueDeletion(env, tenantId, id, waited ? JOB_STOP_WAIT_SECONDS : 0);
  }
  let erased = 0;
  for (const creatorId of await unerasedCreatorIds(db, tenantId)) {
    if ((await eraseCreator(db, tenantId, creatorId)).status === "erased") erased += 1;
  }
  await addRemoved(db, id, { creators_erased: erased }, Date.now());
  await addRemoved(db, id, await purgeAccountRows(env.DB, tenantId), Date.now());
  let cursor: string | undefined;
  let swept = 0;
  for (let page = 0; page < R2_PAGES_PER_MESSAGE; page++) {
    const listed = await env.OBJECTS.list({ prefix: accountPrefix(tenantId), limit: 1000, cursor });
    const keys = listed.objects.map((o) => o.key);
    if (keys.length > 0) await env.OBJECTS.delete(keys);
    swept += keys.length;
    cursor = listed.truncated ? listed.cursor : undefined;
    if (!cursor) break;
  }
  await addRemoved(db, id, { stored_objects: swept }, Date.now());
  // More left under the prefix: the next message continues the sweep (deleted keys are not listed again).
  if (cursor) return enqueueDeletion(env, tenantId, id);
  return complete(env, db, deletion);
}

/** Purges a batch of assets; true when one had a job still stopping (skipped for now). */
async function purgeAssets(env: Bindings, db: Database, deletion: DeletionRow, assetIds: string[]): Promise<boolean> {
  let waited = false;
  for (const assetId of assetIds) {
    const purged = await purgeAsset(env, db, deletion, assetId);
    if (purged.status === "wait") waited = true;
    else await addRemoved(db, deletion.id, purged.counts, Date.now());
  }
  return waited;
}

async function complete(env: Bindings, db: Database, deletion: DeletionRow) {
  if (!(await finishDeletion(db, deletion.id, "completed", {}, Date.now()))) return;
  // The overview's daily counts were taken over rows that are gone now: rebuilt from the rows by the next sweeps.
  await resetOverviewAggregate(env.DB, deletion.tenantId);
  const after = await findDeletion(db, deletion.tenantId, deletion.id);
  await audit(env, deletion, "deletion.completed", "succeeded", { scope: deletion.scope, removed: JSON.parse(after?.removed ?? "{}") });
}

async function fail(env: Bindings, db: Database, deletion: DeletionRow) {
  if (!(await finishDeletion(db, deletion.id, "failed", { reasonCode: "svc.governance.deletion_failed" }, Date.now()))) return;
  log.error("deletion failed after repeated attempts", { deletion_id: deletion.id });
  await audit(env, deletion, "deletion.failed", "failed", { error_code: "svc.governance.deletion_failed" });
}

/** The deletion's outcome in the tenant's audit chain, by the service (ids and counts only). */
async function audit(
  env: Bindings,
  deletion: DeletionRow,
  action: string,
  outcome: "succeeded" | "denied" | "failed",
  detail: Record<string, unknown>,
) {
  await recordAudit(env, deletion.tenantId, {
    action,
    outcome,
    actorKind: "service",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: "governance_deletion",
    targetId: deletion.id,
    statusCode: null,
    detail: { ...detail, scope: deletion.scope, ...(deletion.assetId ? { asset_id: deletion.assetId } : {}) },
  });
}

export function deletionView(row: DeletionRow) {
  return {
    deletion_id: row.id,
    scope: row.scope,
    asset_id: row.assetId,
    state: row.state,
    reason_code: row.reasonCode,
    legal_hold_id: row.legalHoldId,
    removed: JSON.parse(row.removed) as RemovedCounts,
    retained: RETAINED.map((r) => ({ ...r })),
    requested_at: iso(row.createdAt),
    completed_at: iso(row.completedAt),
  };
}
