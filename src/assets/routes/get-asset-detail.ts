import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { workspaceGovernance } from "../../governance/deletions/state";
import { releasedCheck } from "../../history/repo";
import { notFound, principalOf } from "../../platform/context";
import { iso, json, NOT_FOUND, Timestamp } from "../../platform/openapi";
import { NextCursorSchema, pageOf, pageRequest } from "../../platform/pagination";
import { VerificationHistoryResponseSchema } from "../../verifications/schemas";
import { assetJobs, assetVerifications, getAsset } from "../repo";
import { AssetParams, AssetResponseSchema, WorkspaceGovernanceSchema } from "../schemas";
import { assetView, verificationHistoryView } from "../view";

const ActivitySchema = z
  .object({
    type: z.literal("job").openapi({ description: "Activity kind." }),
    job_id: z.string().openapi({ description: "The job.", example: "job_abcdefghij234567" }),
    recipe_id: z.string().openapi({ description: "Recipe applied.", example: "rcp_system_sign_only" }),
    state: z.string().openapi({ description: "Job state now.", example: "completed" }),
    at: Timestamp("When the job was admitted."),
    terminal_at: Timestamp("When it ended.").nullable(),
  })
  .openapi("AssetActivity");

const route = createRoute({
  method: "get",
  path: "/v1/assets/{asset_id}/detail",
  operationId: "getAssetDetail",
  tags: ["History"],
  summary: "Asset detail",
  description: "The asset with what can be done next, its activity and its verification history; the two lists page independently.",
  request: {
    params: AssetParams,
    query: z.object({
      verification_cursor: z.string().optional().openapi({ description: "Cursor of the verification history list.", example: undefined }),
      activity_cursor: z.string().optional().openapi({ description: "Cursor of the activity list.", example: undefined }),
      limit: z.coerce.number().int().min(1).max(25).default(25).openapi({ description: "Page size of each list, 1 to 25.", example: 25 }),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          asset: AssetResponseSchema,
          actions: z
            .array(
              z.object({
                action: z.enum(["download", "sign"]).openapi({ description: "What can be done.", example: "download" }),
                available: z.boolean().openapi({ description: "Whether it is possible now.", example: true }),
                operation: z
                  .string()
                  .openapi({ description: "The operation that does it.", example: "POST /v1/assets/{asset_id}/download" }),
              }),
            )
            .openapi({ description: "Next actions." }),
          activity: z
            .object({ items: z.array(ActivitySchema).openapi({ description: "Newest first." }), next_cursor: NextCursorSchema })
            .openapi({ description: "Jobs of this asset." }),
          verification_history: z
            .object({
              items: z.array(VerificationHistoryResponseSchema).openapi({ description: "Newest first." }),
              next_cursor: NextCursorSchema,
            })
            .openapi({ description: "Verifications of this asset." }),
          as_of: Timestamp("The snapshot time of this response."),
          workspace_governance: WorkspaceGovernanceSchema,
        })
        .openapi("AssetDetailResponse"),
      "The asset detail.",
    ),
    ...NOT_FOUND,
  },
});

export function registerGetAssetDetail(app: Router) {
  app.openapi(route, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const { asset_id } = c.req.valid("param");
    const { verification_cursor, activity_cursor, limit } = c.req.valid("query");
    const asset = await getAsset(db, tenantId, asset_id);
    if (!asset) throw notFound("asset");
    const now = Date.now();
    const released = releasedCheck(db, tenantId);
    const activityBinding = { tenantId, collection: `asset-activity/${asset.id}` };
    const verificationBinding = { tenantId, collection: `asset-verifications/${asset.id}` };
    const activityPage = await pageRequest(c.env.SVC_CURSOR_SECRET, activityBinding, { cursor: activity_cursor, limit }, now, released);
    const verificationPage = await pageRequest(
      c.env.SVC_CURSOR_SECRET,
      verificationBinding,
      { cursor: verification_cursor, limit },
      now,
      released,
    );
    const activity = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      activityBinding,
      activityPage,
      await assetJobs(db, tenantId, asset.id, activityPage),
    );
    const history = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      verificationBinding,
      verificationPage,
      await assetVerifications(db, tenantId, asset.id, verificationPage),
    );
    return c.json(
      {
        asset: assetView(asset),
        actions: [
          { action: "download" as const, available: asset.status === "published", operation: "POST /v1/assets/{asset_id}/download" },
          { action: "sign" as const, available: asset.status === "uploaded" || asset.status === "failed", operation: "POST /v1/sign" },
        ],
        activity: {
          items: activity.rows.map((j) => ({
            type: "job" as const,
            job_id: j.id,
            recipe_id: j.recipeId,
            state: j.state,
            at: iso(j.createdAt),
            terminal_at: iso(j.terminalAt),
          })),
          next_cursor: activity.nextCursor,
        },
        verification_history: { items: history.rows.map(verificationHistoryView), next_cursor: history.nextCursor },
        as_of: iso(now),
        workspace_governance: await workspaceGovernance(db, tenantId),
      },
      200,
    );
  });
}
