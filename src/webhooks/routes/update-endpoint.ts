import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { endpointOrThrow } from "../http";
import { EndpointIdParams, UpdateWebhookEndpointRequestSchema, WebhookEndpointResponseSchema } from "../schemas";
import { updateEndpoint } from "../service";
import { endpointView } from "../views";

const update = createRoute({
  method: "patch",
  path: "/v1/webhook-endpoints/{endpoint_id}",
  operationId: "updateWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Update a webhook endpoint",
  description:
    "Changes the destination, the exact subscription (`events` replaces it whole) or the delivery controls. Changes apply from the next attempt; deliveries already created keep going to the endpoint. A deleted endpoint refuses with 409.",
  request: {
    params: EndpointIdParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: UpdateWebhookEndpointRequestSchema } }, required: true },
  },
  responses: {
    200: json(WebhookEndpointResponseSchema, "The updated endpoint."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.endpoint_deleted`."),
    422: errorResponse("`svc.webhooks.destination_refused`, `svc.webhooks.subscription_invalid`, or a malformed body."),
  },
});

export function register(app: Router) {
  app.openapi(update, async (c) => {
    const row = endpointOrThrow(
      await updateEndpoint(c.env, principalOf(c).tenantId, c.req.valid("param").endpoint_id, c.req.valid("json")),
    );
    return c.json(endpointView(row), 200);
  });
}
