import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { getTenant } from "../repo";
import { MeResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/me",
  operationId: "getMe",
  tags: ["Identity"],
  summary: "Current user",
  description: "The account and credential behind this request.",
  responses: { 200: json(MeResponseSchema, "The caller.") },
});

export function registerGetMe(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const tenant = await getTenant(c.var.db, principal.tenantId);
    if (!tenant) throw new Error("authenticated tenant vanished");
    return c.json(
      {
        email: tenant.contactEmail,
        public_id: tenant.id,
        tenant_name: tenant.name,
        credential: { kind: "api_key" as const, api_key_id: principal.apiKeyId, scopes: [...principal.scopes] },
      },
      200,
    );
  });
}
