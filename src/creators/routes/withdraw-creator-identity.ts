import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { CreatorIdentityResponseSchema, CreatorIdParams } from "../schemas";
import { creatorView, withdrawCreator } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/creator-identities/{creator_identity_id}/withdraw",
  operationId: "withdrawCreatorIdentity",
  tags: ["Creators"],
  summary: "Withdraw a creator identity",
  description:
    "active → withdrawn: disclosure stops (every audience gets `withdrawn`) and new sign requests attributing it are refused; manifests already published keep their opaque reference. Nothing is erased. Withdrawing a withdrawn identity is idempotent: 200 with the identity unchanged (`withdrawn_at` keeps its first value). An erased identity answers 409 `svc.creators.erased`. To re-activate, enrol the same e-mail again (POST /v1/creator-identities): with no active identity for it, that creates a new active identity with a new `creator_id`, `creator_ref` and commitment; the withdrawn one stays withdrawn.",
  request: { params: CreatorIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    200: json(CreatorIdentityResponseSchema, "The withdrawn identity."),
    ...NOT_FOUND,
    409: errorResponse("`svc.creators.erased`: the identity is erased."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const result = await withdrawCreator(c.var.db, principalOf(c).tenantId, c.req.valid("param").creator_identity_id);
    if (result.status === "not_found") throw notFound("creator identity");
    if (result.status === "erased") throw new ApiError("svc.creators.erased");
    return c.json(creatorView(result.row), 200);
  });
}
