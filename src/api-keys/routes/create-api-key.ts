import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { idFor } from "../../platform/idempotent-ids";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { CreateApiKeyRequestSchema, IssuedApiKeyResponseSchema } from "../schemas";
import { apiKeyView, createApiKey, withdrawIssuedKey } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/api-keys",
  operationId: "createApiKey",
  tags: ["API keys"],
  summary: "Create an API key",
  description:
    "Issues a key with a subset of the calling key's scopes. The secret is returned once and only its peppered hash is stored, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable`.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateApiKeyRequestSchema } }, required: true },
  },
  responses: {
    201: json(IssuedApiKeyResponseSchema, "The key and its one-time secret."),
    403: errorResponse(
      "A requested scope is not held by the calling key (`svc.api_keys.scope_not_grantable`), or the requested expiry is later than the calling key's (`svc.api_keys.outranks_caller`).",
    ),
  },
});

export function registerCreateApiKey(app: Router) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable");
    const principal = principalOf(c);
    const idempotencyKey = c.req.header("idempotency-key");
    const id = idempotencyKey
      ? await idFor("apiKey", pepper, { tenantId: principal.tenantId, operation: "POST /v1/api-keys", key: idempotencyKey })
      : undefined;
    const result = await createApiKey(
      c.var.db,
      pepper,
      principal,
      {
        name: body.name,
        scopes: body.scopes,
        expiresAt: body.expires_at === undefined ? undefined : body.expires_at === null ? null : Date.parse(body.expires_at),
      },
      Date.now(),
      id,
    );
    switch (result.status) {
      case "created": {
        // Without an Idempotency-Key no retry can re-issue this key's secret: if the issue cannot be audited (and
        // the secret is withheld), the key is revoked. A keyed retry converges on this key and re-issues it.
        const created = result.row;
        if (!idempotencyKey) c.set("withdrawSecret", () => withdrawIssuedKey(c.var.db, created.tenantId, created.id));
        return c.json({ api_key: apiKeyView(result.row), secret: result.secret }, 201);
      }
      case "scope_not_grantable":
        throw new ApiError("svc.api_keys.scope_not_grantable", `The calling key does not hold: ${result.scopes.join(", ")}.`);
      case "outranks_caller":
        throw new ApiError("svc.api_keys.outranks_caller", `The calling key may not issue this key: ${result.detail}.`);
      case "invalid_expiry":
        throw new ApiError("svc.request.invalid", "expires_at must be in the future.", {
          fieldDetails: [{ location: "body", field: "expires_at", code: "too_small", message: "Must be in the future." }],
        });
    }
  });
}
