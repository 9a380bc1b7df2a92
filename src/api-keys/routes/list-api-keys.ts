import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listKeys } from "../repo";
import { ApiKeyPageSchema } from "../schemas";
import { apiKeyView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/api-keys",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "List API keys",
  description: "The tenant's keys, newest first, revoked ones included. Secrets are never listed. Snapshot-consistent cursor pagination.",
  request: { query: z.object(pageQuerySchema(100, 50)) },
  responses: { 200: json(ApiKeyPageSchema, "One page of keys.") },
});

export function registerListApiKeys(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const binding = { tenantId: principal.tenantId, collection: "api_keys" };
    const db = c.var.db;
    const page = await pageRequest(
      c.env.SVC_CURSOR_SECRET,
      binding,
      c.req.valid("query"),
      Date.now(),
      releasedCheck(db, principal.tenantId),
    );
    const rows = await listKeys(db, principal.tenantId, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map((row) => apiKeyView(row)), next_cursor: nextCursor }, 200);
  });
}
