import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { workspaceGovernance } from "../../governance/deletions/state";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listAssets } from "../repo";
import { ASSET_STATUSES, AssetPageSchema } from "../schemas";
import { assetView } from "../view";

const route = createRoute({
  method: "get",
  path: "/v1/assets",
  operationId: "listAssets",
  tags: ["History"],
  summary: "List assets",
  description: "The tenant's assets, newest first, with filters; snapshot-consistent, with the total matching the filters in the snapshot.",
  request: {
    query: z.object({
      kind: z
        .enum(["image", "audio", "video", "document", "font", "model", "text"])
        .optional()
        .openapi({ description: "Media family.", example: "image" }),
      status: z.enum(ASSET_STATUSES).optional().openapi({ description: "Asset status.", example: "published" }),
      media: z.string().max(127).optional().openapi({ description: "Media type (case-insensitive).", example: "image/jpeg" }),
      from: z
        .string()
        .datetime()
        .optional()
        .openapi({ description: "Only assets created at or after this time.", example: "2026-11-01T00:00:00Z" }),
      recipe_id: z
        .string()
        .regex(/^rcp_[a-z0-9_]{3,64}$/)
        .optional()
        .openapi({ description: "Only assets published with this recipe.", example: "rcp_system_sign_only" }),
      verification_outcome: z
        .enum(["valid", "invalid", "indeterminate", "recovered"])
        .optional()
        .openapi({ description: "Only assets with a verification of this outcome.", example: "valid" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(AssetPageSchema, "One page of assets.") },
});

export function registerListAssets(app: Router) {
  app.openapi(route, async (c) => {
    const { cursor, limit, ...filters } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const binding = {
      tenantId,
      collection: `assets?${new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined) as [string, string][]).toString()}`,
    };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const { rows, total } = await listAssets(db, tenantId, { ...filters, from: filters.from ? Date.parse(filters.from) : undefined }, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json(
      {
        items: items.map(assetView),
        next_cursor: nextCursor,
        total_count: total,
        workspace_governance: await workspaceGovernance(db, tenantId),
      },
      200,
    );
  });
}
