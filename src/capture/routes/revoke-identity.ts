import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { CaptureIdentityIdParams, CaptureIdentityResponseSchema } from "../schemas";
import { identityView, revokeIdentity } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/capture-identities/{capture_identity_id}/revoke",
  operationId: "revokeCaptureIdentity",
  tags: ["Capture"],
  summary: "Revoke a capture identity",
  description:
    "active → revoked, terminal: the identity can no longer obtain challenges, and admissions naming it answer `capture_identity_revoked`. Its key and installation are released, so the device may enrol again as a new identity. Revoking a revoked identity is idempotent: 200 with the identity unchanged (`revoked_at` keeps its first value).",
  request: { params: CaptureIdentityIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: { 200: json(CaptureIdentityResponseSchema, "The revoked identity."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    // The column names a key; a console session's acts are attributed to its user (usr_…).
    const apiKeyId = actingIdOf(principal);
    const result = await revokeIdentity(c.var.db, tenantId, c.req.valid("param").capture_identity_id, apiKeyId);
    if (result.status === "not_found") throw notFound("capture identity");
    return c.json(identityView(result.row), 200);
  });
}
