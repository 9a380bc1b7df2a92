import { previewKey } from "../../assets/preview-key";
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
import { keysUnder } from "../../platform/r2-keys";
import { expireExportsForDeletion } from "../exports/seal";
import { holdCovering } from "../legal-holds/service";
import {
  accountPrefix,
  addRemoved,
  assetExists,
  assetIdsOf,
  claimAudit,
  closeAccount,
  type DeletionRow,
  findDeletion,
  finishDeletion,
  insertDeletion,
  markRunning,
  noteLateHold,
  openDeletionOf,
  openJobIdsOf,
  openMultipartUploadsOf,
  owedAudits,
  purgeAccountRows,
  purgeAssetRows,
  type RemovedCounts,
  setPhase,
  settleAuditClaim,
  staleOpenDeletions,
  storedKeysOf,
  touchOpen,
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
/**
 * An open deletion untouched for this long lost its queue message (the send failed, or the queue gave it up after
 * its retries): the sweep, or a repeated request, sends it again. Every delivery touches the row, and a running
 * deletion re-queues itself within seconds, so a live one is never this old.
 */
export const STALE_DELETION_MS = 5 * 60 * 1000;
/** Rows one sweep looks at per kind (stale deletions, owed audits): the cron stays bounded. */
const SWEEP_LIMIT = 25;
/** How long an owed-audit claim holds before another caller may take it over (its holder died mid-append). */
const AUDIT_CLAIM_LEASE_MS = 5 * 60 * 1000;
/** The sweep leaves a just-finished deletion's audit to the consumer that finished it (and its replays) this long. */
const AUDIT_GRACE_MS = 60 * 1000;

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
 * nothing removed). A target with a deletion already queued or running answers that one (nothing new is queued;
 * its message is sent again if it looks lost, untouched for STALE_DELETION_MS).
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
      // The route appends this refusal's audit with the caller's request: nothing is owed by the service.
      auditedAt: now,
    };
    await insertDeletion(db, refused);
    return {
      status: "refused",
      deletion: { ...refused, phase: null, attempts: 0, auditClaimedAt: null },
      holdId: hold.hold.id,
    };
  }
  // A lost insert race means another request's deletion is open, or already finished in the meantime: look again,
  // so only an id that was really inserted (or is really open) is ever answered.
  for (let tries = 0; tries < 3; tries++) {
    const open = await openDeletionOf(db, tenantId, target);
    if (open) {
      await resendIfStale(env, db, open, now);
      return { status: "accepted", deletion: open, created: false };
    }
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
    if (await insertDeletion(db, row)) {
      // Should this send fail, the row stays queued and untouched: the sweep (or a repeated request) sends it.
      await enqueueDeletion(env, tenantId, row.id);
      return { status: "accepted", deletion: { ...row, auditedAt: null, auditClaimedAt: null }, created: true };
    }
  }
  throw new Error("deletion insert kept losing to deletions that finished at once");
}

/** An open deletion whose message was lost (untouched for STALE_DELETION_MS) is sent again, by one caller only. */
async function resendIfStale(env: Bindings, db: Database, open: DeletionRow, now: number) {
  if (open.updatedAt >= now - STALE_DELETION_MS) return false;
  if (!(await touchOpen(db, open.id, open.updatedAt, now))) return false;
  await enqueueDeletion(env, open.tenantId, open.id);
  return true;
}

export async function enqueueDeletion(env: Bindings, tenantId: string, deletionId: string, delaySeconds = 0) {
  await env.JOBS_QUEUE.send(
    { type: DELETION_MESSAGE, tenant_id: tenantId, deletion_id: deletionId },
    delaySeconds > 0 ? { delaySeconds } : undefined,
  );
}

/**
 * One asset's removal: stopped jobs first, then bytes, then rows. `wait`: a cancelled job is still stopping;
 * `held`: a hold now covers the asset (placed while the deletion ran), so nothing of it was removed.
 */
type AssetPurge = { status: "purged"; counts: RemovedCounts } | { status: "wait" } | { status: "held"; holdId: string };

/**
 * Removes one asset. With `respectHolds` (always, except an account deletion past its point of no return) the hold
 * is checked again right before the bytes go, and the rows' removal itself is conditional on no hold (a hold placed
 * between the two keeps the rows; only that asset's bytes can be lost to such a race).
 */
