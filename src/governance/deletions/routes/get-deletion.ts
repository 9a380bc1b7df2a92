import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { notFound, principalOf } from "../../../platform/context";
import { json, NOT_FOUND } from "../../../platform/openapi";
import { findDeletion } from "../repo";
import { DeletionParams, DeletionSchema } from "../schemas";
import { deletionView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/governance/deletions/{deletion_id}",
  operationId: "getDeletion",
  tags: ["Governance"],
  summary: "Get a deletion",
  description:
    "A deletion's state and what it removed so far, counted per kind, with what is kept and why. An account deletion revokes every key when it finishes, so its last states are read in the audit log by the operator (`deletion.completed`).",
  request: { params: DeletionParams },
  responses: { 200: json(DeletionSchema, "The deletion."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findDeletion(c.var.db, principalOf(c).tenantId, c.req.valid("param").deletion_id);
    if (!row) throw notFound("deletion");
    return c.json(deletionView(row), 200);
  });
}
