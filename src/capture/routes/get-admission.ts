import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { canonicalJson } from "../../catalog/canonical-json";
import { notFound, principalOf } from "../../platform/context";
import { sha256Hex } from "../../platform/crypto";
import { etagMatches } from "../../platform/etag";
import { json, NOT_FOUND } from "../../platform/openapi";
import { admissionDetail } from "../admission-records";
import { findAdmission } from "../repo";
import { AdmissionDetailSchema, CaptureAdmissionIdParams } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/capture-admissions/{capture_admission_id}",
  operationId: "getCaptureAdmission",
  tags: ["Capture"],
  summary: "Get a capture admission",
  description:
    "One stored decision with every version it was made under. A decision never changes, so its `ETag` (the quoted SHA-256 of the body) never changes either: send it back as `If-None-Match` and an unchanged admission answers **304** without a body.",
  request: {
    params: CaptureAdmissionIdParams,
    headers: z.object({
      "if-none-match": z.string().max(8192).optional().openapi({
        description: "An ETag from an earlier read; when it matches, 304 without a body.",
        example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
      }),
    }),
  },
  responses: {
    200: {
      ...json(AdmissionDetailSchema, "The admission."),
      headers: { ETag: { description: "The quoted SHA-256 (hex) of the body.", schema: { type: "string" } } },
    },
    304: { description: "Not modified: If-None-Match names this admission's ETag." },
    ...NOT_FOUND,
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findAdmission(c.var.db, principalOf(c).tenantId, c.req.valid("param").capture_admission_id);
    if (!row) throw notFound("capture admission");
    const body = admissionDetail(row);
    const tag = await sha256Hex(canonicalJson(body));
    const headers = { ETag: `"${tag}"`, "Cache-Control": "private, no-cache" };
    if (etagMatches(c.req.header("if-none-match"), tag)) return c.body(null, 304, headers);
    return c.json(body, 200, headers);
  });
}