async function purgeAsset(env: Bindings, db: Database, deletion: DeletionRow, assetId: string, respectHolds: boolean): Promise<AssetPurge> {
  const { tenantId, id: deletionId } = deletion;
  const held = async () => {
    if (!respectHolds) return null;
    const hold = await holdCovering(db, tenantId, assetId);
    return hold.status === "held" ? hold.hold.id : null;
  };
  const before = await held();
  if (before) return { status: "held", holdId: before };
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
  if (publicationId) r2Keys.push(previewKey(tenantId, publicationId));
  for (const jobId of jobIds) r2Keys.push(...(await keysUnder(env.OBJECTS, `${accountPrefix(tenantId)}jobs/${jobId}/`)));
  const justBefore = await held();
  if (justBefore) return { status: "held", holdId: justBefore };
  for (let i = 0; i < r2Keys.length; i += 1000) await env.OBJECTS.delete(r2Keys.slice(i, i + 1000));
  const tenantWide = deletion.scope === "account";
  const rows = await purgeAssetRows(env.DB, tenantId, assetId, publicationId, deletionId, Date.now(), tenantWide, respectHolds);
  if (rows.heldBy) return { status: "held", holdId: rows.heldBy };
  return { status: "purged", counts: { ...rows.counts, stored_objects: r2Keys.length } };
}

/**
 * The queue handler: carries a deletion forward by one bounded step and re-queues itself until it is done.
 * Idempotent: a terminal deletion is left alone (but for its outcome audit, appended here if a failure lost it),
 * and every step removes only what is still there. A legal hold placed after the request stops it before its next
 * step, and before each asset's removal (`refused`; what was removed before stays removed) — until the account is
 * closed. That is the point of no return of an account deletion: keys revoked, the tenant closed, and its assets
 * (what a hold preserves) already removed; a hold placed later cannot keep the account usable, and stopping there
 * would leave it half-deleted for good. So the deletion finishes, and the record names that hold (`legal_hold_id`
 * of a completed deletion).
 */
export async function runDeletion(env: Bindings, tenantId: string, deletionId: string, attempt = 1): Promise<void> {
  const db = database(env.DB);
  const now = Date.now();
  if (!(await markRunning(db, deletionId, now))) {
    await recordOutcome(env, db, tenantId, deletionId);
    return;
  }
  const deletion = await findDeletion(db, tenantId, deletionId);
  if (!deletion) return;
  if (attempt > MAX_ATTEMPTS || now - deletion.createdAt > MAX_DELETION_MS) return fail(env, db, deletion);
  const pastNoReturn = deletion.scope === "account" && deletion.phase === "tenant";
  const hold = await holdCovering(db, tenantId, deletion.assetId);
  if (hold.status === "held") {
    if (!pastNoReturn) return refuse(env, db, deletion, hold.hold.id);
    await noteLateHold(db, deletionId, hold.hold.id, now);
  }
  if (deletion.scope === "asset") {
    const purged = await purgeAsset(env, db, deletion, deletion.assetId!, true);
    if (purged.status === "wait") return enqueueDeletion(env, tenantId, deletionId, JOB_STOP_WAIT_SECONDS);
    if (purged.status === "held") return refuse(env, db, deletion, purged.holdId);
    await addRemoved(db, deletionId, purged.counts, Date.now());
    return complete(env, db, deletion);
  }
  return runAccountStep(env, db, deletion);
}

/**
 * One step of an account deletion. Phase `assets` (null): up to ten assets per message until none is left (each
 * re-checked against holds). Then, if still no hold, phase `tenant` (the point of no return, see runDeletion): keys
 * revoked and the tenant closed (so nothing new arrives), any asset created in the meantime removed, creators
 * erased, the remaining rows removed, and the tenant's R2 prefix swept page by page.
 */
