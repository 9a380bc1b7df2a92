import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { CancelJobRequestSchema, JobParams, JobResponseSchema } from "../schemas";
import { cancelJob } from "../service";
import { jobView } from "../view";

const route = createRoute({
  method: "post",
  path: "/v1/jobs/{job_id}/cancel",
  operationId: "cancelJob",
  tags: ["Jobs"],
  summary: "Cancel a job",
  description:
    "A queued job is canceled at once; a running one moves to `cancel_requested` and stops before its next step. Cancellation never publishes. `cancel_requested_at` is set either way.",
  request: {
    params: JobParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CancelJobRequestSchema } }, required: false },
  },
  responses: {
    200: json(JobResponseSchema, "The job after the request."),
    ...NOT_FOUND,
    409: errorResponse("Already terminal (`svc.jobs.terminal`)."),
  },
});

export function registerCancelJob(app: Router) {
  app.openapi(route, async (c) => {
    const body = c.req.header("content-type")?.includes("json") ? c.req.valid("json") : {};
    const result = await cancelJob(c.var.db, principalOf(c).tenantId, c.req.valid("param").job_id, body.reason ?? null);
    if (result.status === "not_found") throw notFound("job");
    if (result.status === "terminal") throw new ApiError("svc.jobs.terminal", `The job is already ${result.job.state}.`);
    return c.json(jobView(result.job, result.steps), 200);
  });
}
