import { type Database, database } from "../db/client";
import type { Bindings } from "../env";
import { failRun, findRun, finishRun, removeOrphans, scanBands, scanBindings, startRun } from "./repo";

/*
 * The derived-index reconciler (issue #18). The soft-binding index (`soft_bindings`, and `pdq_bands`, `pdq_regions`,
 * `chromaprint_frames` and `video_frames` cut from its PDQ, Chromaprint and video rows; their removals are counted
 * together as bands) is derived from publications: the publication batch writes it together with the asset. Anything that
 * removes an asset row or its publication outside that batch (a deletion, an operator's repair, a failed half of a
 * future migration) would leave entries that lookups can no longer resolve. This sweep removes those orphans.
 *
 * Each cron run (every 5 minutes) scans at most SCAN_LIMIT rows of each table from where the previous run stopped
 * (primary-key order), so its cost is bounded whatever the index size; a full pass takes rows / SCAN_LIMIT runs and
 * then wraps. Removal is idempotent: each delete re-checks the orphan condition.
 */

/** The reconciler's name in derived_index_runs. */
export const RECONCILER = "soft_bindings";
/** Rows of each index table one run looks at (and so at most removes). */
export const SCAN_LIMIT = 500;
/**
 * Readiness: the reconciler counts as healthy while its last successful run is at most this old: three cron
 * intervals (cron runs every 5 minutes), so one missed or failed run does not flip readiness.
 */
export const RECONCILER_FRESHNESS_MS = 15 * 60 * 1000;

/** What one run did. */
export interface ReconcileReport {
  scanned: number;
  bindingsRemoved: number;
  bandsRemoved: number;
  passCompleted: boolean;
}

/** One bounded reconciliation run; records its start, and its success with counts (or its failure, then rethrows). */
export async function reconcileDerivedIndex(env: Pick<Bindings, "DB">, now = Date.now(), limit = SCAN_LIMIT): Promise<ReconcileReport> {
  const db = database(env.DB);
  const run = await startRun(db, RECONCILER, now);
  try {
    const [bindings, bands] = await Promise.all([
      scanBindings(env.DB, run.bindingsCursor, limit),
      scanBands(env.DB, run.bandsCursor, limit),
    ]);
    const removed = await removeOrphans(env.DB, bindings.orphans, bands.orphans, bands.frameOrphans);
    const report: ReconcileReport = {
      scanned: bindings.scanned + bands.scanned,
      bindingsRemoved: removed.bindings,
      bandsRemoved: removed.bands,
      // A pass is complete when both cursors reached the end in this run; they start over next time.
      passCompleted: bindings.next === null && bands.next === null,
    };
    await finishRun(db, RECONCILER, Date.now(), {
      bindingsCursor: bindings.next ?? "",
      bandsCursor: bands.next ?? "",
      scanned: report.scanned,
      bindingsRemoved: report.bindingsRemoved,
      bandsRemoved: report.bandsRemoved,
      passCompleted: report.passCompleted,
    });
    return report;
  } catch (error) {
    await failRun(db, RECONCILER, Date.now()).catch(() => undefined);
    throw error;
  }
}

/** Readiness of the reconciler. Invariant: `ready` only when a run succeeded within RECONCILER_FRESHNESS_MS of `now`. */
export interface ReconcilerHealth {
  ready: boolean;
  lastSucceededAt: number | null;
}

/** Never throws: a database that cannot answer means the reconciler cannot be shown healthy. */
export async function reconcilerHealth(db: Database, now = Date.now()): Promise<ReconcilerHealth> {
  try {
    const run = await findRun(db, RECONCILER);
    const last = run?.lastSucceededAt ?? null;
    return { ready: last !== null && now - last <= RECONCILER_FRESHNESS_MS, lastSucceededAt: last };
  } catch {
    return { ready: false, lastSucceededAt: null };
  }
}
