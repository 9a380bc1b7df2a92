import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { pageQuerySchema } from "../../platform/pagination";
import { listDeliveries } from "../repo/deliveries";
import { findEndpoint } from "../repo/endpoints";
import { EndpointIdParams, WebhookDeliveryPageSchema } from "../schemas";
import { deliveryView } from "../views";
import { listPage } from "./list-page";

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

export function register(app: Router) {
  app.openapi(list, async (c) => {
    const { tenantId } = principalOf(c);
    const endpointId = c.req.valid("param").endpoint_id;
    const query = c.req.valid("query");
    if (!(await findEndpoint(c.env.DB, tenantId, endpointId))) throw notFound("webhook endpoint");
    const binding = { tenantId, collection: `webhook_deliveries?endpoint=${endpointId}&status=${query.status ?? ""}` };
    const page = await listPage(
      c,
      binding,
      query,
      (p) =>
        listDeliveries(c.env.DB, {
          tenantId,
          endpointId,
          snapshot: p.snapshot,
          status: query.status ?? null,
          after: p.after,
          limit: p.limit,
        }),
      deliveryView,
    );
    return c.json(page, 200);
  });
}
