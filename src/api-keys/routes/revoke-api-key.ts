import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json, NOT_FOUND } from "../../platform/openapi";
import { requireAuthorityOver } from "../guard";
import { ApiKeyResponseSchema } from "../schemas";
import { apiKeyView, revokeApiKey } from "../service";
import { KeyCommandRequest, keyOrNotFound } from "./get-api-key";

const route = createRoute({
  method: "delete",
  path: "/v1/api-keys/{api_key_id}",
  operationId: "revokeApiKey",
  tags: ["API keys"],
  summary: "Revoke an API key",
  description:
    "Revokes the key: its next request answers 401 (every Worker instance refuses it within 15 seconds, the key cache's bound). The record stays readable with status `revoked`. Keys this key created are separate keys and stay as they are. While the key's rotation overlaps, revoke is refused: complete the rotation (retires this key, keeps the successor) or cancel it (revokes the successor) first.",
  request: KeyCommandRequest,
  responses: {
    200: json(ApiKeyResponseSchema, "The revoked key."),
    ...NOT_FOUND,
    403: errorResponse("The calling key does not cover this key (`svc.api_keys.outranks_caller`)."),
    409: errorResponse(
      "Already revoked (`svc.api_keys.already_revoked`), or rotating (`svc.api_keys.rotation_in_progress`: complete or cancel the rotation first, so no successor is left alive unseen).",
    ),
  },
});

export function registerRevokeApiKey(app: Router) {
  app.openapi(route, async (c) => {
    const db = c.var.db;
    const principal = principalOf(c);
    const tenantId = principal.tenantId;
    const target = await keyOrNotFound(db, tenantId, c.req.valid("param").api_key_id);
    await requireAuthorityOver(c, [target]);
    // The revoker is recorded so only this same caller's retry is ever answered as this revoke (a lost answer).
    const revoker = principal.kind === "api_key" ? principal.apiKeyId : principal.userId;
    const result = await revokeApiKey(db, tenantId, target.id, revoker);
    switch (result.status) {
      case "revoked":
        return c.json(apiKeyView(result.row), 200);
      case "not_found":
        throw notFound("API key");
      case "already_revoked":
        throw new ApiError("svc.api_keys.already_revoked");
      case "rotating":
        throw new ApiError(
          "svc.api_keys.rotation_in_progress",
          "The key is rotating: complete the rotation to retire it and keep its successor, or cancel it to revoke the successor, then revoke.",
        );
    }
  });
}
