import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { findVerification, listShares } from "../repo";
import { VerificationIdParams } from "../schemas";
import { SharePageSchema } from "../share-schemas";
import { shareView } from "../shares";

const listSharesRoute = createRoute({
  method: "get",
  path: "/v1/verification-evidence/{verification_id}/shares",
  operationId: "listVerificationShares",
  tags: ["Verification"],
  summary: "List share metadata",
  description: "Every share of the verification, newest first, snapshot-consistent; tokens are never shown again.",
  request: { params: VerificationIdParams, query: z.object({ ...pageQuerySchema(100, 25) }) },
  responses: { 200: json(SharePageSchema, "One page."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(listSharesRoute, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const verificationId = c.req.valid("param").verification_id;
    const { cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    if (!(await findVerification(db, tenantId, verificationId))) throw notFound("verification");
    const binding = { tenantId, collection: `verification_shares?verification_id=${verificationId}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const rows = await listShares(db, tenantId, verificationId, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    const now = Date.now();
    return c.json({ items: items.map((r) => shareView(r, now)), next_cursor: nextCursor }, 200);
  });
}
