import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { endpointOrThrow } from "../http";
import { EndpointIdParams, WebhookEndpointResponseSchema } from "../schemas";
import { completeSecretOverlap } from "../service";
import { endpointView } from "../views";

const request = { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) };

const complete = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/{endpoint_id}/secret-overlap/complete",
  operationId: "completeWebhookSecretOverlap",
  tags: ["Webhook endpoints"],
  summary: "Complete a secret rotation overlap",
  description: "Retires the outgoing secret: from the next attempt only the new secret signs.",
  request,
  responses: {
    200: json(WebhookEndpointResponseSchema, "The endpoint with one secret."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.no_secret_overlap` or `svc.webhooks.endpoint_deleted`."),
  },
});

export function register(app: Router) {
  app.openapi(complete, async (c) =>
    c.json(
      endpointView(endpointOrThrow(await completeSecretOverlap(c.env.DB, principalOf(c).tenantId, c.req.valid("param").endpoint_id))),
      200,
    ),
  );
}
