import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { releasedCheck } from "../../../history/repo";
import { principalOf, publicOrigin } from "../../../platform/context";
import { json } from "../../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../../platform/pagination";
import { listExports } from "../repo";
import { EXPORT_STATES, GovernanceExportPageSchema } from "../schemas";
import { exportView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/governance/exports",
  operationId: "listGovernanceExports",
  tags: ["Governance"],
  summary: "List exports",
  description: "The tenant's exports, newest first, optionally by state. Snapshot-consistent cursor pagination.",
  request: {
    query: z.object({
      state: z.enum(EXPORT_STATES).optional().openapi({ description: "Only exports in this state.", example: "completed" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(GovernanceExportPageSchema, "One page of exports.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `governance_exports?state=${query.state ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listExports(c.var.db, tenantId, { state: query.state }, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    const origin = publicOrigin(c);
    return c.json({ items: await Promise.all(items.map((row) => exportView(c.env, origin, row))), next_cursor: nextCursor }, 200);
  });
}
