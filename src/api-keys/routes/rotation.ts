import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND, Timestamp } from "../../platform/openapi";
import { requireAuthorityOver } from "../guard";
import { getKey } from "../repo";
import { ApiKeyResponseSchema } from "../schemas";
import { apiKeyView, DEFAULT_ROTATION_OVERLAP_S, finishRotation, rotateApiKey, withdrawRotation } from "../service";
import { ApiKeyParams, KeyCommandRequest, keyOrNotFound } from "./get-api-key";

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
    secret: z.string().openapi({ description: "The successor's secret, shown once.", example: `svc_live_${"b".repeat(52)}` }),
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
    "Issues a successor with the same scopes, restrictions and signing profile, and shows its secret once. Both secrets work until the overlap ends; complete retires the old key, cancel revokes the successor (each effective everywhere within 15 seconds, the key cache's bound). A replayed Idempotency-Key answers 409 `secret_not_replayable`.",
  request: {
    params: ApiKeyParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: RotateRequestSchema } }, required: false },
  },
  responses: {
    201: json(RotateResponseSchema, "The successor and its one-time secret."),
    ...NOT_FOUND,
    403: errorResponse(
      "The calling key does not cover this key (`svc.api_keys.outranks_caller`): a key may rotate only keys whose scopes it holds and whose restrictions are at least as tight as its own.",
    ),
    409: errorResponse(
      "Revoked or expired (`svc.api_keys.already_revoked`), a rotation already overlapping (`svc.api_keys.rotation_in_progress`), or the key's rotation completed or lapsed (`svc.api_keys.rotation_ended`).",
    ),
  },
});

const finishRoute = (how: "complete" | "cancel") =>
  createRoute({
    method: "post",
    path: `/v1/api-keys/{api_key_id}/rotation/${how}`,
    operationId: how === "complete" ? "completeApiKeyRotation" : "cancelApiKeyRotation",
    tags: ["API keys"],
    summary: how === "complete" ? "Complete a rotation (retire the old key)" : "Cancel a rotation (revoke the successor)",
    description:
      how === "complete"
        ? "Call on the outgoing key once the successor is deployed: the outgoing key stops working at once."
        : "Call on the outgoing key: the undeployed successor is revoked and the outgoing key works as before.",
    request: KeyCommandRequest,
    responses: {
      200: json(RotationResultSchema, "Both keys after the change."),
      ...NOT_FOUND,
      403: errorResponse("The calling key does not cover this key or its successor (`svc.api_keys.outranks_caller`)."),
      409: errorResponse(
        "No rotation was begun (`svc.api_keys.no_rotation`), the rotation already ended — completed, canceled, lapsed, or the successor was revoked (`svc.api_keys.rotation_ended`) — or the key is revoked (`svc.api_keys.already_revoked`). No move leaves an ended rotation and none reactivates a retired key.",
      ),
    },
  });

export function registerRotationRoutes(app: Router) {
  app.openapi(rotate, async (c) => {
    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable");
    const body = c.req.header("content-type")?.includes("json") ? c.req.valid("json") : { overlap_seconds: DEFAULT_ROTATION_OVERLAP_S };
    const db = c.var.db;
    const tenantId = principalOf(c).tenantId;
    const target = await keyOrNotFound(db, tenantId, c.req.valid("param").api_key_id);
    // The successor inherits the target's grant exactly, so covering the target covers the successor.
    await requireAuthorityOver(c, [target]);
    const result = await rotateApiKey(db, pepper, target, body.overlap_seconds);
    if (result.status === "not_found") throw notFound("API key");
    if (result.status === "revoked")
      throw new ApiError("svc.api_keys.already_revoked", "The key is revoked or expired; only a working key can be rotated.");
    if (result.status === "in_progress") throw new ApiError("svc.api_keys.rotation_in_progress");
    if (result.status === "changed")
      throw new ApiError("svc.api_keys.version_conflict", "The key changed while it was being rotated: read it again and retry.");
    if (result.status === "ended")
      throw new ApiError("svc.api_keys.rotation_ended", `This key's rotation is ${result.state}; it cannot be rotated again.`);
    // If the rotation cannot be audited its secret is withheld: the rotation is canceled so the retry (keyed or not)
    // rotates afresh, instead of meeting rotation_in_progress with a live successor nobody holds.
    const { predecessor, successor } = result;
    c.set("withdrawSecret", () => withdrawRotation(db, predecessor, successor.id));
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
      const db = c.var.db;
      const tenantId = principalOf(c).tenantId;
      const target = await keyOrNotFound(db, tenantId, c.req.valid("param").api_key_id);
      const successor = target.successorKeyId ? await getKey(db, tenantId, target.successorKeyId) : null;
      await requireAuthorityOver(c, successor ? [target, successor] : [target]);
      const result = await finishRotation(db, tenantId, target.id, how);
      if (result.status === "not_found") throw notFound("API key");
      if (result.status === "no_rotation") throw new ApiError("svc.api_keys.no_rotation");
      if (result.status === "revoked") throw new ApiError("svc.api_keys.already_revoked");
      if (result.status === "ended") {
        throw new ApiError(
          "svc.api_keys.rotation_ended",
          result.state === "successor_revoked"
            ? "The successor was revoked, so completing would leave no working key: cancel the rotation to keep this key."
            : `This key's rotation is already ${result.state}; nothing moves out of it.`,
        );
      }
      return c.json({ api_key: apiKeyView(result.key), successor: apiKeyView(result.successor) }, 200);
    });
  }
}
