import { z } from "@hono/zod-openapi";
import { Timestamp } from "../platform/openapi";
import { MEDIA_FAMILIES, PRICED_OPERATIONS } from "./pricing";

/*
 * Request and response shapes of the billing read side, quotes, the wallet and its settings, charges and usage
 * (SPEC "Billing", "Billing and usage"). SPEC names the top-level fields; the records inside (plans, rates, lines,
 * charges, transactions, the auto-recharge object) are "not shown" there, so they are ours and documented here.
 * Money is always a decimal string (`usd()`), never a JSON number.
 */

const Usd = (description: string, example = "12.34") =>
  z
    .string()
    .regex(/^-?(0|[1-9][0-9]*)\.[0-9]{2,6}$/)
    .openapi({ description, example });
const Currency = z.literal("USD").openapi({ description: "Every amount is in US dollars.", example: "USD" });
const PricingVersion = z
  .string()
  .openapi({ description: "The pricing version the figures were computed under.", example: "svc.pricing.2026-11.1" });
export const PaymentsModeSchema = z.enum(["simulation", "sandbox", "provider"]);

export const CapsSchema = z
  .object({
    max_upload_bytes: z.number().int().openapi({ description: "Largest upload the plan accepts, in bytes.", example: 2147483648 }),
    jobs_per_minute: z.number().int().openapi({ description: "Jobs the plan admits per minute.", example: 600 }),
    monthly_spend_limit_usd: Usd(
      "The monthly spend limit in force (the wallet's own limit, else the plan's), or null.",
      "500.00",
    ).nullable(),
  })
  .openapi("BillingCaps", { description: "Hard caps of the tenant's plan." });

export const AccountSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "Billing account id (`acct_` + the tenant id's suffix; one per tenant).", example: "acct_abcdefghij234567" }),
    plan: z.string().openapi({ description: "Plan id (see GET /v1/billing/plans).", example: "payg" }),
    plan_display_name: z.string().openapi({ description: "The plan's display name.", example: "Pay as you go" }),
    status: z.enum(["active", "past_due", "canceled"]).openapi({ description: "Account status.", example: "active" }),
    cancel_at_period_end: z.boolean().openapi({ description: "Whether the subscription ends at `current_period_end`.", example: false }),
    caps: CapsSchema,
    current_period_end: Timestamp("End of the current billing period (exclusive)."),
    current_service_period_start: Timestamp("Start of the metering period usage and month-to-date spend count (the UTC calendar month)."),
    current_service_period_end: Timestamp("End (exclusive) of the metering period."),
    renewal_at: Timestamp("When a paid plan renews; null for a plan without subscription or one cancelling at period end.").nullable(),
    portal_available: z.boolean().openapi({
      description:
        "Whether POST /v1/billing/portal-intents can open a real provider portal: a sandbox or live provider is configured and the account has a provider customer.",
      example: false,
    }),
    provider_customer_provisioned: z
      .boolean()
      .openapi({ description: "Whether the payments provider has a customer for this account.", example: false }),
  })
  .openapi("BillingAccount");

export const PlanSchema = z
  .object({
    id: z.string().openapi({ description: "Plan id.", example: "payg" }),
    display_name: z.string().openapi({ description: "Display name.", example: "Pay as you go" }),
    revision: z
      .number()
      .int()
      .openapi({ description: "Revision of the plan's terms; jobs record it as `active_plan_revision`.", example: 1 }),
    monthly_price_usd: Usd("Monthly subscription price; 0.00 for pay-as-you-go.", "0.00"),
    description: z.string().openapi({ description: "What the plan is for." }),
    caps: CapsSchema,
  })
  .openapi("BillingPlan");

export const PlansResponseSchema = z
  .object({
    plans: z.array(PlanSchema).openapi({ description: "The published plans." }),
    pricing_version: PricingVersion,
    currency: Currency,
    provider_mode: PaymentsModeSchema.nullable().openapi({
      description:
        "`provider` live money, `sandbox` provider test mode, `simulation` the inert local adapter (the default in development), or null when no payments provider is configured (production without SVC_PAYMENTS_MODE).",
      example: "simulation",
    }),
  })
  .openapi("BillingPlans");

export const RateSchema = z
  .object({
    media_family: z.enum(MEDIA_FAMILIES).openapi({ description: "Media family priced.", example: "image" }),
    operation: z.enum(PRICED_OPERATIONS).openapi({ description: "Operation priced.", example: "sign" }),
    unit: z.enum(["file", "megapixel", "second"]).openapi({ description: "What one unit is.", example: "file" }),
    unit_price_usd: Usd("Price per unit (µUSD precision).", "0.002"),
    description: z.string().openapi({ description: "What the rate prices.", example: "sign one image" }),
  })
  .openapi("BillingRate");

