import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { failure } from "../http";
import { EndpointIdParams, IssuedWebhookEndpointResponseSchema } from "../schemas";
import { rotateSecret, withdrawRotatedSecret } from "../service";
import { endpointView } from "../views";

const request = { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) };

const rotate = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/{endpoint_id}/rotate-secret",
  operationId: "rotateWebhookEndpointSecret",
  tags: ["Webhook endpoints"],
  summary: "Rotate the signing secret",
  description:
    "Issues a new secret, shown once. Until the overlap is completed every delivery carries two `v1` signatures (new secret first, then the outgoing one), so receivers can deploy the new secret without missing a message. Replaying the Idempotency-Key answers 409 `secret_not_replayable`.",
  request,
  responses: {
    200: json(IssuedWebhookEndpointResponseSchema, "The endpoint (with `secret_overlap` open) and its new secret."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.rotation_in_progress`, `svc.webhooks.endpoint_deleted` or `secret_not_replayable`."),
  },
});

export function register(app: Router) {
  app.openapi(rotate, async (c) => {
    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable");
    const tenantId = principalOf(c).tenantId;
    const result = await rotateSecret(c.env.DB, pepper, tenantId, c.req.valid("param").endpoint_id);
    if (result.status !== "rotated") failure(result.status === "ok" ? { status: "not_found" } : result);
    // Withheld if the rotation cannot be audited: then it is undone, so the retry rotates afresh.
    const { id, secret_ciphertext: sealed } = result.row;
    c.set("withdrawSecret", () => withdrawRotatedSecret(c.env.DB, tenantId, id, sealed));
    return c.json({ endpoint: endpointView(result.row), secret: result.secret }, 200);
  });
}
