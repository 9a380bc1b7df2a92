import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findCreator } from "../repo";
import { CreatorIdentityResponseSchema, CreatorIdParams } from "../schemas";
import { creatorView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/creator-identities/{creator_identity_id}",
  operationId: "getCreatorIdentity",
  tags: ["Creators"],
  summary: "Get a creator identity",
  description: "One identity, in any state. Never the name or e-mail (see the disclosure operation).",
  request: { params: CreatorIdParams },
  responses: { 200: json(CreatorIdentityResponseSchema, "The identity."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findCreator(c.var.db, principalOf(c).tenantId, c.req.valid("param").creator_identity_id);
    if (!row) throw notFound("creator identity");
    return c.json(creatorView(row), 200);
  });
}