export const PricingResponseSchema = z
  .object({
    pricing_version: PricingVersion,
    rates: z.array(RateSchema).openapi({ description: "Every rate in force; a quote adds one line per matching rate." }),
    fingerprint_set_change: z
      .object({
        unit: z.literal("file").openapi({ description: "Charged once per job." }),
        unit_price_usd: Usd("Added once when a sign request names a fingerprint set other than the recipe's default.", "0.0005"),
        description: z.string().openapi({ description: "What the line describes.", example: "changed fingerprint set" }),
      })
      .openapi({ description: "The line added for a changed fingerprint set." }),
    envelope: z
      .object({
        max_megapixels: z.number().openapi({ description: "Largest image priced, in megapixels.", example: 100 }),
        max_duration_seconds: z.number().openapi({ description: "Longest audio or video priced, in seconds.", example: 14400 }),
        max_frames_per_second: z.number().openapi({ description: "Highest frame rate priced.", example: 240 }),
      })
      .openapi({ description: "What is priced at all: a quote outside it answers 422." }),
    currency: Currency,
    activation: z.literal("requires_explicit_tenant_enrollment").openapi({
      description: "Work is metered only after the tenant opts in (PUT /v1/billing/wallet/settings with expected_version 0).",
    }),
    processing_credits_included: z.literal(false).openapi({ description: "No plan includes processing credits." }),
  })
  .openapi("BillingPricing");

export const LineSchema = z
  .object({
    description: z.string().openapi({ description: "What the line prices.", example: "watermark, per megapixel" }),
    unit: z.enum(["file", "megapixel", "second"]).openapi({ description: "What one unit is.", example: "megapixel" }),
    quantity: z.string().openapi({ description: "Exact decimal quantity of units.", example: "12.000000" }),
    unit_price_usd: Usd("Price per unit.", "0.0008"),
    amount_usd: Usd("quantity × unit price, rounded up to the micro-dollar.", "0.0096"),
  })
  .openapi("BillingLine");

/** A number, or a decimal string parsed exactly (e.g. "29.97"); null when not applicable. */
const DecimalFact = (description: string) =>
  z
    .union([z.number(), z.string().max(32)])
    .nullable()
    .default(null)
    .openapi({ description, example: "12.5" });

export const QuoteRequestSchema = z
  .object({
    media_family: z
      .enum(MEDIA_FAMILIES)
      .openapi({ description: "Media family of the work (`live` has no price yet: 422).", example: "image" }),
    operation: z.enum(PRICED_OPERATIONS).openapi({ description: "The operation to price.", example: "sign" }),
    width: z.number().int().nullable().default(null).openapi({ description: "Pixels; needed for per-megapixel lines.", example: 4000 }),
    height: z.number().int().nullable().default(null).openapi({ description: "Pixels; needed for per-megapixel lines.", example: 3000 }),
    duration_seconds: DecimalFact("Seconds (at most 3 decimals); needed for audio and video."),
    frames_per_second: DecimalFact("Frames per second of video, within the envelope; optional."),
  })
  .strict()
  .openapi("BillingQuoteRequest", { description: "The media facts the server's own inspection would record for the work." });

export const QuoteResponseSchema = z
  .object({
    lines: z.array(LineSchema).openapi({ description: "One line per matching rate (plus the fingerprint-set line when it applies)." }),
    pricing_version: PricingVersion,
    total_usd: Usd("Sum of the lines.", "0.0116"),
    currency: Currency,
    estimate_only: z.literal(true).openapi({ description: "Always true: the charge is priced at admission from the server's inspection." }),
    excludes: z.array(z.enum(["subscription", "storage", "egress", "tax"])).openapi({ description: "What the total does not include." }),
    final_facts_source: z.literal("server_validated_media_inspection").openapi({
      description: "The charge is priced from the server's inspection of the uploaded bytes, not from these facts.",
    }),
  })
  .openapi("BillingQuote");

export const AutoRechargeSchema = z
  .object({
    enabled: z
      .boolean()
      .openapi({ description: "Whether a recharge starts when balance − reserved falls below the threshold.", example: false }),
    threshold_usd: Usd(
      "Recharge when balance − reserved falls below this (whole cents, 0.00–10000.00); null when off.",
      "20.00",
    ).nullable(),
    amount_usd: Usd("Amount of each recharge (whole cents, 10.00–10000.00); null when off.", "50.00").nullable(),
  })
  .openapi("AutoRecharge");

export const TransactionSchema = z
  .object({
    kind: z
      .enum(["top_up", "refund", "dispute", "adjustment", "charge"])
      .openapi({ description: "What moved the balance.", example: "charge" }),
    amount_usd: Usd("Signed: credits positive, debits (charges, refunds, disputes) negative.", "-0.0116"),
    created_at: Timestamp("When it moved the balance."),
    reference: z
      .string()
      .openapi({ description: "The charge id (`chg_…`) for a charge, else the ledger transaction id.", example: "chg_abcdefghij234567" }),
  })
  .openapi("WalletTransaction");

