import { and, desc, eq, gte, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { jobs, walletReservations, wallets, walletTransactions } from "../../db/schema";
import type { PageRequest } from "../../platform/pagination";
import type { WalletRow } from "./accounts";

/*
 * Wallet reads and settings writes (issue #17). Balance, reserved and month spend are never written here: the
 * triggers of migrations/0021 move them with every reservation transition and ledger transaction. Settings change
 * only through one conditional UPDATE on `version`, so two writers holding the same version cannot both win.
 */

/** The settings PUT /v1/billing/wallet/settings writes. Invariant: amounts whole cents, validated by the service. */
export interface WalletSettings {
  enabled: boolean;
  monthlySpendLimitMicros: number | null;
  autoRechargeEnabled: boolean;
  autoRechargeThresholdMicros: number | null;
  autoRechargeAmountMicros: number | null;
}

/** Creates the wallet at version 1 (opt-in). False when it already exists (the caller's version 0 is stale). */
export async function insertWallet(db: Database, tenantId: string, settings: WalletSettings, now: number): Promise<boolean> {
  const month = new Date(now).toISOString().slice(0, 7);
  const rows = await db
    .insert(wallets)
    .values({
      tenantId,
      ...settings,
      balanceMicros: 0,
      reservedMicros: 0,
      spendMonth: month,
      monthSpendMicros: 0,
      rechargePending: false,
      version: 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ version: wallets.version });
  return rows.length === 1;
}

/**
 * Writes the settings only if the wallet is still at `expectedVersion`, bumping it. Opting out (enabled → false)
 * additionally needs a non-negative balance and nothing reserved at the moment of the write, checked in the same
 * statement, so a reservation admitted concurrently cannot slip under a disabled wallet. Null when nothing changed.
 */
export async function updateWalletSettings(
  db: Database,
  tenantId: string,
  expectedVersion: number,
  settings: WalletSettings,
  now: number,
  optingOut: boolean,
): Promise<WalletRow | null> {
  const optOutGuard = !optingOut ? undefined : and(gte(wallets.balanceMicros, 0), eq(wallets.reservedMicros, 0));
  const rows = await db
    .update(wallets)
    .set({ ...settings, version: sql`${wallets.version} + 1`, updatedAt: now })
    .where(and(eq(wallets.tenantId, tenantId), eq(wallets.version, expectedVersion), optOutGuard))
    .returning();
  return rows[0] ?? null;
}

/** One balance movement: a ledger transaction or a charge (a settled reservation). */
export interface Movement {
  kind: "top_up" | "refund" | "dispute" | "adjustment" | "charge";
  /** Signed µUSD. */
  amountMicros: number;
  createdAt: number;
  /** Transaction id, or the charged job id. */
  reference: string;
}

/** The latest `limit` movements of the tenant's wallet, newest first (ties by reference, descending). */
export async function recentMovements(db: Database, tenantId: string, limit: number): Promise<Movement[]> {
  const [transactions, charges] = await Promise.all([
    db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.tenantId, tenantId))
      .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.id))
      .limit(limit),
    db
      .select()
      .from(walletReservations)
      .where(and(eq(walletReservations.tenantId, tenantId), eq(walletReservations.state, "settled")))
      .orderBy(desc(walletReservations.endedAt), desc(walletReservations.jobId))
      .limit(limit),
  ]);
  const movements: Movement[] = [
    ...transactions.map((t) => ({ kind: t.kind, amountMicros: t.amountMicros, createdAt: t.createdAt, reference: t.id })),
    ...charges.map((r) => ({
      kind: "charge" as const,
      amountMicros: -r.amountMicros,
      createdAt: r.endedAt ?? r.createdAt,
      reference: r.jobId,
    })),
  ];
  movements.sort((a, b) => b.createdAt - a.createdAt || (a.reference < b.reference ? 1 : a.reference > b.reference ? -1 : 0));
  return movements.slice(0, limit);
}

/** A charge: a settled reservation keyed for pagination by (settled time, job id). */
export interface ChargeRow {
  id: string;
  createdAt: number;
  amountMicros: number;
  lines: string;
  pricingVersion: string;
}

/** One page (+1 row) of the tenant's charges, newest first, within the traversal's snapshot. */
export async function listCharges(db: Database, tenantId: string, page: PageRequest): Promise<ChargeRow[]> {
  const r = walletReservations;
  const after = page.after;
  return db
    .select({
      id: r.jobId,
      createdAt: sql<number>`${r.endedAt}`,
      amountMicros: r.amountMicros,
      lines: r.lines,
      pricingVersion: r.pricingVersion,
    })
    .from(r)
    .where(
      and(
        eq(r.tenantId, tenantId),
        eq(r.state, "settled"),
        lte(r.endedAt, page.snapshot),
        after ? or(lt(r.endedAt, after.createdAt), and(eq(r.endedAt, after.createdAt), lt(r.jobId, after.id))) : undefined,
      ),
    )
    .orderBy(desc(r.endedAt), desc(r.jobId))
    .limit(page.limit + 1);
}

/** A charge of the period with what the job says about it (null family/kind when the job row is gone). */
export interface UsageRow {
  jobId: string;
  amountMicros: number;
  lines: string;
  modality: string | null;
  kind: string | null;
}

/** The tenant's charges settled in [start, end), with the charged job's media family and kind. */
export async function chargesInPeriod(db: Database, tenantId: string, start: number, end: number): Promise<UsageRow[]> {
  const r = walletReservations;
  return db
    .select({
      jobId: r.jobId,
      amountMicros: r.amountMicros,
      lines: r.lines,
      // json_valid first: a malformed record reads as an unknown family instead of failing the whole usage read.
      modality: sql<
        string | null
      >`CASE WHEN json_valid(${jobs.mediaInspection}) THEN json_extract(${jobs.mediaInspection}, '$.modality') END`,
      kind: jobs.kind,
    })
    .from(r)
    .leftJoin(jobs, and(eq(jobs.id, r.jobId), eq(jobs.tenantId, r.tenantId)))
    .where(and(eq(r.tenantId, tenantId), eq(r.state, "settled"), gte(r.endedAt, start), lt(r.endedAt, end)));
}
