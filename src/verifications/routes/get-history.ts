import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { verificationHistoryView } from "../../assets/view";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findVerification } from "../repo";
import { VerificationIdParams as Params, VerificationHistoryResponseSchema } from "../schemas";

const historyRoute = createRoute({
  method: "get",
  path: "/v1/verification-history/{verification_id}",
  operationId: "getVerificationHistory",
  tags: ["History"],
  summary: "Verification history record",
  request: { params: Params },
  responses: { 200: json(VerificationHistoryResponseSchema, "The history summary."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(historyRoute, async (c) => {
    const row = await findVerification(c.var.db, principalOf(c).tenantId, c.req.valid("param").verification_id);
    if (!row) throw notFound("verification");
    return c.json(verificationHistoryView(row), 200);
  });
}
