import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listCreators } from "../repo";
import { CreatorIdentityPageSchema } from "../schemas";
import { creatorView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/creator-identities",
  operationId: "listCreatorIdentities",
  tags: ["Creators"],
  summary: "List creator identities",
  description:
    "The tenant's creator identities, newest first, optionally only those in one `state`. Never names or e-mails. Snapshot-consistent cursor pagination.",
  request: {
    query: z.object({
      state: z
        .enum(["active", "withdrawn", "erased"])
        .optional()
        .openapi({ description: "Only identities with this status; all when omitted.", example: "active" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(CreatorIdentityPageSchema, "One page of identities.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: `creator_identities?state=${query.state ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listCreators(c.var.db, tenantId, query.state, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(creatorView), next_cursor: nextCursor }, 200);
  });
}
