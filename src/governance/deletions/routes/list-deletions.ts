import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { releasedCheck } from "../../../history/repo";
import { principalOf } from "../../../platform/context";
import { json } from "../../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../../platform/pagination";
import { listDeletions } from "../repo";
import { DELETION_STATES, DeletionPageSchema } from "../schemas";
import { deletionView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/governance/deletions",
  operationId: "listDeletions",
  tags: ["Governance"],
  summary: "List deletions",
  description:
    "The tenant's deletions (refused ones included), newest first, optionally in one state. Snapshot-consistent cursor pagination.",
  request: {
    query: z.object({
      state: z.enum(DELETION_STATES).optional().openapi({ description: "Only deletions in this state.", example: "completed" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(DeletionPageSchema, "One page of deletions.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `governance_deletions?state=${query.state ?? ""}` };
    const db = c.var.db;
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(db, tenantId));
    const rows = await listDeletions(db, tenantId, query.state, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(deletionView), next_cursor: nextCursor }, 200);
  });
}
