import { iso } from "../../platform/openapi";
import { type Micros, usd } from "../money";
import { type PaymentsEnv, paymentsConfig } from "../payments/config";
import { lineView, PLANS, type Plan, PRICING, planById, type QuoteLine, type QuoteResult, quote } from "../pricing";
import { type AccountRow, monthOf, type WalletRow } from "../repo/accounts";
import type { ChargeRow, Movement } from "../repo/wallet";

/*
 * Wire views of the billing read side (issue #17). Pure: rows and `now` in, JSON out; no HTTP, no D1.
 */

export type PaymentsMode = "simulation" | "sandbox" | "provider";

/**
 * The payments mode the account and plans report: exactly the adapter intents would use (payments/config.ts), so
 * `sandbox` with a live key, or `simulation` outside development, reports null (no provider).
 */
export function paymentsModeOf(env: PaymentsEnv): PaymentsMode | null {
  // One reader of the payments settings: the mode shown is the adapter intents would use.
  return paymentsConfig(env).mode;
}

/** The calendar month (UTC, `YYYY-MM`) of `now`, as the wallet triggers count month spend. */
export function monthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

function capsView(plan: Plan, wallet: WalletRow | null) {
  const limit = wallet?.monthlySpendLimitMicros ?? plan.caps.monthly_spend_limit;
  return {
    max_upload_bytes: plan.caps.max_upload_bytes,
    jobs_per_minute: plan.caps.jobs_per_minute,
    monthly_spend_limit_usd: limit === null ? null : usd(limit),
  };
}

/** The plan an account is on; the default plan when its id is no longer published (never a 500). */
export function planOf(account: AccountRow): Plan {
  return planById(account.planId) ?? PLANS[0]!;
}

export function accountView(account: AccountRow, wallet: WalletRow | null, mode: PaymentsMode | null, now: number) {
  const plan = planOf(account);
  const service = monthOf(now);
  // A row whose period lapsed (no provider renewed it) reads as the calendar month it would have rolled into.
  const periodEnd = account.currentPeriodEnd > now ? account.currentPeriodEnd : service.end;
  const subscribed = plan.monthly_price > 0 && account.status !== "canceled";
  return {
    id: `acct_${account.tenantId.slice(account.tenantId.indexOf("_") + 1)}`,
    plan: plan.id,
    plan_display_name: plan.display_name,
    status: account.status,
    cancel_at_period_end: account.cancelAtPeriodEnd,
    caps: capsView(plan, wallet),
    current_period_end: iso(periodEnd),
    current_service_period_start: iso(service.start),
    current_service_period_end: iso(service.end),
    renewal_at: subscribed && !account.cancelAtPeriodEnd ? iso(periodEnd) : null,
    portal_available: (mode === "sandbox" || mode === "provider") && account.providerCustomerId !== null,
    provider_customer_provisioned: account.providerCustomerId !== null,
  };
}

export function plansView(mode: PaymentsMode | null) {
  return {
    plans: PLANS.map((p) => ({
      id: p.id,
      display_name: p.display_name,
      revision: p.revision,
      monthly_price_usd: usd(p.monthly_price),
      description: p.description,
      caps: capsView(p, null),
    })),
    pricing_version: PRICING.pricing_version,
    currency: "USD" as const,
    provider_mode: mode,
  };
}

export function pricingView() {
  return {
    pricing_version: PRICING.pricing_version,
    rates: PRICING.rates.map((r) => ({
      media_family: r.media_family,
      operation: r.operation,
      unit: r.unit,
      unit_price_usd: usd(r.unit_price),
      description: r.description,
    })),
    fingerprint_set_change: {
      unit: "file" as const,
      unit_price_usd: usd(PRICING.fingerprint_set_change),
      description: "changed fingerprint set",
    },
    envelope: { ...PRICING.envelope },
    currency: "USD" as const,
    activation: "requires_explicit_tenant_enrollment" as const,
    processing_credits_included: false as const,
  };
}

/** A quote request as received: decimal facts may be JSON numbers or decimal strings. */
export interface QuoteRequest {
  media_family: (typeof PRICING.rates)[number]["media_family"] | "live";
  operation: (typeof PRICING.rates)[number]["operation"];
  width: number | null;
  height: number | null;
  duration_seconds: number | string | null;
  frames_per_second: number | string | null;
}

