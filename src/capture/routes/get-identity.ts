import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findIdentity } from "../repo";
import { CaptureIdentityIdParams, CaptureIdentityResponseSchema } from "../schemas";
import { identityView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/capture-identities/{capture_identity_id}",
  operationId: "getCaptureIdentity",
  tags: ["Capture"],
  summary: "Get a capture identity",
  description: "One identity, in any state, with the facts it was enrolled with and its current version.",
  request: { params: CaptureIdentityIdParams },
  responses: { 200: json(CaptureIdentityResponseSchema, "The identity."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findIdentity(c.var.db, principalOf(c).tenantId, c.req.valid("param").capture_identity_id);
    if (!row) throw notFound("capture identity");
    return c.json(identityView(row), 200);
  });
}
