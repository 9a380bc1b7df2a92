import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf, publicOrigin } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json, NOT_FOUND } from "../../platform/openapi";
import { downloadOf } from "../downloads";
import { getAsset } from "../repo";
import { AssetParams, DownloadResponseSchema } from "../schemas";

const route = createRoute({
  method: "post",
  path: "/v1/assets/{asset_id}/download",
  operationId: "downloadAsset",
  tags: ["Assets"],
  summary: "Get a download capability",
  description:
    "A new short-lived capability per call for the published bytes (and, for sidecar formats, the .c2pa manifest store). GET `url` with exactly `headers`, without the API key, before `expires_at`; check the bytes against `sha256` and `byte_length`. Store a sidecar as `sidecar_manifest.filename` next to the file: the manifest proves nothing without the bytes it binds.",
  request: { params: AssetParams },
  responses: {
    200: json(DownloadResponseSchema, "The download capability."),
    ...NOT_FOUND,
    409: errorResponse("Not published yet (`svc.assets.not_published`)."),
    410: errorResponse("Retention passed; the media were deleted (`svc.assets.retention_expired`)."),
  },
});

export function registerDownloadAsset(app: Router) {
  app.openapi(route, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const asset = await getAsset(db, tenantId, c.req.valid("param").asset_id);
    if (!asset) throw notFound("asset");
    if (asset.status === "retention_expired") throw new ApiError("svc.assets.retention_expired");
    if (!asset.publishedObjectId) throw new ApiError("svc.assets.not_published");
    const download = await downloadOf(c.env, publicOrigin(c), db, tenantId, asset);
    if (!download) throw new ApiError("svc.assets.not_published");
    return c.json(download, 200);
  });
}
