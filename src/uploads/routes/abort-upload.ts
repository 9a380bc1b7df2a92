import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { AbortUploadResponseSchema, UploadParams } from "../schemas";
import { abortUpload } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/uploads/{upload_id}/abort",
  operationId: "abortUpload",
  tags: ["Uploads"],
  summary: "Abort an upload",
  description:
    "Stops an initiated upload and removes its staged bytes and URLs. Aborting an aborted or expired upload returns its status again.",
  request: { params: UploadParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    200: json(AbortUploadResponseSchema, "The upload's status."),
    ...NOT_FOUND,
    409: errorResponse("Already completed (`svc.uploads.already_completed`)."),
  },
});

export function registerAbortUpload(app: Router) {
  app.openapi(route, async (c) => {
    const result = await abortUpload(c.var.db, c.env.OBJECTS, principalOf(c).tenantId, c.req.valid("param").upload_id);
    switch (result.status) {
      case "not_found":
        throw notFound("upload");
      case "already_completed":
        throw new ApiError("svc.uploads.already_completed");
      default:
        return c.json({ upload_id: result.upload.id, status: result.upload.status }, 200);
    }
  });
}
