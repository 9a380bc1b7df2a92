import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { VerificationReportResponseSchema } from "../report-schemas";
import { createReport, reportView } from "../reports";
import { VerificationIdParams } from "../schemas";

const createReportRoute = createRoute({
  method: "post",
  path: "/v1/verification-evidence/{verification_id}/reports",
  operationId: "createVerificationReport",
  tags: ["Verification"],
  summary: "Generate a deterministic report",
  description:
    "Renders the stored evidence of a verification (a verify call, a stored-object check or a job's publication-time check) into an HTML document for people and a canonical JSON document for machines, and records both as an immutable report. " +
    "Only the stored record is rendered (never the current time or a new id), so the same evidence always gives byte-identical documents and the same `sha256`; each call records a new report id. No body.",
  request: { params: VerificationIdParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    201: {
      ...json(VerificationReportResponseSchema, "The report and where to download each format."),
      headers: { Location: { description: "Path of the report.", schema: { type: "string" } } },
    },
    ...NOT_FOUND,
  },
});

export function register(app: Router) {
  app.openapi(createReportRoute, async (c) => {
    const result = await createReport(c.var.db, principalOf(c).tenantId, c.req.valid("param").verification_id);
    if (result.kind === "verification_not_found") throw notFound("verification");
    c.header("Location", `/v1/verification-reports/${result.report.id}`);
    return c.json(reportView(result.report), 201);
  });
}
