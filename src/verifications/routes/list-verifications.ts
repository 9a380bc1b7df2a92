import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { verificationHistoryView } from "../../assets/view";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { NextCursorSchema, pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listVerifications } from "../repo";
import { VerificationHistoryResponseSchema } from "../schemas";

const listRoute = createRoute({
  method: "get",
  path: "/v1/verifications",
  operationId: "listVerifications",
  tags: ["History"],
  summary: "List verifications",
  description: "Newest first, snapshot-consistent.",
  request: {
    query: z.object({
      overall: z
        .enum(["valid", "invalid", "indeterminate", "recovered"])
        .optional()
        .openapi({ description: "Only this outcome.", example: "valid" }),
      subject_type: z
        .enum(["uploaded_object", "stored_object", "public_url", "asset", "manifest", "receipt"])
        .optional()
        .openapi({ description: "Only this subject type.", example: "asset" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          items: z.array(VerificationHistoryResponseSchema).openapi({ description: "Newest first." }),
          next_cursor: NextCursorSchema,
        })
        .openapi("VerificationPage"),
      "One page.",
    ),
  },
});

export function register(app: Router) {
  app.openapi(listRoute, async (c) => {
    const { overall, subject_type, cursor, limit } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const binding = { tenantId, collection: `verifications?overall=${overall ?? ""}&subject_type=${subject_type ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const rows = await listVerifications(db, tenantId, { overall, subjectType: subject_type }, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(verificationHistoryView), next_cursor: nextCursor }, 200);
  });
}
