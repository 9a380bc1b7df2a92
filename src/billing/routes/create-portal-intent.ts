import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { intentDeps, intentError, intentView } from "../payments/http";
import { IntentResponseSchema, PortalIntentRequestSchema } from "../payments/schemas";
import { createPortalIntent } from "../payments/service";

const route = createRoute({
  method: "post",
  path: "/v1/billing/portal-intents",
  operationId: "createBillingPortalIntent",
  tags: ["Billing"],
  summary: "Open the provider's billing portal",
  description:
    "Creates a billing-portal session (payment methods, invoices, subscription) for the account's provider customer, provisioning the customer on first use. Counts toward the same 10-a-minute limit as checkout intents. In `simulation` mode there is no portal: `url` is null and `actionable` false.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: PortalIntentRequestSchema } }, required: true },
  },
  responses: {
    201: json(IntentResponseSchema, "The intent."),
    422: errorResponse("`redirect_url_not_allowed`: return_url is not on a configured console origin; or `svc.request.invalid`."),
    429: errorResponse("`BILLING_INTENT_RATE_LIMITED`: more than 10 intents in the last minute for this account; see Retry-After."),
    502: errorResponse("`svc.billing.provider_error`: the provider rejected the service's credentials or answered something unusable."),
    503: errorResponse("`svc.billing.provider_unavailable`: no provider configured, or unreachable."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const result = await createPortalIntent(intentDeps(c), { tenantId, returnUrl: c.req.valid("json").return_url });
    if (result.status !== "ok") throw intentError(result);
    return c.json(intentView(result.intent), 201);
  });
}
