import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { claimKeyInBatch, completionInBatch } from "../../platform/idempotency";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { replayEvent } from "../deliveries";
import { EventReplayResponseSchema, WebhookEventIdSchema } from "../schemas";

const replayAll = createRoute({
  method: "post",
  path: "/v1/webhook-events/{event_id}/replay",
  operationId: "replayWebhookEvent",
  tags: ["Webhook endpoints"],
  summary: "Replay an event",
  description:
    "Delivers the event again to every active endpoint subscribed to its type now (a test event: its one endpoint). Finished deliveries start again (`replay_count` raised), subscribed endpoints without one get one, deliveries still in progress are left alone and not counted.",
  request: { params: z.object({ event_id: WebhookEventIdSchema }), headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: { 200: json(EventReplayResponseSchema, "The event and how many deliveries were queued."), ...NOT_FOUND },
});

export function register(app: Router) {
  // The replay's one write is its batch (deliveries.ts replayEvent): the key is claimed there too (#19).
  claimKeyInBatch(`POST ${replayAll.path}`);
  app.openapi(replayAll, async (c) => {
    // The key is claimed and completed in the replay's own batch with the 200 below (its body computed there).
    const result = await replayEvent(c.env, principalOf(c).tenantId, c.req.valid("param").event_id, completionInBatch(c, 200));
    if (result.status === "not_found") throw notFound("webhook event");
    return c.json({ event_id: result.eventId, delivery_count: result.deliveryCount }, 200);
  });
}
