import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import type { Database } from "../../db/client";
import { notFound, principalOf } from "../../platform/context";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { type ApiKeyRow, getKey } from "../repo";
import { ApiKeyIdSchema, ApiKeyResponseSchema } from "../schemas";
import { apiKeyView } from "../service";

export const ApiKeyParams = z.object({ api_key_id: ApiKeyIdSchema.openapi({ param: { name: "api_key_id", in: "path" } }) });

/** The request of a command on one key: the key's id, and the Idempotency-Key header every command takes. */
export const KeyCommandRequest = { params: ApiKeyParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) };

/** The calling tenant's key of this id; 404 when the tenant has none (another tenant's key is not seen). */
export async function keyOrNotFound(db: Database, tenantId: string, keyId: string): Promise<ApiKeyRow> {
  const key = await getKey(db, tenantId, keyId);
  if (!key) throw notFound("API key");
  return key;
}

const route = createRoute({
  method: "get",
  path: "/v1/api-keys/{api_key_id}",
  operationId: "getApiKey",
  tags: ["API keys"],
  summary: "Get an API key",
  request: { params: ApiKeyParams },
  responses: { 200: json(ApiKeyResponseSchema, "The key (never its secret)."), ...NOT_FOUND },
});

export function registerGetApiKey(app: Router) {
  app.openapi(route, async (c) => {
    return c.json(apiKeyView(await keyOrNotFound(c.var.db, principalOf(c).tenantId, c.req.valid("param").api_key_id)), 200);
  });
}
