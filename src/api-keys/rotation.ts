import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { database } from "../db/client";
import { notFound, principalOf } from "../platform/context";
import { ApiError } from "../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { ApiKeyParams } from "./get-api-key";
import { ApiKeyResponseSchema } from "./schemas";
import { apiKeyView, DEFAULT_ROTATION_OVERLAP_S, finishRotation, rotateApiKey } from "./service";

const RotateRequestSchema = z
  .object({
    overlap_seconds: z
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(DEFAULT_ROTATION_OVERLAP_S)
      .openapi({ description: "How long both secrets work (60 s to 7 days, default 24 h).", example: 86400 }),
  })
  .openapi("RotateApiKeyRequest");

const RotateResponseSchema = z
  .object({
    api_key: ApiKeyResponseSchema.openapi({ description: "The successor key." }),
    secret: z.string().openapi({ description: "The successor's secret, shown once.", example: "svc_live_" + "b".repeat(52) }),
    predecessor: ApiKeyResponseSchema.openapi({ description: "The outgoing key, with its overlap end." }),
    overlap_ends_at: Timestamp("When the outgoing key stops working unless the rotation is cancelled."),
  })
  .openapi("RotateApiKeyResponse");

const RotationResultSchema = z
  .object({
    api_key: ApiKeyResponseSchema.openapi({ description: "The key named in the path, after the change." }),
    successor: ApiKeyResponseSchema.openapi({ description: "Its successor, after the change." }),
  })
  .openapi("ApiKeyRotationResult");

const rotate = createRoute({
  method: "post",
  path: "/v1/api-keys/{api_key_id}/rotate",
  operationId: "rotateApiKey",
  tags: ["API keys"],
  summary: "Begin a key rotation",
  description:
    "Issues a successor with the same scopes, restrictions and signing profile, and shows its secret once. Both secrets work until the overlap ends; complete retires the old key at once, cancel revokes the successor. A replayed Idempotency-Key answers 409 `secret_not_replayable`.",
  request: {
    params: ApiKeyParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: RotateRequestSchema } }, required: false },
  },
  responses: { 201: json(RotateResponseSchema, "The successor and its one-time secret."), ...NOT_FOUND, 409: errorResponse("Revoked, or a rotation already in progress (`svc.api_keys.rotation_in_progress`).") },
});

const finishRoute = (how: "complete" | "cancel") =>
  createRoute({
    method: "post",
    path: `/v1/api-keys/{api_key_id}/rotation/${how}`,
    operationId: how === "complete" ? "completeApiKeyRotation" : "cancelApiKeyRotation",
    tags: ["API keys"],
    summary: how === "complete" ? "Complete a rotation (retire the old key)" : "Cancel a rotation (revoke the successor)",
    description: how === "complete" ? "Call on the outgoing key once the successor is deployed: the outgoing key stops working at once." : "Call on the outgoing key: the undeployed successor is revoked and the outgoing key works as before.",
    request: { params: ApiKeyParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
    responses: { 200: json(RotationResultSchema, "Both keys after the change."), ...NOT_FOUND, 409: errorResponse("No rotation in progress (`svc.api_keys.no_rotation`).") },
  });

export function registerRotationRoutes(app: Router) {
  app.openapi(rotate, async (c) => {
    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable");
    const body = c.req.header("content-type")?.includes("json") ? c.req.valid("json") : { overlap_seconds: DEFAULT_ROTATION_OVERLAP_S };
    const result = await rotateApiKey(database(c.env.DB), pepper, principalOf(c).tenantId, c.req.valid("param").api_key_id, body.overlap_seconds);
    if (result.status === "not_found") throw notFound("API key");
    if (result.status === "revoked") throw new ApiError("svc.api_keys.already_revoked");
    if (result.status === "in_progress") throw new ApiError("svc.api_keys.rotation_in_progress");
    return c.json(
      {
        api_key: apiKeyView(result.successor),
        secret: result.secret,
        predecessor: apiKeyView(result.predecessor),
        overlap_ends_at: new Date(result.predecessor.rotationDeadline!).toISOString(),
      },
      201,
    );
  });
  for (const how of ["complete", "cancel"] as const) {
    app.openapi(finishRoute(how), async (c) => {
      const result = await finishRotation(database(c.env.DB), principalOf(c).tenantId, c.req.valid("param").api_key_id, how);
      if (result.status === "not_found") throw notFound("API key");
      if (result.status === "no_rotation") throw new ApiError("svc.api_keys.no_rotation");
      return c.json({ api_key: apiKeyView(result.key), successor: apiKeyView(result.successor) }, 200);
    });
  }
}
