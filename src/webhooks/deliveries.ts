import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { releasedCheck } from "../history/repo";
import { notFound, principalOf } from "../platform/context";
import { json, NOT_FOUND } from "../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../platform/pagination";
import {
  DeliveryIdParams,
  EndpointIdParams,
  WebhookAttemptPageSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliveryResponseSchema,
} from "./schemas";
import { type AttemptRow, attemptView, type DeliveryRow, deliveryView, findDelivery, findEndpoint } from "./service";

const list = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/{endpoint_id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Webhook endpoints"],
  summary: "List an endpoint's deliveries",
  description:
    "Deliveries to the endpoint, newest first, optionally of one status. Bounded pages (1 to 100, default 50), snapshot-consistent cursor.",
  request: {
    params: EndpointIdParams,
    query: z.object({
      ...pageQuerySchema(100, 50),
      status: z
        .enum(["pending", "delivering", "delivered", "failed", "dead"])
        .optional()
        .openapi({ description: "Only deliveries in this status.", example: "failed" }),
    }),
  },
  responses: { 200: json(WebhookDeliveryPageSchema, "One page of deliveries."), ...NOT_FOUND },
});

const get = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/deliveries/{delivery_id}",
  operationId: "getWebhookDelivery",
  tags: ["Webhook endpoints"],
  summary: "Get a delivery",
  description: "One delivery: status, counts, next attempt and the last answer.",
  request: { params: DeliveryIdParams },
  responses: { 200: json(WebhookDeliveryResponseSchema, "The delivery."), ...NOT_FOUND },
});

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

export function registerDeliveryRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const { tenantId } = principalOf(c);
    const endpointId = c.req.valid("param").endpoint_id;
    const query = c.req.valid("query");
    if (!(await findEndpoint(c.env.DB, tenantId, endpointId))) throw notFound("webhook endpoint");
    const binding = { tenantId, collection: `webhook_deliveries?endpoint=${endpointId}&status=${query.status ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const after = page.after;
    const rows = await c.env.DB.prepare(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND tenant_id = ? AND created_at <= ? AND (? IS NULL OR status = ?)
         AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
      .bind(
        endpointId,
        tenantId,
        page.snapshot,
        query.status ?? null,
        query.status ?? null,
        after?.createdAt ?? null,
        after?.createdAt ?? 0,
        after?.createdAt ?? 0,
        after?.id ?? "",
        page.limit + 1,
      )
      .all<DeliveryRow>();
    const { rows: items, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      rows.results.map((r) => ({ ...r, createdAt: r.created_at })),
    );
    return c.json({ data: items.map(deliveryView), next_cursor: nextCursor }, 200);
  });

  app.openapi(get, async (c) => {
    const row = await findDelivery(c.env.DB, principalOf(c).tenantId, c.req.valid("param").delivery_id);
    if (!row) throw notFound("webhook delivery");
    return c.json(deliveryView(row), 200);
  });

  app.openapi(attempts, async (c) => {
    const { tenantId } = principalOf(c);
    const deliveryId = c.req.valid("param").delivery_id;
    if (!(await findDelivery(c.env.DB, tenantId, deliveryId))) throw notFound("webhook delivery");
    // Attempts are append-only and numbered: the cursor's position is the last attempt number served.
    const binding = { tenantId, collection: `webhook_attempts?delivery=${deliveryId}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, c.req.valid("query"), Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await c.env.DB.prepare(
      "SELECT * FROM webhook_attempts WHERE delivery_id = ? AND tenant_id = ? AND attempt_number > ? ORDER BY attempt_number LIMIT ?",
    )
      .bind(deliveryId, tenantId, page.after?.createdAt ?? 0, page.limit + 1)
      .all<AttemptRow>();
    const { rows: items, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      rows.results.map((r) => ({ ...r, createdAt: r.attempt_number, id: String(r.attempt_number) })),
    );
    return c.json({ data: items.map(attemptView), next_cursor: nextCursor }, 200);
  });
}
