import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { principalOf } from "../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../platform/openapi";
import { endpointOrThrow } from "./http";
import { EndpointIdParams, UpdateWebhookEndpointRequestSchema, WebhookEndpointResponseSchema } from "./schemas";
import { deleteEndpoint, endpointView, updateEndpoint } from "./service";

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

const remove = createRoute({
  method: "delete",
  path: "/v1/webhook-endpoints/{endpoint_id}",
  operationId: "deleteWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Delete a webhook endpoint",
  description:
    "Soft delete: no further attempts, unfinished deliveries end as `dead` (`endpoint_deleted`), the secrets are erased, and the record stays readable for 30 days, refusing every change (409 `svc.webhooks.endpoint_deleted`, also for a second delete).",
  request: { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    200: json(WebhookEndpointResponseSchema, "The deleted endpoint."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.endpoint_deleted`."),
  },
});

export function registerUpdateWebhookEndpoint(app: Router) {
  app.openapi(update, async (c) => {
    const row = endpointOrThrow(
      await updateEndpoint(c.env, principalOf(c).tenantId, c.req.valid("param").endpoint_id, c.req.valid("json")),
    );
    return c.json(endpointView(row), 200);
  });
}

export function registerDeleteWebhookEndpoint(app: Router) {
  app.openapi(remove, async (c) => {
    const row = endpointOrThrow(await deleteEndpoint(c.env.DB, principalOf(c).tenantId, c.req.valid("param").endpoint_id));
    return c.json(endpointView(row), 200);
  });
}
