import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { admissionDetail } from "../admission-records";
import { listAdmissions } from "../repo";
import { AdmissionPageSchema, CaptureIdentityIdSchema } from "../schemas";

const instant = (description: string) => z.string().datetime().optional().openapi({ description, example: "2026-11-25T00:00:00.000Z" });

const route = createRoute({
  method: "get",
  path: "/v1/capture-admissions",
  operationId: "listCaptureAdmissions",
  tags: ["Capture"],
  summary: "List capture admissions",
  description:
    "The tenant's admission decisions, newest first, optionally filtered by decision, identity and decision time (both bounds inclusive). Snapshot-consistent cursor pagination; a cursor is bound to its filters.",
  request: {
    query: z.object({
      decision: z.enum(["pass", "reject"]).optional().openapi({ description: "Only this decision.", example: "reject" }),
      capture_identity_id: CaptureIdentityIdSchema.optional(),
      decided_from: instant("Only decisions at or after this instant."),
      decided_through: instant("Only decisions at or before this instant."),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(AdmissionPageSchema, "One page of admissions.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const filters = {
      decision: query.decision,
      capture_identity_id: query.capture_identity_id,
      decided_from: query.decided_from === undefined ? undefined : Date.parse(query.decided_from),
      decided_through: query.decided_through === undefined ? undefined : Date.parse(query.decided_through),
    };
    const binding = {
      tenantId,
      collection: `capture_admissions?decision=${filters.decision ?? ""}&capture_identity_id=${filters.capture_identity_id ?? ""}&decided_from=${filters.decided_from ?? ""}&decided_through=${filters.decided_through ?? ""}`,
    };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listAdmissions(c.var.db, tenantId, filters, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(admissionDetail), next_cursor: nextCursor }, 200);
  });
}
