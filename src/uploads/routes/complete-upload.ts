import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { mediaInspector } from "../../media";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { CompleteUploadRequestSchema, CompleteUploadResponseSchema, UploadParams } from "../schemas";
import { completeUpload, INSPECTION_CODES } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/uploads/{upload_id}/complete",
  operationId: "completeUpload",
  tags: ["Uploads"],
  summary: "Complete an upload",
  description:
    "Checks the stored bytes against the declared `byte_length` and `sha256`, sniffs their real format (a declared type the bytes contradict is refused), and pins them as an immutable object. Completing an already completed upload returns the same result. A refused single upload stays open (PUT the right bytes and complete again); a multipart upload whose assembled bytes are refused has spent its parts and becomes `failed` (later calls answer 409 `svc.uploads.failed` naming the reason). Wrong or missing part ETags leave the upload open. A completion racing an abort either pins the bytes (the abort then answers 409) or loses (410).",
  request: {
    params: UploadParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CompleteUploadRequestSchema } }, required: true },
  },
  responses: {
    200: json(CompleteUploadResponseSchema, "The pinned object."),
    ...NOT_FOUND,
    409: errorResponse(
      "No bytes uploaded yet (`svc.uploads.bytes_missing`), or the upload failed for good (`svc.uploads.failed`: a multipart upload whose assembled bytes did not match what was declared).",
    ),
    503: errorResponse("Object storage did not complete the upload; it is unchanged (`svc.uploads.storage_unavailable`, retryable)."),
    410: errorResponse("The upload was aborted or expired (`svc.uploads.gone`)."),
    422: errorResponse(
      "The stored bytes are refused: not the declared `byte_length` (`svc.uploads.length_mismatch`) or `sha256` (`svc.uploads.sha256_mismatch`), not a reviewed format (`svc.media.unsupported_type`), another format than declared (`svc.media.type_mismatch`), truncated or malformed (`svc.media.corrupt`), or a video codec not supported (`MEDIA_CODEC_UNSUPPORTED`); wrong or missing part ETags (`svc.uploads.parts_invalid`); or a field error (`svc.request.invalid`, with `field_details`).",
    ),
  },
});

export function registerCompleteUpload(app: Router) {
  app.openapi(route, async (c) => {
    const { upload_id } = c.req.valid("param");
    const result = await completeUpload(
      c.var.db,
      c.env.OBJECTS,
      mediaInspector(),
      principalOf(c).tenantId,
      upload_id,
      c.req.valid("json").parts,
    );
    switch (result.status) {
      case "not_found":
        throw notFound("upload");
      case "gone":
        throw new ApiError("svc.uploads.gone");
      case "failed":
        throw new ApiError(
          "svc.uploads.failed",
          `This upload failed (${result.errorCode}): its parts were assembled into bytes that did not match what was declared, and cannot be used again. Create a new upload.`,
        );
      case "storage_unavailable":
        throw new ApiError("svc.uploads.storage_unavailable", undefined, { headers: { "Retry-After": "1" } });
      case "refused":
        throw new ApiError(result.code, result.message);
      case "media_refused":
        throw new ApiError(INSPECTION_CODES[result.inspection.status]!, result.inspection.message);
      case "completed":
        return c.json(
          {
            upload_id: result.upload.id,
            asset_id: result.upload.assetId,
            asset_object_id: result.objectId,
            byte_length: result.upload.byteLength,
            sha256: result.upload.sha256,
            status: result.upload.status,
          },
          200,
        );
    }
  });
}
