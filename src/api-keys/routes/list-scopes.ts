import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ALL_SCOPES, SCOPES } from "../../platform/auth/scopes";
import { json } from "../../platform/openapi";
import { ScopeListResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/api-keys/scopes",
  operationId: "listApiKeyScopes",
  tags: ["API keys"],
  summary: "Scope vocabulary",
  description: "Every scope a key can hold, with what it allows.",
  responses: { 200: json(ScopeListResponseSchema, "The scope vocabulary.") },
});

export function registerListApiKeyScopes(app: Router) {
  app.openapi(route, (c) => c.json({ scopes: ALL_SCOPES.map((scope) => ({ scope, description: SCOPES[scope] })) }, 200));
}
