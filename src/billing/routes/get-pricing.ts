import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { PricingResponseSchema } from "../schemas";
import { pricingView } from "../service/views";

const route = createRoute({
  method: "get",
  path: "/v1/billing/pricing",
  operationId: "getBillingPricing",
  tags: ["Billing"],
  summary: "Get pricing",
  description:
    "The rates in force per media family, operation and unit (file, megapixel, second), the fingerprint-set-change line and the pricing envelope. A change of prices is a new `pricing_version`, never an edit of a published one. Work is metered only after the tenant opts in (`activation`).",
  responses: { 200: json(PricingResponseSchema, "The pricing.") },
});

export function register(app: Router) {
  app.openapi(route, (c) => c.json(pricingView(), 200));
}
