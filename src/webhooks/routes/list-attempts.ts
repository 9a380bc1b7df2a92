import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { findDelivery, listAttempts } from "../repo/deliveries";
import { DeliveryIdParams, WebhookAttemptPageSchema } from "../schemas";
import { attemptView } from "../views";

const attempts = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/deliveries/{delivery_id}/attempts",
  operationId: "listWebhookDeliveryAttempts",
  tags: ["Webhook endpoints"],
  summary: "List a delivery's attempts",
  description: "Every attempt of the delivery, oldest first (1 to 100 per page, default 50).",
  request: { params: DeliveryIdParams, query: z.object(pageQuerySchema(100, 50)) },
  responses: { 200: json(WebhookAttemptPageSchema, "One page of attempts."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(attempts, async (c) => {
    const { tenantId } = principalOf(c);
    const deliveryId = c.req.valid("param").delivery_id;
    if (!(await findDelivery(c.env.DB, tenantId, deliveryId))) throw notFound("webhook delivery");
    // Attempts are append-only and numbered: the cursor's position is the last attempt number served.
    const binding = { tenantId, collection: `webhook_attempts?delivery=${deliveryId}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, c.req.valid("query"), Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listAttempts(c.env.DB, tenantId, deliveryId, page.after?.createdAt ?? 0, page.limit + 1);
    const { rows: items, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      rows.map((r) => ({ ...r, createdAt: r.attempt_number, id: String(r.attempt_number) })),
    );
    return c.json({ data: items.map(attemptView), next_cursor: nextCursor }, 200);
  });
}