export const WalletSchema = z
  .object({
    balance_usd: Usd("Prepaid balance (may be negative after a refund or dispute).", "50.00"),
    reserved_usd: Usd(
      "Quoted cost of admitted, unpublished work; new work is admitted only while its quote fits balance − reserved.",
      "0.0116",
    ),
    month_to_date_spend_usd: Usd("Charges settled this UTC calendar month.", "3.21"),
    monthly_spend_limit_usd: Usd("Monthly spend limit, or null for none.", "500.00").nullable(),
    top_up_min_usd: z.literal("10.00").openapi({ description: "Smallest top-up (and auto-recharge amount)." }),
    top_up_max_usd: z.literal("10000.00").openapi({ description: "Largest top-up (and auto-recharge amount)." }),
    enabled: z.boolean().openapi({ description: "Whether the tenant's work is metered and admitted against this wallet.", example: true }),
    recharge_pending: z.boolean().openapi({ description: "An automatic recharge was started and has not completed.", example: false }),
    auto_recharge: AutoRechargeSchema,
    transactions: z.array(TransactionSchema).openapi({ description: "The latest 20 balance movements (charges included), newest first." }),
    version: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Send as `expected_version` to change the settings; 0 before the tenant opted in.", example: 1 }),
    currency: Currency,
  })
  .openapi("Wallet", {
    description: "Before the tenant opted in, the wallet as it would be: `enabled` false, zero amounts, no transactions, `version` 0.",
  });

const CentsText = (description: string, example: string) =>
  z
    .string()
    .max(16)
    .openapi({ description: `${description} Decimal string, whole cents.`, example });

export const WalletSettingsRequestSchema = z
  .object({
    auto_recharge: z
      .object({
        enabled: z.boolean().openapi({ description: "Auto-recharge on or off; turning it on needs a console session.", example: false }),
        threshold_usd: CentsText("Required when enabled: 0.00 to 10000.00.", "20.00").nullable().default(null),
        amount_usd: CentsText("Required when enabled: 10.00 to 10000.00.", "50.00").nullable().default(null),
      })
      .strict()
      .openapi({ description: "The auto-recharge settings wanted (required; send the current ones to leave them unchanged)." }),
    enabled: z
      .boolean()
      .default(true)
      .openapi({ description: "false opts out (refused while balance is negative or work is reserved).", example: true }),
    expected_version: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .openapi({ description: "The wallet `version` last read; 0 opts in (creates the wallet).", example: 0 }),
    monthly_spend_limit_usd: CentsText("Monthly spend limit (0.00 to 1000000.00); null removes it; absent leaves it unchanged.", "500.00")
      .nullable()
      .optional(),
  })
  .strict()
  .openapi("WalletSettingsRequest");

export const ChargeSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "Charge id: `chg_` + the job id's suffix (one charge per job).", example: "chg_abcdefghij234567" }),
    job_id: z.string().openapi({ description: "The charged job.", example: "job_abcdefghij234567" }),
    amount_usd: Usd("The settled quote.", "0.0116"),
    lines: z.array(LineSchema).openapi({ description: "The quote lines the job was admitted with." }),
    pricing_version: PricingVersion,
    created_at: Timestamp("When the job's publication settled the reservation."),
  })
  .openapi("BillingCharge");

export const ChargesPageSchema = z
  .object({
    items: z.array(ChargeSchema).openapi({ description: "Charges, newest first." }),
    next_before: z.string().nullable().openapi({ description: "Pass as `before` for the next (older) page; null on the last page." }),
    currency: Currency,
    provider_charge_created: z
      .literal(false)
      .openapi({ description: "Charges come out of the prepaid wallet; no provider charge is created per job." }),
  })
  .openapi("BillingCharges");

export const UsageItemSchema = z
  .object({
    media_family: z
      .string()
      .openapi({ description: "The job's inspected media family (`unknown` when the job record is gone).", example: "image" }),
    operation: z.enum(["sign", "watermark", "watermark_then_sign"]).openapi({ description: "The charged operation.", example: "sign" }),
    jobs: z.number().int().openapi({ description: "Charged jobs.", example: 3 }),
    units: z
      .object({
        file: z.string().openapi({ description: "Files charged per file.", example: "3" }),
        megapixel: z.string().openapi({ description: "Megapixels charged.", example: "36" }),
        second: z.string().openapi({ description: "Seconds of audio or video charged.", example: "0" }),
      })
      .openapi({ description: "Exact decimal sums of the charged quantities per unit." }),
    amount_usd: Usd("Sum of the charges.", "0.0348"),
  })
  .openapi("UsageItem");

export const UsageSchema = z
  .object({
    period_start: Timestamp("Start of the metering period (UTC calendar month)."),
    period_end: Timestamp("End (exclusive) of the metering period."),
    metered: z
      .boolean()
      .openapi({ description: "Whether the tenant's work is admitted against a wallet (opted in and enabled).", example: true }),
    items: z
      .array(UsageItemSchema)
      .openapi({ description: "Authoritative usage: the period's charges (settled reservations) by media family and operation." }),
    total_usd: Usd("Sum of `items` (equals the sum of the period's charges).", "0.0348"),
    credit_balance_usd: Usd(
      "For a metered tenant: balance − reserved, what new work can still be admitted against; null otherwise.",
      "49.96",
    ).nullable(),
    caps: CapsSchema.nullable().openapi({ description: "For an unmetered tenant: the plan's hard caps; null for a metered one." }),
    pricing_version: PricingVersion,
    currency: Currency,
  })
  .openapi("Usage");
