import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listJobs, stepsOf } from "../repo";
import { JOB_STATES, JobPageSchema } from "../schemas";
import { jobView } from "../view";

const route = createRoute({
  method: "get",
  path: "/v1/jobs",
  operationId: "listJobs",
  tags: ["Jobs"],
  summary: "List jobs",
  description: "The tenant's jobs, newest first, snapshot-consistent.",
  request: {
    query: z.object({
      kind: z
        .enum(["sign_only", "watermark_only", "watermark_then_sign"])
        .optional()
        .openapi({ description: "Only jobs of this recipe kind.", example: "sign_only" }),
      state: z.enum(JOB_STATES).optional().openapi({ description: "Only jobs in this state.", example: "completed" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(JobPageSchema, "One page of jobs.") },
});

export function registerListJobs(app: Router) {
  app.openapi(route, async (c) => {
    const { kind, state, cursor, limit } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const binding = { tenantId, collection: `jobs?kind=${kind ?? ""}&state=${state ?? ""}` };
    const db = c.var.db;
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const { rows, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, await listJobs(db, tenantId, { kind, state }, page));
    const steps = await stepsOf(
      db,
      rows.map((r) => r.id),
    );
    return c.json({ items: rows.map((r) => jobView(r, steps.get(r.id) ?? [])), next_cursor: nextCursor }, 200);
  });
}
