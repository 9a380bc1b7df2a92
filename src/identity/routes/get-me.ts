import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { getTenantCached } from "../repo";
import { getUser } from "../repo/users";
import { MeResponseSchema } from "../schemas";
import { openEmail } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/me",
  operationId: "getMe",
  tags: ["Identity"],
  summary: "Current user",
  description:
    "The account and credential behind this request: an API key, or a signed-in console session (whose user holds every scope and acts as the account's owner).",
  responses: { 200: json(MeResponseSchema, "The caller.") },
});

export function registerGetMe(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const tenant = await getTenantCached(c.var.db, principal.tenantId);
    if (!tenant) throw new Error("authenticated tenant vanished");
    const user = principal.kind === "session" ? await getUser(c.var.db, principal.tenantId, principal.userId) : null;
    return c.json(
      {
        email: user ? await openEmail(c.var.db, c.env, user) : tenant.contactEmail,
        public_id: tenant.id,
        tenant_name: tenant.name,
        credential: {
          kind: principal.kind,
          api_key_id: principal.kind === "api_key" ? principal.apiKeyId : null,
          user_id: principal.kind === "session" ? principal.userId : null,
          scopes: [...principal.scopes],
        },
      },
      200,
    );
  });
}
