import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { PlansResponseSchema } from "../schemas";
import { paymentsModeOf, plansView } from "../service/views";

const route = createRoute({
  method: "get",
  path: "/v1/billing/plans",
  operationId: "listBillingPlans",
  tags: ["Billing"],
  summary: "List plans",
  description:
    "The published plans and the pricing version in force. Answered from published data: no payments provider is called. `provider_mode` is null when no payments provider is configured (SVC_PAYMENTS_MODE unset outside development).",
  responses: { 200: json(PlansResponseSchema, "The plans.") },
});

export function register(app: Router) {
  app.openapi(route, (c) => c.json(plansView(paymentsModeOf(c.env)), 200));
}
