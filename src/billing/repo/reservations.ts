import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { walletReservations } from "../../db/schema";

/*
 * Wallet reservations: the quote of one admitted job, held until publication settles it (the charge) or the job
 * ends otherwise and releases it. Every statement here is meant for the caller's own batch, beside the job rows it
 * belongs to; the triggers of migration 0021 move the wallet and refuse what it cannot cover.
 */

/** A wallet_reservations row. Invariant: state moves only held → settled | released; the amount never changes. */
export type ReservationRow = typeof walletReservations.$inferSelect;

/** Inserts a held reservation; in a batch, it aborts the whole batch when the wallet cannot cover it (see walletRefusal). */
export function reserveStatement(db: Database, row: ReservationRow) {
  return db.insert(walletReservations).values(row);
}

/** Why a batch holding a reservation was aborted by the wallet's triggers, or null for any other error. */
export function walletRefusal(error: unknown): "insufficient" | "monthly_limit" | "disabled" | null {
  const message = String((error as Error)?.message ?? error);
  if (message.includes("svc_wallet_insufficient")) return "insufficient";
  if (message.includes("svc_wallet_monthly_limit")) return "monthly_limit";
  if (message.includes("svc_wallet_disabled")) return "disabled";
  return null;
}

/**
 * Raw statements for the jobs area's D1 batches (which are raw prepared statements): settle on publication, release
 * when a job ends without one. Both touch only a `held` reservation of that job, so running them for an unmetered
 * job, or twice, changes nothing. `guard` is the batch's own condition (e.g. "this batch published the job").
 */
export function settleReservationStatement(d1: D1Database, jobId: string, now: number, guard: { sql: string; binds: unknown[] }) {
  return d1
    .prepare(`UPDATE wallet_reservations SET state = 'settled', ended_at = ? WHERE job_id = ? AND state = 'held' AND ${guard.sql}`)
    .bind(now, jobId, ...guard.binds);
}

export function releaseReservationStatement(d1: D1Database, jobId: string, now: number, guard?: { sql: string; binds: unknown[] }) {
  return d1
    .prepare(
      `UPDATE wallet_reservations SET state = 'released', ended_at = ? WHERE job_id = ? AND state = 'held'${guard ? ` AND ${guard.sql}` : ""}`,
    )
    .bind(now, jobId, ...(guard?.binds ?? []));
}

/** The reservation of a job, if it was metered. */
export async function findReservation(db: Database, tenantId: string, jobId: string): Promise<ReservationRow | null> {
  return (
    (await db
      .select()
      .from(walletReservations)
      .where(and(eq(walletReservations.tenantId, tenantId), eq(walletReservations.jobId, jobId)))
      .get()) ?? null
  );
}

/** Releases a cancelled job's held reservation, in the cancel batch: only once the job row is `canceled` in it. */
export function releaseCanceledStatement(db: Database, jobId: string, now: number) {
  return db
    .update(walletReservations)
    .set({ state: "released", endedAt: now })
    .where(
      and(
        eq(walletReservations.jobId, jobId),
        eq(walletReservations.state, "held"),
        sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId} AND state = 'canceled')`,
      ),
    );
}
