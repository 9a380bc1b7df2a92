import type { Database } from "../../db/client";
import { newId } from "../../platform/ids";
import type { Logger } from "../../platform/logger";
import { MICROS_PER_CENT, type Micros } from "../money";
import { planById } from "../pricing";
import { ensureAccount, findWallet } from "../repo/accounts";
import {
  applyPaymentEvent,
  type EventEffects,
  failIntent,
  findIntent,
  findPaymentEvent,
  type IntentRow,
  insertIntentWithinRate,
  intentRetryAfterSeconds,
  saveProviderCustomer,
  setIntentSession,
} from "../repo/payments";
import type { PaymentsConfig } from "./config";
import { parsePaymentEvent } from "./events";
import { verifySignature } from "./signature";
import { SimulationPayments } from "./simulation";
import { type FetchFn, StripePayments } from "./stripe";
import type { PaymentEvent, PaymentsProvider, ProviderResult, ProviderSession } from "./types";

/*
 * Checkout and portal intents, and the payments callback (issue #17). No HTTP here: routes map these results.
 * Money moves only in handleCallback, and only from a verified, first-seen event naming one of our intents.
 */

/** The adapter the configuration composes, or null (intents answer 503). */
export function paymentsProvider(config: PaymentsConfig, origin: string, fetchFn?: FetchFn): PaymentsProvider | null {
  if (config.mode === "simulation") return new SimulationPayments(origin);
  if ((config.mode === "sandbox" || config.mode === "provider") && config.stripe)
    return new StripePayments({ mode: config.mode, secretKey: config.stripe.secretKey, apiBase: config.stripe.apiBase, fetch: fetchFn });
  return null;
}

export interface IntentDeps {
  db: Database;
  config: PaymentsConfig;
  provider: PaymentsProvider | null;
  log: Logger;
  /** The request's own origin: allowed as a redirect target in development. */
  requestOrigin: string;
  now?: number;
}

export type IntentResult =
  | { status: "ok"; intent: IntentRow }
  | { status: "not_configured" }
  | { status: "redirect_not_allowed"; field: string }
  | { status: "plan_unknown" }
  | { status: "plan_required" }
  | { status: "plan_not_priced" }
  | { status: "wallet_not_enabled" }
  | { status: "rate_limited"; retryAfterSeconds: number }
  | { status: "provider_rejected" }
  | { status: "provider_unreachable" };

/** Whether `url` is an absolute http(s) URL on an allowed origin, without credentials. */
export function redirectAllowed(url: string, deps: Pick<IntentDeps, "config" | "requestOrigin">): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) return false;
  const allowed = deps.config.development ? [...deps.config.consoleOrigins, deps.requestOrigin] : deps.config.consoleOrigins;
  return allowed.includes(parsed.origin);
}

export interface CheckoutInput {
  tenantId: string;
  purpose: "subscription" | "wallet_top_up";
  plan: string | null;
  /** Top-up amount (whole cents, validated by the schema); null for subscriptions. */
  amount: Micros | null;
  successUrl: string;
  cancelUrl: string;
}

export async function createCheckoutIntent(deps: IntentDeps, input: CheckoutInput): Promise<IntentResult> {
  const { config, provider } = deps;
  if (!provider || !config.mode) return { status: "not_configured" };
  for (const [field, url] of [
    ["success_url", input.successUrl],
    ["cancel_url", input.cancelUrl],
  ] as const)
    if (!redirectAllowed(url, deps)) return { status: "redirect_not_allowed", field };
  const plan = input.plan === null ? null : planById(input.plan);
  if (input.plan !== null && !plan) return { status: "plan_unknown" };
  let priceId: string | null = null;
  if (input.purpose === "subscription") {
    // A real checkout redirect always names its plan; the simulation may answer an inert intent without one.
    if (!plan && config.mode !== "simulation") return { status: "plan_required" };
    if (plan && config.stripe) {
      priceId = config.stripe.planPrices[plan.id] ?? null;
      if (!priceId) return { status: "plan_not_priced" };
    }
  } else {
    // A completed top-up must always have a wallet to credit: only an opted-in, enabled wallet may be topped up.
    const wallet = await findWallet(deps.db, input.tenantId);
    if (!wallet?.enabled) return { status: "wallet_not_enabled" };
  }
  return createIntent(deps, input.tenantId, {
    kind: "checkout",
    purpose: input.purpose,
    planId: plan?.id ?? null,
    amountMicros: input.purpose === "wallet_top_up" ? input.amount : null,
    call: (intentId, customerId) =>
      provider.createCheckout({
        intentId,
        tenantId: input.tenantId,
        purpose: input.purpose,
        plan: plan ? { id: plan.id, priceId } : null,
        amountCents: input.amount === null ? null : input.amount / MICROS_PER_CENT,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        customerId,
      }),
  });
}

