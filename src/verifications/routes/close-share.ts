import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { ShareParams, VerificationShareSchema } from "../share-schemas";
import { closeVerificationShare, shareView } from "../shares";

const closeShareRoute = createRoute({
  method: "post",
  path: "/v1/verification-shares/{share_id}/close",
  operationId: "closeVerificationShare",
  tags: ["Verification"],
  summary: "Close a share",
  description:
    "Revokes the share at once: its token answers 404 from now on. Closing a closed share changes nothing and answers the same `closed_at`.",
  request: { params: ShareParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: { 200: json(VerificationShareSchema, "The closed share."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(closeShareRoute, async (c) => {
    const closed = await closeVerificationShare(c.var.db, principalOf(c).tenantId, c.req.valid("param").share_id);
    if (closed.kind === "not_found") throw notFound("share");
    return c.json(shareView(closed.share), 200);
  });
}
