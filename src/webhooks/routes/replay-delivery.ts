import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { claimKeyInBatch, completionInBatch } from "../../platform/idempotency";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { replayDelivery } from "../deliveries";
import { DeliveryIdParams, DeliveryReplayResponseSchema } from "../schemas";

const replayOne = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/deliveries/{delivery_id}/replay",
  operationId: "replayWebhookDelivery",
  tags: ["Webhook endpoints"],
  summary: "Replay a delivery",
  description:
    "Authorizes one more delivery of the original event to the same endpoint: the same body and the same `webhook-id` (receivers that deduplicate will see a duplicate), a fresh signature and timestamp, `replay_count` raised. Only a finished delivery (`delivered`, `failed`, `dead`) on an active endpoint can be replayed. The Idempotency-Key is required: reusing it for another delivery, or while the matching replay is still being accepted, answers 409.",
  request: { params: DeliveryIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    200: json(DeliveryReplayResponseSchema, "The replayed event."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.delivery_in_progress`, `svc.webhooks.endpoint_disabled` or `svc.webhooks.endpoint_deleted`."),
  },
});

export function register(app: Router) {
  // The restart is the replay's one write (what comes before it reads): the key is claimed in its batch (#19).
  claimKeyInBatch(`POST ${replayOne.path}`);
  app.openapi(replayOne, async (c) => {
    // The key is claimed and completed in the restart's own batch with the 200 below.
    const result = await replayDelivery(c.env, principalOf(c).tenantId, c.req.valid("param").delivery_id, completionInBatch(c, 200));
    if (result.status === "not_found") throw notFound("webhook delivery");
    if (result.status === "conflict") throw new ApiError(result.code, result.message);
    return c.json({ event_id: result.eventId }, 200);
  });
}
