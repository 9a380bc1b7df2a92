import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { getJob, stepsOf } from "../repo";
import { JobParams, JobResponseSchema } from "../schemas";
import { jobView } from "../view";

const route = createRoute({
  method: "get",
  path: "/v1/jobs/{job_id}",
  operationId: "getJob",
  tags: ["Jobs"],
  summary: "Get a job",
  request: { params: JobParams },
  responses: { 200: json(JobResponseSchema, "The job."), ...NOT_FOUND },
});

export function registerGetJob(app: Router) {
  app.openapi(route, async (c) => {
    const db = c.var.db;
    const job = await getJob(db, principalOf(c).tenantId, c.req.valid("param").job_id);
    if (!job) throw notFound("job");
    return c.json(jobView(job, (await stepsOf(db, [job.id])).get(job.id) ?? []), 200);
  });
}
