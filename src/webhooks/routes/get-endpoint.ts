import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findEndpoint } from "../repo/endpoints";
import { EndpointIdParams, WebhookEndpointResponseSchema } from "../schemas";
import { endpointView } from "../views";

const route = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/{endpoint_id}",
  operationId: "getWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Get a webhook endpoint",
  description: "One endpoint, including a deleted one within its retention period. The secret is never shown again.",
  request: { params: EndpointIdParams },
  responses: { 200: json(WebhookEndpointResponseSchema, "The endpoint."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findEndpoint(c.env.DB, principalOf(c).tenantId, c.req.valid("param").endpoint_id);
    if (!row) throw notFound("webhook endpoint");
    return c.json(endpointView(row), 200);
  });
}
