import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { parseUsd } from "../money";
import { intentDeps, intentError, intentView } from "../payments/http";
import { CheckoutIntentRequestSchema, IntentResponseSchema } from "../payments/schemas";
import { createCheckoutIntent } from "../payments/service";

const route = createRoute({
  method: "post",
  path: "/v1/billing/checkout-intents",
  operationId: "createBillingCheckoutIntent",
  tags: ["Billing"],
  summary: "Start a checkout (subscription or wallet top-up)",
  description:
    "Creates a hosted checkout with the configured payments provider and answers where to send the customer. Nothing is charged here: the wallet is credited (or the plan changed) only when the provider's signed callback reaches POST /webhooks/payments. A top-up needs an opted-in, enabled wallet (409 `svc.billing.wallet_not_enabled`). Checkout and portal intents together are limited to 10 a minute per account (429 `BILLING_INTENT_RATE_LIMITED` with Retry-After; the refused request creates nothing). In `simulation` mode (development) `url` is a local page whose button completes the checkout through the same callback path.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CheckoutIntentRequestSchema } }, required: true },
  },
  responses: {
    201: json(IntentResponseSchema, "The intent."),
    409: errorResponse("`svc.billing.wallet_not_enabled`: a top-up into a wallet that is not opted in and enabled."),
    422: errorResponse(
      "`redirect_url_not_allowed` (success or cancel URL not on a configured console origin), `svc.billing.plan_unknown`, `svc.billing.plan_required`, or `svc.request.invalid`.",
    ),
    429: errorResponse("`BILLING_INTENT_RATE_LIMITED`: more than 10 intents in the last minute for this account; see Retry-After."),
    502: errorResponse("`svc.billing.provider_error`: the provider rejected the service's credentials or answered something unusable."),
    503: errorResponse(
      "`svc.billing.provider_unavailable` (no provider configured, or unreachable) or `svc.billing.plan_not_priced` (the plan has no provider price).",
    ),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const body = c.req.valid("json");
    const result = await createCheckoutIntent(intentDeps(c), {
      tenantId,
      purpose: body.purpose,
      plan: body.plan,
      amount: body.purpose === "wallet_top_up" && body.amount_usd !== undefined ? parseUsd(body.amount_usd, 2) : null,
      successUrl: body.success_url,
      cancelUrl: body.cancel_url,
    });
    if (result.status !== "ok") throw intentError(result);
    return c.json(intentView(result.intent), 201);
  });
}
