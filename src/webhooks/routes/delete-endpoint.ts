import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { endpointOrThrow } from "../http";
import { EndpointIdParams, WebhookEndpointResponseSchema } from "../schemas";
import { deleteEndpoint } from "../service";
import { endpointView } from "../views";

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

export function register(app: Router) {
  app.openapi(remove, async (c) => {
    const row = endpointOrThrow(await deleteEndpoint(c.env.DB, principalOf(c).tenantId, c.req.valid("param").endpoint_id));
    return c.json(endpointView(row), 200);
  });
}
