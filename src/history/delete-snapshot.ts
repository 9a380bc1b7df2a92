import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { database } from "../db/client";
import { principalOf } from "../platform/context";
import { cursorMac, invalidCursor } from "../platform/pagination";
import { releaseCursor } from "./snapshots";

const route = createRoute({
  method: "delete",
  path: "/v1/history/snapshots",
  operationId: "releaseHistorySnapshot",
  tags: ["History"],
  summary: "Release a traversal early",
  description: "Ends the snapshot traversal a cursor belongs to: the cursor (and the pages after it) answer 422 `svc.cursor.invalid` from now on.",
  request: {
    query: z.object({
      cursor: z.string().openapi({ description: "A `next_cursor` of a history list (`^[A-Za-z0-9_-]+$`, at most 256 chars).", example: "eyJ2IjoxfQabcdefghijABCDEFGHIJ01" }),
    }),
  },
  responses: { 204: { description: "Released." } },
});

export function registerReleaseHistorySnapshot(app: Router) {
  app.openapi(route, async (c) => {
    const mac = cursorMac(c.req.valid("query").cursor);
    if (!mac) throw invalidCursor();
    await releaseCursor(database(c.env.DB), principalOf(c).tenantId, mac);
    return c.body(null, 204);
  });
}
