import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { type AppContext, principalOf, publicOrigin } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { idFor } from "../../platform/idempotent-ids";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { presign } from "../../storage/signed-urls";
import { CreateUploadRequestSchema, CreateUploadResponseSchema } from "../schemas";
import { createUpload, type UploadIds } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/uploads",
  operationId: "createUpload",
  tags: ["Uploads"],
  summary: "Create an upload",
  description:
    "Reserves an asset and returns where to send the bytes: one presigned PUT (`single`) or one per part (`multipart`). Send exactly the returned headers and never the API key. Then call complete.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateUploadRequestSchema } }, required: true },
  },
  responses: {
    201: json(CreateUploadResponseSchema, "The upload and its presigned request(s)."),
    422: errorResponse(
      "`declared_media_type` is not a reviewed format (`svc.uploads.media_type_unknown`) or not enabled here (`svc.uploads.media_type_unavailable`: see GET /v1/capabilities), `byte_length` is above the type's `upload.maximum_bytes` (`svc.uploads.too_large`), the declared `parts` do not fit the mode or the length (`svc.uploads.parts_invalid`), or a field error (`svc.request.invalid`, with `field_details`).",
    ),
  },
});

export function registerCreateUpload(app: Router) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const tenantId = principalOf(c).tenantId;
    const result = await createUpload(c.var.db, c.env.OBJECTS, registryFor(c.env), tenantId, body, Date.now(), await idsOf(c, tenantId));
    if (result.status === "refused") throw new ApiError(result.code, result.message, { fieldDetails: [result.field] });
    const { upload } = result;
    const origin = publicOrigin(c);
    const headers = { "Content-Type": upload.declaredMediaType };
    const single =
      upload.mode === "single"
        ? await presign(c.env, origin, {
            method: "PUT",
            key: upload.r2Key,
            workerPath: `/storage/uploads/${upload.id}`,
            expiresAt: upload.expiresAt,
            byteLength: upload.byteLength,
            headers,
          })
        : null;
    const parts = await Promise.all(
      body.parts.map(async (part) => {
        const request = await presign(c.env, origin, {
          method: "PUT",
          key: upload.r2Key,
          workerPath: `/storage/uploads/${upload.id}/parts/${part.part_number}`,
          expiresAt: upload.expiresAt,
          byteLength: part.byte_length,
          headers,
          part: { number: part.part_number, uploadId: upload.multipartUploadId! },
        });
        return {
          part_number: part.part_number,
          byte_length: part.byte_length,
          method: "PUT" as const,
          url: request.url,
          headers: request.headers,
        };
      }),
    );
    return c.json(
      {
        upload_id: upload.id,
        asset_id: upload.assetId,
        expires_at: new Date(upload.expiresAt).toISOString(),
        mode: upload.mode,
        status: upload.status,
        parts: upload.mode === "multipart" ? parts : [],
        upload: single ? { method: "PUT" as const, url: single.url, headers: single.headers } : null,
      },
      201,
    );
  });
}

/**
 * The upload's ids under the request's Idempotency-Key (the idempotency middleware has checked it, and authentication
 * the pepper); without a key, fresh ids.
 */
async function idsOf(c: AppContext, tenantId: string): Promise<UploadIds | undefined> {
  const key = c.req.header("idempotency-key");
  const secret = c.env.SVC_KEY_PEPPER;
  if (!key || !secret) return undefined;
  const scope = { tenantId, operation: "POST /v1/uploads", key };
  const [uploadId, assetId, objectId] = await Promise.all([
    idFor("upload", secret, scope),
    idFor("asset", secret, scope),
    idFor("object", secret, scope),
  ]);
  return { uploadId, assetId, objectId };
}
