import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { objectOf } from "../../assets/repo";
import { notFound, principalOf } from "../../platform/context";
import { newId } from "../../platform/ids";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { ObjectIdSchema } from "../../uploads/schemas";
import { insertRequest, type RequestRow } from "../repo";
import { StoredVerificationSchema } from "../schemas";
import { enqueueVerification, view } from "../stored";
import { storedTooLarge, storedVerifyMaximumBytes } from "../verify-streamed";

const createRouteDef = createRoute({
  method: "post",
  path: "/v1/verifications",
  operationId: "createVerification",
  tags: ["Verification"],
  summary: "Verify a stored object",
  description:
    "Accepts an immutable stored object (`aob_`) for asynchronous verification on the jobs queue and answers 202; poll GET /v1/verifications/{verification_id} (first after 1 s, doubling to 30 s). For a file published with a sidecar manifest, send the file's object id: the service finds the stored manifest itself.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: {
      content: { "application/json": { schema: z.object({ object_id: ObjectIdSchema }).openapi("CreateVerificationRequest") } },
      required: true,
    },
  },
  responses: {
    202: json(StoredVerificationSchema, "Accepted."),
    ...NOT_FOUND,
    413: errorResponse(
      "The object is larger than `limits.verify.stored_object_maximum_bytes` (a streamed type: `limits.verify.streamed_object_maximum_bytes`) (`svc.request.too_large`).",
    ),
  },
});

export function register(app: Router) {
  app.openapi(createRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const { object_id } = c.req.valid("json");
    const object = await objectOf(db, tenantId, object_id);
    if (!object) throw notFound("object");
    if (object.byteLength > storedVerifyMaximumBytes(object.mediaType)) throw storedTooLarge(object);
    const now = Date.now();
    const row: RequestRow = {
      id: newId("verification"),
      tenantId,
      objectId: object_id,
      state: "queued",
      errorCode: null,
      errorMessage: null,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    await insertRequest(db, row);
    // A lost message is re-sent by the cron sweep; the row is the truth.
    c.executionCtx.waitUntil(enqueueVerification(c.env, row).catch(() => undefined));
    return c.json(await view(db, row), 202);
  });
}
