import { z } from "@hono/zod-openapi";
import { idSchema } from "../../platform/ids";
import { isWholeCents, MICROS_PER_USD, parseUsd } from "../money";

/** Top-up bounds (SPEC "Limits": whole cents, USD 10 to 10,000). */
export const TOP_UP_MIN = 10 * MICROS_PER_USD;
export const TOP_UP_MAX = 10_000 * MICROS_PER_USD;

const RedirectUrl = (description: string) =>
  z.string().min(1).max(2048).openapi({ description, example: "https://console.example.com/billing?checkout=done" });

export const CheckoutIntentRequestSchema = z
  .object({
    purpose: z.enum(["subscription", "wallet_top_up"]).default("subscription").openapi({
      description: "`subscription` (default): subscribe the account to `plan`. `wallet_top_up`: add `amount_usd` to the prepaid wallet.",
      example: "wallet_top_up",
    }),
    plan: z.string().max(64).nullable().default(null).openapi({
      description:
        "A plan id of GET /v1/billing/plans, or null. Required for a subscription whenever a real checkout redirect is returned (sandbox and provider modes; 422 `svc.billing.plan_required`); the simulation answers an inert intent (url null) without one. For a top-up it is optional and does not change the plan.",
      example: "studio",
    }),
    amount_usd: z.string().optional().openapi({
      description: "Top-up only (required there, refused otherwise): whole cents, USD 10.00 to 10000.00, as a decimal string.",
      example: "25.00",
    }),
    success_url: RedirectUrl(
      "Where the provider sends the customer after paying; must be on a configured console origin (422 `redirect_url_not_allowed`).",
    ),
    cancel_url: RedirectUrl("Where the provider sends the customer on cancel; must be on a configured console origin."),
  })
  .superRefine((body, ctx) => {
    if (body.purpose !== "wallet_top_up") {
      if (body.amount_usd !== undefined)
        ctx.addIssue({ code: "custom", path: ["amount_usd"], message: "amount_usd is only for purpose wallet_top_up." });
      return;
    }
    const amount = body.amount_usd === undefined ? null : parseUsd(body.amount_usd, 2);
    if (amount === null || !isWholeCents(amount) || amount < TOP_UP_MIN || amount > TOP_UP_MAX)
      ctx.addIssue({ code: "custom", path: ["amount_usd"], message: "amount_usd must be whole cents from 10.00 to 10000.00." });
  })
  .openapi("CheckoutIntentRequest");

export const PortalIntentRequestSchema = z
  .object({
    return_url: RedirectUrl("Where the billing portal sends the customer back; must be on a configured console origin."),
  })
  .openapi("PortalIntentRequest");

export const IntentResponseSchema = z
  .object({
    id: idSchema("billingIntent", "The intent's id (`bin_…`); the provider's session carries it, and so does its callback."),
    mode: z.enum(["simulation", "sandbox", "provider"]).openapi({
      description:
        "`provider`: live money. `sandbox`: the provider's test mode. `simulation`: inert local adapter (development), no money moves.",
      example: "sandbox",
    }),
    url: z.string().nullable().openapi({
      description:
        "Where to send the customer: the provider's hosted checkout or portal, or in simulation a local development page that completes the checkout through POST /webhooks/payments. Null when there is nothing to act on.",
      example: "https://checkout.stripe.com/c/pay/cs_test_a1b2c3",
    }),
    actionable: z.boolean().openapi({ description: "Whether `url` leads somewhere the customer can complete the intent.", example: true }),
    expires_at: z.string().datetime().openapi({ description: "When `url` stops working.", example: "2026-11-26T10:00:00.000Z" }),
  })
  .openapi("BillingIntent");

export const PaymentsCallbackResponseSchema = z
  .object({
    event_id: z.string().openapi({ description: "The provider's event id (the deduplication key).", example: "evt_1QabcDEF" }),
    state: z.enum(["applied", "ignored"]).openapi({
      description:
        "`applied`: the event changed the wallet or account (checkout completed, refund, dispute). `ignored`: recorded, nothing to do (other event types, events naming no intent of ours).",
      example: "applied",
    }),
    duplicate: z.boolean().openapi({
      description: "True when this event id was already received: the answer repeats its state and nothing changed.",
      example: false,
    }),
  })
  .openapi("PaymentsCallbackResult");
