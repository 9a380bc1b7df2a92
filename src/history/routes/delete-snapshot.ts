import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { traversalOf } from "../../platform/pagination";
import { releaseTraversal } from "../repo";

const route = createRoute({
  method: "delete",
  path: "/v1/history/snapshots",
  operationId: "releaseHistorySnapshot",
  tags: ["History"],
  summary: "Release a traversal early",
  description:
    "Ends the snapshot traversal a cursor belongs to, on whichever list it came from: that cursor and every other cursor of the same traversal " +
    "(earlier or later pages) answer 422 `svc.cursor.invalid` from now on. Other traversals, and other tenants' traversals, are untouched. " +
    "Releasing twice answers 204 again. A cursor that is not this tenant's, tampered, non-canonical or expired answers 422 `svc.cursor.invalid`.",
  request: {
    query: z.object({
      cursor: z.string().openapi({
        description: "A `next_cursor` of any list (`^[A-Za-z0-9_-]+$`, at most 256 chars).",
        example: "eyJ2IjoxfQabcdefghijABCDEFGHIJ01",
      }),
    }),
  },
  responses: { 204: { description: "Released." } },
});

export function registerReleaseHistorySnapshot(app: Router) {
  app.openapi(route, async (c) => {
    const tenantId = principalOf(c).tenantId;
    // Verified for this tenant first: another tenant's cursor names nothing this tenant may release.
    const traversal = await traversalOf(c.env.SVC_CURSOR_SECRET, tenantId, c.req.valid("query").cursor);
    await releaseTraversal(c.var.db, tenantId, traversal);
    return c.body(null, 204);
  });
}
