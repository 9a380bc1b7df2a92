import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { signingProfileOf } from "../api-keys/controls";
import { registryFor } from "../catalog/installed";
import { database } from "../db/client";
import { notFound, principalOf } from "../platform/context";
import { ApiError } from "../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../platform/openapi";
import { admitSign } from "./admission";
import { enqueueJob } from "./runner";
import { JobResponseSchema, SignRequestSchema } from "./schemas";
import { jobView } from "./view";

const route = createRoute({
  method: "post",
  path: "/v1/sign",
  operationId: "sign",
  tags: ["Jobs"],
  summary: "Start a signing job",
  description:
    "Admits a job that applies a recipe to an uploaded asset and answers 202 with it; poll GET /v1/jobs/{job_id} (first after 1 s, doubling to 30 s, with jitter). Every field rule of the sign request is checked at admission; the admitted algorithms, strength and fingerprint set never change afterwards.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: SignRequestSchema } }, required: true },
  },
  responses: {
    202: json(JobResponseSchema, "The admitted job."),
    ...NOT_FOUND,
    409: errorResponse("The asset is not uploaded, busy or already published."),
  },
});

export function registerSign(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const result = await admitSign(database(c.env.DB), registryFor(c.env), principal.tenantId, c.req.valid("json"), {
      profile: signingProfileOf(principal.signingProfile),
      outputRetentionDays: principal.outputRetentionDays,
    });
    if (result.status === "asset_not_found") throw notFound("asset");
    if (result.status === "refused") throw new ApiError(result.code, result.message, result.field ? { fieldDetails: [result.field] } : {});
    // A lost message is re-sent by the cron sweep of queued jobs; the job row is already the truth.
    c.executionCtx.waitUntil(enqueueJob(c.env, result.job).catch((e) => console.error(JSON.stringify({ level: "error", job_id: result.job.id, problem: "enqueue failed", error: String(e) }))));
    return c.json(jobView(result.job, result.steps), 202);
  });
}
