import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { billingAccounts, billingIntents, paymentEvents, walletTransactions } from "../../db/schema";
import { newId } from "../../platform/ids";
import type { Micros } from "../money";

/** A billing_intents row. Invariant: tenant-owned; `url` and `provider_session_id` are set once the provider answered. */
export type IntentRow = typeof billingIntents.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;

/** Intents (checkout and portal together) an account may create per rolling minute. */
export const INTENTS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

/**
 * Inserts the intent only while the tenant created fewer than INTENTS_PER_MINUTE in the last minute: the count and
 * the insert are one statement, so concurrent requests cannot both take the tenth slot, and a refused request
 * writes nothing. False when refused.
 */
export async function insertIntentWithinRate(db: Database, row: IntentRow): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO billing_intents (id, tenant_id, kind, purpose, plan_id, amount_micros, mode, url, provider_session_id, status, expires_at, created_at)
    SELECT ${row.id}, ${row.tenantId}, ${row.kind}, ${row.purpose}, ${row.planId}, ${row.amountMicros}, ${row.mode}, NULL, NULL,
           ${row.status}, ${row.expiresAt}, ${row.createdAt}
    WHERE (SELECT count(*) FROM billing_intents WHERE tenant_id = ${row.tenantId} AND created_at > ${row.createdAt - WINDOW_MS}) < ${INTENTS_PER_MINUTE}`);
  return (result.meta?.changes ?? 0) === 1;
}

/** Whole seconds until the oldest intent of the window leaves it (Retry-After of a refused intent). */
export async function intentRetryAfterSeconds(db: Database, tenantId: string, now: number): Promise<number> {
  const oldest = await db
    .select({ at: sql<number>`min(${billingIntents.createdAt})` })
    .from(billingIntents)
    .where(and(eq(billingIntents.tenantId, tenantId), gt(billingIntents.createdAt, now - WINDOW_MS)))
    .get();
  const at = oldest?.at ?? now;
  return Math.max(1, Math.ceil((at + WINDOW_MS - now) / 1000));
}

/** Records what the provider answered for an intent; false when its session id already belongs to another intent. */
export async function setIntentSession(
  db: Database,
  intentId: string,
  session: { url: string | null; sessionId: string | null; expiresAt: number },
): Promise<boolean> {
  try {
    await db
      .update(billingIntents)
      .set({ url: session.url, providerSessionId: session.sessionId, expiresAt: session.expiresAt })
      .where(eq(billingIntents.id, intentId));
    return true;
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE constraint failed")) return false;
    throw error;
  }
}

/** An intent the provider refused or could not be reached for: kept (it counts toward the rate) but never completable. */
export async function failIntent(db: Database, intentId: string, now: number): Promise<void> {
  await db.update(billingIntents).set({ status: "expired", expiresAt: now }).where(eq(billingIntents.id, intentId));
}

/** Saves the provider's customer on the account, unless one is already saved (the first one stays). */
export async function saveProviderCustomer(db: Database, tenantId: string, customerId: string, now: number): Promise<void> {
  await db
    .update(billingAccounts)
    .set({ providerCustomerId: customerId, updatedAt: now })
    .where(and(eq(billingAccounts.tenantId, tenantId), isNull(billingAccounts.providerCustomerId)));
}

export async function findIntent(db: Database, intentId: string): Promise<IntentRow | null> {
  return (await db.select().from(billingIntents).where(eq(billingIntents.id, intentId)).get()) ?? null;
}

/** An intent of this tenant only (the dev checkout page). */
export async function findTenantIntent(db: Database, tenantId: string, intentId: string): Promise<IntentRow | null> {
  return (
    (await db
      .select()
      .from(billingIntents)
      .where(and(eq(billingIntents.id, intentId), eq(billingIntents.tenantId, tenantId)))
      .get()) ?? null
  );
}

export async function findPaymentEvent(db: Database, eventId: string): Promise<PaymentEventRow | null> {
  return (await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId)).get()) ?? null;
}

/** What one callback changes, applied all or nothing. */
export interface EventEffects {
  event: PaymentEventRow;
  /** Signed µUSD into (or out of) the tenant's wallet, keyed by the event id (UNIQUE: once per event). */
  walletTransaction?: { tenantId: string; kind: "top_up" | "dispute"; amount: Micros; intentId?: string; chargeId?: string | null };
  /** A refund: debit what `refundedTotal` (cumulative, µUSD) adds to the refunds already debited for the charge. */
  refund?: { tenantId: string; chargeId: string; refundedTotal: Micros };
  /** A completed checkout's intent. */
  completeIntentId?: string;
  /** A completed subscription checkout: the account's new plan and its provider customer. */
  accountPlan?: { tenantId: string; planId: string; planRevision: number; customerId: string | null };
}

/**
 * Applies one callback in one D1 batch: payment_events insert (primary key = event id) + its wallet transaction
 * (UNIQUE provider_event_id) + intent and account updates. A replay hits a UNIQUE constraint and the whole batch
 * aborts: `duplicate`, nothing changed. `wallet_missing`: the wallet trigger refused (no wallet row).
 */
export async function applyPaymentEvent(
  db: Database,
  effects: EventEffects,
): Promise<"applied" | "duplicate" | "wallet_missing" | "intent_completed"> {
  const now = effects.event.receivedAt;
  const statements: BatchItem<"sqlite">[] = [db.insert(paymentEvents).values(effects.event)];
  if (effects.walletTransaction)
    statements.push(
      db.insert(walletTransactions).values({
        id: newId("walletTransaction"),
        tenantId: effects.walletTransaction.tenantId,
        kind: effects.walletTransaction.kind,
        amountMicros: effects.walletTransaction.amount,
        providerEventId: effects.event.eventId,
        intentId: effects.walletTransaction.intentId ?? null,
        providerChargeId: effects.walletTransaction.chargeId ?? null,
        createdAt: now,
      }),
    );
  if (effects.completeIntentId)
    statements.push(db.update(billingIntents).set({ status: "completed" }).where(eq(billingIntents.id, effects.completeIntentId)));
  if (effects.accountPlan) {
    const { tenantId, planId, planRevision, customerId } = effects.accountPlan;
    statements.push(
      db
        .update(billingAccounts)
        .set({
          planId,
          planRevision,
          status: "active",
          cancelAtPeriodEnd: false,
          ...(customerId ? { providerCustomerId: customerId } : {}),
          updatedAt: now,
        })
        .where(eq(billingAccounts.tenantId, tenantId)),
    );
  }
  try {
    if (effects.refund) await refundBatch(db, effects.event, effects.refund);
    else await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return "applied";
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    // Checked before the event id: a second completion of one intent is not a replay of the same event.
    if (message.includes("UNIQUE constraint failed") && message.includes("intent_id")) return "intent_completed";
    if (message.includes("UNIQUE constraint failed")) return "duplicate";
    if (message.includes("svc_wallet_missing")) return "wallet_missing";
    throw error;
  }
}

/**
 * A refund's batch (raw statements: the debit is an INSERT … SELECT computed in SQL). The debit is what the charge's
 * cumulative `refundedTotal` adds to the refunds already debited for it, computed in the one statement that writes
 * it, so two refund events of one charge can never both debit the same amount; nothing is written when it adds nothing.
 */
async function refundBatch(db: Database, event: PaymentEventRow, refund: { tenantId: string; chargeId: string; refundedTotal: Micros }) {
  const d1 = db.$client;
  const already = "COALESCE((SELECT -SUM(amount_micros) FROM wallet_transactions WHERE provider_charge_id = ?1 AND kind = 'refund'), 0)";
  await d1.batch([
    d1
      .prepare("INSERT INTO payment_events (event_id, type, tenant_id, state, received_at) VALUES (?, ?, ?, ?, ?)")
      .bind(event.eventId, event.type, event.tenantId, event.state, event.receivedAt),
    d1
      .prepare(
        `INSERT INTO wallet_transactions (id, tenant_id, kind, amount_micros, provider_event_id, intent_id, provider_charge_id, created_at)
         SELECT ?2, ?3, 'refund', ${already} - ?4, ?5, NULL, ?1, ?6 WHERE ?4 > ${already}`,
      )
      .bind(refund.chargeId, newId("walletTransaction"), refund.tenantId, refund.refundedTotal, event.eventId, event.receivedAt),
  ]);
}
