import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageQuerySchema } from "../../platform/pagination";
import { listEndpoints } from "../repo/endpoints";
import { WebhookEndpointPageSchema } from "../schemas";
import { endpointView } from "../views";
import { listPage } from "./list-page";

const route = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  tags: ["Webhook endpoints"],
  summary: "List webhook endpoints",
  description:
    "The tenant's endpoints, newest first. Deleted endpoints (within their retention) only with `include_deleted=true`. Snapshot-consistent cursor pagination.",
  request: {
    query: z.object({
      ...pageQuerySchema(100, 50),
      include_deleted: z
        .enum(["true", "false"])
        .default("false")
        .transform((v) => v === "true")
        .openapi({ description: "Include deleted endpoints that are still retained.", example: "false" }),
    }),
  },
  responses: { 200: json(WebhookEndpointPageSchema, "One page of endpoints.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `webhook_endpoints?include_deleted=${query.include_deleted}` };
    const page = await listPage(
      c,
      binding,
      query,
      (p) =>
        listEndpoints(c.env.DB, {
          tenantId,
          snapshot: p.snapshot,
          includeDeleted: query.include_deleted,
          now: Date.now(),
          after: p.after,
          limit: p.limit,
        }),
      endpointView,
    );
    return c.json(page, 200);
  });
}