async function runAccountStep(env: Bindings, db: Database, deletion: DeletionRow): Promise<void> {
  const { tenantId, id } = deletion;
  if (deletion.phase !== "tenant") {
    const batch = await assetIdsOf(db, tenantId, ASSETS_PER_MESSAGE);
    if (batch.length > 0) {
      const step = await purgeAssets(env, db, deletion, batch, true);
      if (step.status === "held") return refuse(env, db, deletion, step.holdId);
      return enqueueDeletion(env, tenantId, id, step.status === "wait" ? JOB_STOP_WAIT_SECONDS : 0);
    }
    // Checked once more right before the point of no return (the step may have run a while since the first check).
    const hold = await holdCovering(db, tenantId, null);
    if (hold.status === "held") return refuse(env, db, deletion, hold.hold.id);
    const closed = await closeAccount(db, tenantId, Date.now());
    await addRemoved(db, id, { api_keys_revoked: closed.apiKeys }, Date.now());
    await setPhase(db, id, "tenant", Date.now());
  }
  const stragglers = await assetIdsOf(db, tenantId, ASSETS_PER_MESSAGE);
  if (stragglers.length > 0) {
    const step = await purgeAssets(env, db, deletion, stragglers, false);
    return enqueueDeletion(env, tenantId, id, step.status === "wait" ? JOB_STOP_WAIT_SECONDS : 0);
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

/**
 * Purges a batch of assets. `wait`: one had a job still stopping (skipped for now). `held`: a hold now covers one:
 * the batch stops there (what was removed before it stays removed, counted).
 */
async function purgeAssets(
  env: Bindings,
  db: Database,
  deletion: DeletionRow,
  assetIds: string[],
  respectHolds: boolean,
): Promise<{ status: "done" | "wait" } | { status: "held"; holdId: string }> {
  let waited = false;
  for (const assetId of assetIds) {
    const purged = await purgeAsset(env, db, deletion, assetId, respectHolds);
    if (purged.status === "held") return purged;
    if (purged.status === "wait") waited = true;
    else await addRemoved(db, deletion.id, purged.counts, Date.now());
  }
  return { status: waited ? "wait" : "done" };
}

async function complete(env: Bindings, db: Database, deletion: DeletionRow) {
  // Earlier exports hold copies of what was just removed: their archives go too (idempotent, and before the row is
  // final, so a failure here retries the message rather than leaving a copy behind).
  await expireExportsForDeletion(env, deletion.tenantId);
  if (!(await finishDeletion(db, deletion.id, "completed", {}, Date.now()))) return;
  // The overview's daily counts were taken over rows that are gone now: rebuilt from the rows by the next sweeps.
  await resetOverviewAggregate(env.DB, deletion.tenantId);
  await recordOutcome(env, db, deletion.tenantId, deletion.id);
}

async function refuse(env: Bindings, db: Database, deletion: DeletionRow, holdId: string) {
  const done = { reasonCode: "svc.governance.legal_hold_active", legalHoldId: holdId };
  if (await finishDeletion(db, deletion.id, "refused", done, Date.now())) await recordOutcome(env, db, deletion.tenantId, deletion.id);
}

async function fail(env: Bindings, db: Database, deletion: DeletionRow) {
  if (!(await finishDeletion(db, deletion.id, "failed", { reasonCode: "svc.governance.deletion_failed" }, Date.now()))) return;
  log.error("deletion failed after repeated attempts", { deletion_id: deletion.id });
  await recordOutcome(env, db, deletion.tenantId, deletion.id);
}

/**
 * Appends a terminal deletion's outcome to the tenant's audit chain if it is still owed (`audited_at` null), under a
 * claim so two callers (a replayed message, the sweep) never both append it. A failed append lets the claim go and
 * rethrows: the queue's retry, or the sweep, appends it later. True when this call appended it.
 */
async function recordOutcome(env: Bindings, db: Database, tenantId: string, deletionId: string): Promise<boolean> {
  const row = await findDeletion(db, tenantId, deletionId);
  if (!row || row.completedAt === null || row.auditedAt !== null) return false;
  if (!(await claimAudit(db, row.id, Date.now(), AUDIT_CLAIM_LEASE_MS))) return false;
  let ok = false;
  try {
    if (row.state === "completed") {
      const late = row.legalHoldId ? { late_legal_hold_id: row.legalHoldId } : {};
      await audit(env, row, "deletion.completed", "succeeded", { removed: JSON.parse(row.removed), ...late });
    } else if (row.state === "refused") {
      await audit(env, row, "deletion.refused", "denied", { error_code: row.reasonCode, legal_hold_id: row.legalHoldId });
    } else {
      await audit(env, row, "deletion.failed", "failed", { error_code: row.reasonCode });
    }
    ok = true;
  } finally {
    await settleAuditClaim(db, row.id, ok, Date.now());
  }
  return true;
}

/** What one sweep of the deletions did. */
export interface DeletionSweepResult {
  /** Open deletions whose lost message was sent again. */
  resent: number;
  /** Terminal deletions whose owed outcome audit was appended. */
  audited: number;
}

/**
 * Cron: no deletion waits forever, and no outcome goes unaudited. An open deletion untouched for STALE_DELETION_MS
 * is sent again (touched first, conditionally, so a second sweep sends nothing); a terminal one whose audit is
 * still owed a minute after it finished gets it. At most SWEEP_LIMIT of each per run; a deletion that keeps
 * failing still ends (`failed`) at MAX_DELETION_MS.
 */
export async function sweepDeletions(env: Bindings, now = Date.now()): Promise<DeletionSweepResult> {
  const db = database(env.DB);
  const result: DeletionSweepResult = { resent: 0, audited: 0 };
  for (const row of await staleOpenDeletions(db, now - STALE_DELETION_MS, SWEEP_LIMIT)) {
    if (await resendIfStale(env, db, row, now)) result.resent++;
  }
  for (const row of await owedAudits(db, now - AUDIT_GRACE_MS, SWEEP_LIMIT)) {
    // One owed audit failing again does not keep the others from being appended.
    try {
      if (await recordOutcome(env, db, row.tenantId, row.id)) result.audited++;
    } catch (error) {
      log.error("deletion outcome audit still failing", { deletion_id: row.id, error: String(error) });
    }
  }
  return result;
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
