import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { billingAccounts, wallets } from "../../db/schema";
import { DEFAULT_PLAN_ID, planById } from "../pricing";

/** A billing_accounts row. Invariant: one per tenant, created on first use with the default plan. */
export type AccountRow = typeof billingAccounts.$inferSelect;
/** A wallets row. Invariant: exists only once the tenant opted in; amounts in integer µUSD. */
export type WalletRow = typeof wallets.$inferSelect;

/** The calendar month (UTC) containing `now`: [start, end) in epoch ms. */
export function monthOf(now: number): { start: number; end: number } {
  const d = new Date(now);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/** The tenant's account, created with the default plan on first use (idempotent under concurrency). */
export async function ensureAccount(db: Database, tenantId: string, now = Date.now()): Promise<AccountRow> {
  const existing = await db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId)).get();
  if (existing) return existing;
  const plan = planById(DEFAULT_PLAN_ID)!;
  const period = monthOf(now);
  await db
    .insert(billingAccounts)
    .values({
      tenantId,
      planId: plan.id,
      planRevision: plan.revision,
      status: "active",
      cancelAtPeriodEnd: false,
      currentPeriodStart: period.start,
      currentPeriodEnd: period.end,
      providerCustomerId: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  return (await db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId)).get())!;
}

/** The tenant's wallet, or null before it opted in. */
export async function findWallet(db: Database, tenantId: string): Promise<WalletRow | null> {
  return (await db.select().from(wallets).where(eq(wallets.tenantId, tenantId)).get()) ?? null;
}

/**
 * What metering reads for one admission, in one D1 round trip (it runs on every sign): the account's plan revision
 * (null before any billing use created the account) and the wallet (null before opt-in).
 */
export async function meteringState(db: Database, tenantId: string): Promise<MeteringState> {
  const [account, wallet] = await db.batch(meteringStateQueries(db, tenantId));
  return meteringStateOf(account, wallet);
}

export interface MeteringState {
  planRevision: number | null;
  wallet: WalletRow | null;
}

/** meteringState's two reads, for a caller that sends them in its own batch (sign admission, with the asset's). */
export function meteringStateQueries(db: Database, tenantId: string) {
  return [
    db.select({ planRevision: billingAccounts.planRevision }).from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId)),
    db.select().from(wallets).where(eq(wallets.tenantId, tenantId)),
  ] as const;
}

export function meteringStateOf(account: { planRevision: number }[], wallet: WalletRow[]): MeteringState {
  return { planRevision: account[0]?.planRevision ?? null, wallet: wallet[0] ?? null };
}
