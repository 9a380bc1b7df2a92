import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { releasedCheck } from "../history/repo";
import { principalOf } from "../platform/context";
import { json } from "../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../platform/pagination";
import { WebhookEndpointPageSchema } from "./schemas";
import { type EndpointRow, endpointView } from "./service";

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

export function registerListWebhookEndpoints(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `webhook_endpoints?include_deleted=${query.include_deleted}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const after = page.after;
    const rows = await c.env.DB.prepare(
      `SELECT * FROM webhook_endpoints WHERE tenant_id = ? AND created_at <= ?
         AND (state != 'deleted' OR (? AND retain_until > ?))
         AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
      .bind(
        tenantId,
        page.snapshot,
        query.include_deleted ? 1 : 0,
        Date.now(),
        after?.createdAt ?? null,
        after?.createdAt ?? 0,
        after?.createdAt ?? 0,
        after?.id ?? "",
        page.limit + 1,
      )
      .all<EndpointRow>();
    const { rows: items, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      rows.results.map((r) => ({ ...r, createdAt: r.created_at })),
    );
    return c.json({ data: items.map(endpointView), next_cursor: nextCursor }, 200);
  });
}
