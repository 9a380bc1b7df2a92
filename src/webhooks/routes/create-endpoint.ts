import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { idFor } from "../../platform/idempotent-ids";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { failure } from "../http";
import { CreateWebhookEndpointRequestSchema, IssuedWebhookEndpointResponseSchema } from "../schemas";
import { createEndpoint, deleteEndpoint, MAX_ENDPOINTS_PER_TENANT } from "../service";
import { endpointView } from "../views";

const route = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  tags: ["Webhook endpoints"],
  summary: "Create a webhook endpoint",
  description:
    "Registers an HTTPS destination for exact event types. The signing secret (`whsec_…`) is returned once and only stored encrypted for signing, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable` (rotate the secret with a new key instead). The destination is checked against the policy, including every address its name resolves to.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateWebhookEndpointRequestSchema } }, required: true },
  },
  responses: {
    201: json(IssuedWebhookEndpointResponseSchema, "The endpoint and its one-time secret."),
    409: errorResponse(
      `\`secret_not_replayable\` for a replayed completed create; \`svc.webhooks.endpoint_limit\` at ${MAX_ENDPOINTS_PER_TENANT} endpoints.`,
    ),
    422: errorResponse("`svc.webhooks.destination_refused` or `svc.webhooks.subscription_invalid`, or a malformed body."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable");
    const tenantId = principalOf(c).tenantId;
    const idempotencyKey = c.req.header("idempotency-key");
    const id = idempotencyKey
      ? await idFor("webhookEndpoint", pepper, { tenantId, operation: "POST /v1/webhook-endpoints", key: idempotencyKey })
      : undefined;
    const result = await createEndpoint(c.env, pepper, tenantId, c.req.valid("json"), id);
    if (result.status === "limit_reached")
      throw new ApiError(
        "svc.webhooks.endpoint_limit",
        `A tenant may have ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first.`,
      );
    if (result.status !== "created") failure(result);
    // A secret withheld (its issue unaudited) is undone with its endpoint (deleted, secrets wiped), keyed or not: a
    // keyed retry could re-seal it only while no delivery was attempted, and one may be attempted before the retry
    // comes, which would leave a live endpoint signing with a secret nobody holds. The retry creates a new one.
    const created = result.row;
    c.set("withdrawSecret", () => deleteEndpoint(c.env.DB, tenantId, created.id).then(() => undefined));
    return c.json({ endpoint: endpointView(result.row), secret: result.secret }, 201);
  });
}