const DECIMAL = /^(0|[1-9][0-9]{0,9})(\.[0-9]{1,9})?$/;

/**
 * Reads a decimal fact: a finite number, or a plain decimal string (no sign, exponent or spaces) whose value is
 * taken exactly (`quote` then refuses more precision than it prices). Undefined for anything else.
 */
function decimalFact(value: number | string | null): number | null | undefined {
  if (value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  return DECIMAL.test(value) ? Number(value) : undefined;
}

export type QuoteOutcome = QuoteResult | { status: "invalid"; field: string; message: string };

/** Prices a quote request (pure, writes nothing). */
export function priceRequest(request: QuoteRequest): QuoteOutcome {
  const duration = decimalFact(request.duration_seconds);
  if (duration === undefined)
    return { status: "invalid", field: "duration_seconds", message: "duration_seconds must be a number or a plain decimal string." };
  const fps = decimalFact(request.frames_per_second);
  if (fps === undefined)
    return { status: "invalid", field: "frames_per_second", message: "frames_per_second must be a number or a plain decimal string." };
  return quote({
    media_family: request.media_family,
    operation: request.operation,
    width: request.width,
    height: request.height,
    duration_seconds: duration,
    frames_per_second: fps,
  });
}

export function quoteView(result: Extract<QuoteResult, { status: "ok" }>) {
  return {
    lines: result.lines.map(lineView),
    pricing_version: result.pricing_version,
    total_usd: usd(result.total),
    currency: "USD" as const,
    estimate_only: true as const,
    excludes: ["subscription" as const, "storage" as const, "egress" as const, "tax" as const],
    final_facts_source: "server_validated_media_inspection" as const,
  };
}

/** `chg_` + the job id's suffix: one charge per job, stable across reads. */
export function chargeId(jobId: string): string {
  return `chg_${jobId.slice(jobId.indexOf("_") + 1)}`;
}

function isLine(value: unknown): value is QuoteLine {
  const l = value as QuoteLine;
  return (
    typeof l === "object" &&
    l !== null &&
    typeof l.description === "string" &&
    (l.unit === "file" || l.unit === "megapixel" || l.unit === "second") &&
    typeof l.quantity === "string" &&
    Number.isSafeInteger(l.unit_price) &&
    Number.isSafeInteger(l.amount)
  );
}

/** The stored quote lines of a reservation; malformed ones are left out rather than failing the read. */
export function storedLines(text: string): QuoteLine[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isLine) : [];
  } catch {
    return [];
  }
}

export function chargeView(row: ChargeRow) {
  return {
    id: chargeId(row.id),
    job_id: row.id,
    amount_usd: usd(row.amountMicros),
    lines: storedLines(row.lines).map(lineView),
    pricing_version: row.pricingVersion,
    created_at: iso(row.createdAt),
  };
}

/** The wallet on the wire; before opt-in (`wallet` null) the wallet as it would be: disabled, zeros, version 0. */
export function walletView(wallet: WalletRow | null, movements: Movement[], now: number) {
  const money = (value: Micros) => usd(value);
  return {
    balance_usd: money(wallet?.balanceMicros ?? 0),
    reserved_usd: money(wallet?.reservedMicros ?? 0),
    month_to_date_spend_usd: money(wallet && wallet.spendMonth === monthKey(now) ? wallet.monthSpendMicros : 0),
    monthly_spend_limit_usd: wallet?.monthlySpendLimitMicros == null ? null : money(wallet.monthlySpendLimitMicros),
    top_up_min_usd: "10.00" as const,
    top_up_max_usd: "10000.00" as const,
    enabled: wallet?.enabled ?? false,
    recharge_pending: wallet?.rechargePending ?? false,
    auto_recharge: {
      enabled: wallet?.autoRechargeEnabled ?? false,
      threshold_usd: wallet?.autoRechargeThresholdMicros == null ? null : money(wallet.autoRechargeThresholdMicros),
      amount_usd: wallet?.autoRechargeAmountMicros == null ? null : money(wallet.autoRechargeAmountMicros),
    },
    transactions: movements.map((m) => ({
      kind: m.kind,
      amount_usd: money(m.amountMicros),
      created_at: iso(m.createdAt),
      reference: m.kind === "charge" ? chargeId(m.reference) : m.reference,
    })),
    version: wallet?.version ?? 0,
    currency: "USD" as const,
  };
}