export async function createPortalIntent(deps: IntentDeps, input: { tenantId: string; returnUrl: string }): Promise<IntentResult> {
  const { config, provider } = deps;
  if (!provider || !config.mode) return { status: "not_configured" };
  if (!redirectAllowed(input.returnUrl, deps)) return { status: "redirect_not_allowed", field: "return_url" };
  return createIntent(deps, input.tenantId, {
    kind: "portal",
    purpose: "portal",
    planId: null,
    amountMicros: null,
    call: (intentId, customerId) => provider.createPortal({ intentId, tenantId: input.tenantId, returnUrl: input.returnUrl, customerId }),
  });
}

/** Takes a rate slot (the intent row itself), asks the provider, records its answer. */
async function createIntent(
  deps: IntentDeps,
  tenantId: string,
  spec: {
    kind: IntentRow["kind"];
    purpose: IntentRow["purpose"];
    planId: string | null;
    amountMicros: Micros | null;
    call: (intentId: string, customerId: string | null) => Promise<ProviderResult<ProviderSession>>;
  },
): Promise<IntentResult> {
  const now = deps.now ?? Date.now();
  const account = await ensureAccount(deps.db, tenantId, now);
  const row: IntentRow = {
    id: newId("billingIntent"),
    tenantId,
    kind: spec.kind,
    purpose: spec.purpose,
    planId: spec.planId,
    amountMicros: spec.amountMicros,
    mode: deps.config.mode!,
    url: null,
    providerSessionId: null,
    status: "open",
    expiresAt: now,
    createdAt: now,
  };
  if (!(await insertIntentWithinRate(deps.db, row)))
    return { status: "rate_limited", retryAfterSeconds: await intentRetryAfterSeconds(deps.db, tenantId, now) };
  const answer = await spec.call(row.id, account.providerCustomerId);
  if (answer.status !== "ok") {
    // Kept and counted: a provider failing or refusing is not hammered faster than the rate.
    await failIntent(deps.db, row.id, now);
    deps.log.warn("billing provider call failed", { intent_id: row.id, outcome: answer.status, detail: answer.detail });
    return { status: answer.status === "rejected" ? "provider_rejected" : "provider_unreachable" };
  }
  const session = answer.value;
  if (session.customerId && !account.providerCustomerId) await saveProviderCustomer(deps.db, tenantId, session.customerId, now);
  if (!(await setIntentSession(deps.db, row.id, session))) {
    // A session id we already hold for another intent: the provider's answer cannot be trusted for this one.
    await failIntent(deps.db, row.id, now);
    deps.log.warn("billing provider answered a session id already in use", { intent_id: row.id });
    return { status: "provider_rejected" };
  }
  return { status: "ok", intent: { ...row, url: session.url, providerSessionId: session.sessionId, expiresAt: session.expiresAt } };
}

export type CallbackResult =
  | {
      status: "accepted";
      eventId: string;
      state: "applied" | "ignored";
      duplicate: boolean;
      /** Set when this delivery changed a tenant's wallet (the one to audit it for). */
      applied?: { tenantId: string; type: string; intentId: string | null };
    }
  | { status: "unavailable" }
  | { status: "signature_invalid"; stale: boolean }
  | { status: "event_invalid" }
  | { status: "conflict"; reason: string }
  | { status: "provider_unreachable" };

