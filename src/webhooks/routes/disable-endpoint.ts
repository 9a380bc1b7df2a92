import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { endpointOrThrow } from "../http";
import { EndpointIdParams, WebhookEndpointResponseSchema } from "../schemas";
import { disableEndpoint } from "../service";
import { endpointView } from "../views";

const request = { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) };

const disable = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/{endpoint_id}/disable",
  operationId: "disableWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Disable a webhook endpoint",
  description:
    "Stops deliveries: unfinished ones end visibly as `dead` with `endpoint_disabled` (replay them after enabling). Disabling a disabled endpoint changes nothing.",
  request,
  responses: {
    200: json(WebhookEndpointResponseSchema, "The disabled endpoint."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.endpoint_deleted`."),
  },
});

export function register(app: Router) {
  app.openapi(disable, async (c) =>
    c.json(endpointView(endpointOrThrow(await disableEndpoint(c.env.DB, principalOf(c).tenantId, c.req.valid("param").endpoint_id))), 200),
  );
}
