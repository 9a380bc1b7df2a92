import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { releasedCheck } from "../../../history/repo";
import { principalOf } from "../../../platform/context";
import { json } from "../../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../../platform/pagination";
import { listHolds } from "../repo";
import { LegalHoldPageSchema } from "../schemas";
import { legalHoldView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/governance/legal-holds",
  operationId: "listLegalHolds",
  tags: ["Governance"],
  summary: "List legal holds",
  description:
    "The legal holds on this tenant's data, most recently placed first. Holds are placed and released by the service operator (an operator command against the database, audited as `legal_hold.placed` / `legal_hold.released` in this tenant's audit log), never through the API. While a hold is active, deletions of what it covers are refused (409 `svc.governance.legal_hold_active`), retention expiry skips the held assets and asset lists report an account hold in `workspace_governance.legal_hold`.",
  request: {
    query: z.object({
      status: z
        .enum(["active", "released"])
        .optional()
        .openapi({ description: "Only active or only released holds; all when omitted.", example: "active" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(LegalHoldPageSchema, "One page of legal holds.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `legal_holds?status=${query.status ?? ""}` };
    const db = c.var.db;
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(db, tenantId));
    const rows = await listHolds(db, tenantId, query.status, page);
    const keyed = rows.map((row) => ({ ...row, createdAt: row.placedAt }));
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, keyed);
    return c.json({ items: items.map(legalHoldView), next_cursor: nextCursor }, 200);
  });
}
