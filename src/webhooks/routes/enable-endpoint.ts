import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { endpointOrThrow } from "../http";
import { EndpointIdParams, WebhookEndpointResponseSchema } from "../schemas";
import { enableEndpoint } from "../service";
import { endpointView } from "../views";

const request = { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) };

const enable = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/{endpoint_id}/enable",
  operationId: "enableWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Enable a webhook endpoint",
  description:
    "Checks the destination against the policy again, then resumes deliveries for new events, with the failure streak reset. Enabling an active endpoint changes nothing.",
  request,
  responses: {
    200: json(WebhookEndpointResponseSchema, "The active endpoint."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.endpoint_deleted`."),
    422: errorResponse("`svc.webhooks.destination_refused`: the destination no longer passes the policy; update the URL first."),
  },
});

export function register(app: Router) {
  app.openapi(enable, async (c) =>
    c.json(endpointView(endpointOrThrow(await enableEndpoint(c.env, principalOf(c).tenantId, c.req.valid("param").endpoint_id))), 200),
  );
}
