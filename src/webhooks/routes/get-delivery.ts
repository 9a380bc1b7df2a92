import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findDelivery } from "../repo/deliveries";
import { DeliveryIdParams, WebhookDeliveryResponseSchema } from "../schemas";
import { deliveryView } from "../views";

const get = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/deliveries/{delivery_id}",
  operationId: "getWebhookDelivery",
  tags: ["Webhook endpoints"],
  summary: "Get a delivery",
  description: "One delivery: status, counts, next attempt and the last answer.",
  request: { params: DeliveryIdParams },
  responses: { 200: json(WebhookDeliveryResponseSchema, "The delivery."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(get, async (c) => {
    const row = await findDelivery(c.env.DB, principalOf(c).tenantId, c.req.valid("param").delivery_id);
    if (!row) throw notFound("webhook delivery");
    return c.json(deliveryView(row), 200);
  });
}
