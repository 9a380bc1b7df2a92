import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { completionInBatch } from "../../platform/idempotency";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { sendTestEvent, testEventRefusal } from "../deliveries";
import { failure } from "../http";
import { findEndpoint } from "../repo/endpoints";
import { EndpointIdParams, TestEventResponseSchema } from "../schemas";

/** SPEC "Limits": webhook test events, 10 per hour per endpoint. */
export const TEST_EVENTS_PER_HOUR = 10;

const route = createRoute({
  method: "post",
  path: "/v1/webhook-endpoints/{endpoint_id}/test",
  operationId: "sendWebhookTestEvent",
  tags: ["Webhook endpoints"],
  summary: "Send a test event (preview)",
  description:
    'Queues a synthetic, signed `webhook.test` event (`"test": true`) to this endpoint only, delivered like any other (gate, retries, attempts). At most 10 per hour per endpoint; beyond that 429 with Retry-After, and the refused request queues nothing.',
  request: { params: EndpointIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    202: json(TestEventResponseSchema, "The queued test delivery."),
    ...NOT_FOUND,
    409: errorResponse("`svc.webhooks.endpoint_disabled` or `svc.webhooks.endpoint_deleted`."),
    429: errorResponse("`svc.ratelimit.exceeded`: 10 test events per hour per endpoint; see Retry-After."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const endpointId = c.req.valid("param").endpoint_id;
    // State first, so a request refused anyway (unknown, deleted, disabled) spends none of the allowance.
    const endpoint = await findEndpoint(c.env.DB, tenantId, endpointId);
    if (!endpoint) failure({ status: "not_found" });
    const refusal = testEventRefusal(endpoint);
    if (refusal) failure(refusal);
    const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(`webhook-test:${endpointId}`));
    const decision = await limiter.limit(TEST_EVENTS_PER_HOUR, 3600);
    if (!decision.allowed) {
      const retryAfter = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
      throw new ApiError("svc.ratelimit.exceeded", `At most ${TEST_EVENTS_PER_HOUR} test events per hour per endpoint.`, {
        headers: { "retry-after": retryAfter },
      });
    }
    // The key is completed in the test event's own batch with the 202 below.
    const result = await sendTestEvent(c.env, endpoint, completionInBatch(c, 202));
    if (result.status !== "queued") failure(result.status === "ok" ? { status: "not_found" } : result);
    return c.json({ delivery_id: result.deliveryId, event_id: result.eventId }, 202);
  });
}
