import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { idSchema } from "../../platform/ids";
import { json, NOT_FOUND } from "../../platform/openapi";
import { findRequest, findVerification } from "../repo";
import { StoredVerificationSchema } from "../schemas";
import { recordView, view } from "../stored";

const getRouteDef = createRoute({
  method: "get",
  path: "/v1/verifications/{verification_id}",
  operationId: "getVerification",
  tags: ["Verification"],
  summary: "A verification, by its id",
  description:
    "Resolves every `verification_id` the API hands out (one `vfy_` namespace): the durable status of a stored-object verification (POST /v1/verifications: `queued`, `running`, then `completed` or `failed`), and, `completed` from the start, every verification record made otherwise: an authenticated POST /v1/verify, and a job's publication-time verification (the `verification_id` of a completed job's result and of its receipt). A completed one is also readable at GET /v1/verification-evidence/{verification_id} (`evidence_id`) and GET /v1/verification-history/{verification_id}.",
  request: {
    params: z.object({
      verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }),
    }),
  },
  responses: { 200: json(StoredVerificationSchema, "The durable status."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(getRouteDef, async (c) => {
    const db = c.var.db;
    const tenantId = principalOf(c).tenantId;
    const id = c.req.valid("param").verification_id;
    const row = await findRequest(db, tenantId, id);
    if (row) return c.json(await view(db, row), 200);
    // Every other verification id the API hands out names a record written when it was made.
    const record = await findVerification(db, tenantId, id);
    if (!record) throw notFound("verification");
    return c.json(recordView(record), 200);
  });
}
