import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { actorOf } from "../../platform/audit";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, iso, json } from "../../platform/openapi";
import { FeedbackRequestSchema, FeedbackResponseSchema } from "../schemas";
import { submitFeedback } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/feedback",
  operationId: "createFeedback",
  tags: ["Feedback"],
  summary: "Send feedback",
  description:
    "Stores feedback for the service's operators: a `kind`, a message (1 to 4,000 characters) and optionally the asset, job or verification it is about (ids checked for their format, not their existence). The message may contain personal data: it is stored only encrypted under the tenant's data key, never returned, logged or written to the audit log (the audit entry records that feedback was sent, by whom, and its id). Scope `feedback:write`; `Idempotency-Key` optional. Without a configured data master key: 503 `svc.feedback.sealing_unavailable` and nothing is stored.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: FeedbackRequestSchema } }, required: true },
  },
  responses: {
    201: json(FeedbackResponseSchema, "Stored."),
    503: errorResponse(
      "`svc.feedback.sealing_unavailable`: the message cannot be encrypted now (no data master key, or the tenant's data key unusable); or credential verification is unavailable. Retry later.",
    ),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const actor = actorOf(principal);
    const input = c.req.valid("json");
    const result = await submitFeedback(
      c.var.db,
      c.env,
      principal.tenantId,
      { actorKind: actor?.actorKind ?? principal.kind, actorId: actor?.actorId ?? null },
      input,
    );
    if (result.status === "unavailable") throw new ApiError("svc.feedback.sealing_unavailable");
    const row = result.row;
    return c.json(
      {
        id: row.id,
        kind: row.kind,
        message_length: row.messageLength,
        asset_id: row.relatedAssetId,
        job_id: row.relatedJobId,
        verification_id: row.relatedVerificationId,
        created_at: iso(row.createdAt),
      },
      201,
    );
  });
}
