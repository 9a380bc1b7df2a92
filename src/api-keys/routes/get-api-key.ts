import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { getKey } from "../repo";
import { ApiKeyIdSchema, ApiKeyResponseSchema } from "../schemas";
import { apiKeyView } from "../service";

export const ApiKeyParams = z.object({ api_key_id: ApiKeyIdSchema.openapi({ param: { name: "api_key_id", in: "path" } }) });

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
    const row = await getKey(c.var.db, principalOf(c).tenantId, c.req.valid("param").api_key_id);
    if (!row) throw notFound("API key");
    return c.json(apiKeyView(row), 200);
  });
}