export interface CallbackDeps {
  db: Database;
  config: PaymentsConfig;
  /** Asked only for events that name a charge but no intent (disputes). */
  provider: PaymentsProvider | null;
  log: Logger;
  now?: number;
}

/** POST /webhooks/payments after the size check: verify, parse, dedupe, apply once. */
export async function handleCallback(deps: CallbackDeps, rawBody: string, signature: string | undefined): Promise<CallbackResult> {
  const now = deps.now ?? Date.now();
  if (!deps.config.mode || deps.config.webhookSecrets.length === 0) return { status: "unavailable" };
  const verdict = await verifySignature(signature, rawBody, deps.config.webhookSecrets, now);
  if (verdict !== "valid") return { status: "signature_invalid", stale: verdict === "stale" };
  const event = parsePaymentEvent(rawBody);
  if (!event) return { status: "event_invalid" };
  const seen = await findPaymentEvent(deps.db, event.eventId);
  if (seen) return { status: "accepted", eventId: event.eventId, state: seen.state, duplicate: true };

  let resolved = event;
  if (event.kind === "debit" && !event.intentId && event.chargeId && deps.provider?.intentOfCharge) {
    const answer = await deps.provider.intentOfCharge(event.chargeId);
    // Unreachable: 503, so the provider retries the event later; a refusal leaves it naming no intent (ignored).
    if (answer.status === "unreachable") return { status: "provider_unreachable" };
    if (answer.status === "ok" && answer.value && /^bin_[a-z2-7]{16}$/.test(answer.value)) resolved = { ...event, intentId: answer.value };
  }
  const decision = await decide(deps.db, resolved);
  if (decision.status === "conflict") {
    deps.log.warn("payments callback conflicts with its intent", { event_id: event.eventId, type: event.type, reason: decision.reason });
    return decision;
  }
  const record = (state: "applied" | "ignored", tenantId: string | null) => ({
    eventId: event.eventId,
    type: event.type,
    tenantId,
    state,
    receivedAt: now,
  });
  if (decision.status === "ignore") {
    if (decision.reason) deps.log.info("payments callback ignored", { event_id: event.eventId, type: event.type, reason: decision.reason });
    const outcome = await applyPaymentEvent(deps.db, { event: record("ignored", decision.tenantId) });
    return { status: "accepted", eventId: event.eventId, state: "ignored", duplicate: outcome === "duplicate" };
  }
  const outcome = await applyPaymentEvent(deps.db, { ...decision.effects, event: record("applied", decision.tenantId) });
  if (outcome === "wallet_missing") {
    // Cannot happen for intents created here (a top-up needs an enabled wallet); recorded, never guessed at.
    deps.log.error("payments callback for a tenant without a wallet", { event_id: event.eventId, tenant_id: decision.tenantId });
    const again = await applyPaymentEvent(deps.db, { event: record("ignored", decision.tenantId) });
    return { status: "accepted", eventId: event.eventId, state: "ignored", duplicate: again === "duplicate" };
  }
  if (outcome === "intent_completed") {
    // Another event completed this intent first (concurrently): credited once, this one changes nothing.
    const again = await applyPaymentEvent(deps.db, { event: record("ignored", decision.tenantId) });
    return { status: "accepted", eventId: event.eventId, state: "ignored", duplicate: again === "duplicate" };
  }
  if (outcome === "duplicate") {
    const stored = await findPaymentEvent(deps.db, event.eventId);
    return { status: "accepted", eventId: event.eventId, state: stored?.state ?? "applied", duplicate: true };
  }
  return {
    status: "accepted",
    eventId: event.eventId,
    state: "applied",
    duplicate: false,
    applied: { tenantId: decision.tenantId, type: event.type, intentId: "intentId" in resolved ? (resolved.intentId ?? null) : null },
  };
}

type Decision =
  | { status: "apply"; tenantId: string; effects: Omit<EventEffects, "event"> }
  | { status: "ignore"; tenantId: string | null; reason: string | null }
  | { status: "conflict"; reason: string };

