import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { getAsset } from "../repo";
import { AssetParams, AssetResponseSchema } from "../schemas";
import { assetView } from "../view";

const route = createRoute({
  method: "get",
  path: "/v1/assets/{asset_id}",
  operationId: "getAsset",
  tags: ["Assets"],
  summary: "Get an asset",
  request: { params: AssetParams },
  responses: { 200: json(AssetResponseSchema, "The asset."), ...NOT_FOUND },
});

export function registerGetAsset(app: Router) {
  app.openapi(route, async (c) => {
    const asset = await getAsset(c.var.db, principalOf(c).tenantId, c.req.valid("param").asset_id);
    if (!asset) throw notFound("asset");
    return c.json(assetView(asset), 200);
  });
}