/** What an event does, decided from the intent it names (the only source of its tenant). */
async function decide(db: Database, event: PaymentEvent): Promise<Decision> {
  if (event.kind === "other") return { status: "ignore", tenantId: null, reason: null };
  if (!event.intentId) return { status: "ignore", tenantId: null, reason: "no intent reference" };
  const intent = await findIntent(db, event.intentId);
  if (!intent) return { status: "ignore", tenantId: null, reason: "unknown intent" };
  if (event.tenantRef !== null && event.tenantRef !== intent.tenantId)
    return { status: "conflict", reason: "tenant differs from the intent's" };
  if (intent.kind !== "checkout") return { status: "conflict", reason: "the intent is not a checkout" };
  const account = await ensureAccount(db, intent.tenantId);

  if (event.kind === "debit") {
    if (intent.purpose !== "wallet_top_up") return { status: "ignore", tenantId: intent.tenantId, reason: "not a top-up" };
    if (event.amount <= 0) return { status: "ignore", tenantId: intent.tenantId, reason: "nothing to debit" };
    if (event.reason === "refund") {
      if (!event.chargeId) return { status: "conflict", reason: "a refund names no charge" };
      return {
        status: "apply",
        tenantId: intent.tenantId,
        // Never more than the top-up itself, whatever the provider reports.
        effects: {
          refund: {
            tenantId: intent.tenantId,
            chargeId: event.chargeId,
            refundedTotal: Math.min(event.amount, intent.amountMicros ?? 0),
          },
        },
      };
    }
    return {
      status: "apply",
      tenantId: intent.tenantId,
      effects: {
        walletTransaction: { tenantId: intent.tenantId, kind: event.reason, amount: -event.amount, chargeId: event.chargeId },
      },
    };
  }

  if (event.sessionId && intent.providerSessionId && event.sessionId !== intent.providerSessionId)
    return { status: "conflict", reason: "session differs from the intent's" };
  if (event.customerId && account.providerCustomerId && event.customerId !== account.providerCustomerId)
    return { status: "conflict", reason: "customer differs from the account's" };
  // Only an open intent completes (one the provider refused, or one already completed, never does).
  if (intent.status !== "open") return { status: "ignore", tenantId: intent.tenantId, reason: `intent ${intent.status}` };
  const paid = event.paymentStatus === "paid" || (intent.purpose === "subscription" && event.paymentStatus === "no_payment_required");
  // A delayed payment method completes the session unpaid: nothing moves until async_payment_succeeded.
  if (!paid) return { status: "ignore", tenantId: intent.tenantId, reason: "payment not received" };
  if (intent.purpose === "wallet_top_up") {
    const amount = intent.amountMicros ?? 0;
    if (event.sessionMode !== null && event.sessionMode !== "payment") return { status: "conflict", reason: "not a payment session" };
    if (event.amountTotalCents !== null && event.amountTotalCents * MICROS_PER_CENT !== amount)
      return { status: "conflict", reason: "amount differs from the intent's" };
    if (event.currency !== null && event.currency.toLowerCase() !== "usd") return { status: "conflict", reason: "currency is not USD" };
    return {
      status: "apply",
      tenantId: intent.tenantId,
      effects: {
        walletTransaction: { tenantId: intent.tenantId, kind: "top_up", amount, intentId: intent.id },
        completeIntentId: intent.id,
      },
    };
  }
  if (event.sessionMode !== null && event.sessionMode !== "subscription")
    return { status: "conflict", reason: "not a subscription session" };
  const plan = intent.planId ? planById(intent.planId) : null;
  if (!plan) return { status: "ignore", tenantId: intent.tenantId, reason: "intent without a plan" };
  return {
    status: "apply",
    tenantId: intent.tenantId,
    effects: {
      completeIntentId: intent.id,
      accountPlan: { tenantId: intent.tenantId, planId: plan.id, planRevision: plan.revision, customerId: event.customerId },
    },
  };
}
