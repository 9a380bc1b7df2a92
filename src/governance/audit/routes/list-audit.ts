import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { releasedCheck } from "../../../history/repo";
import { principalOf } from "../../../platform/context";
import { json } from "../../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../../platform/pagination";
import { chainHead, listEntries } from "../repo";
import { AuditPageSchema } from "../schemas";
import { verifyTenantChain } from "../service";
import { auditEntryView, verificationView } from "../view";

const instant = (description: string) => z.string().datetime().optional().openapi({ description, example: "2026-11-25T00:00:00.000Z" });

const route = createRoute({
  method: "get",
  path: "/v1/governance/audit",
  operationId: "listAuditEntries",
  tags: ["Governance"],
  summary: "Read the audit log",
  description:
    "The tenant's audit log, newest first: every write made through this API (by API keys and console sessions) and every security-relevant event (disclosure reads, sign-ins and provisioning, identity-provider and payment callbacks, exports, deletions, legal holds), with actor, credential, request, target and time. Append-only and hash-chained: each entry carries the previous entry's hash. `verify=true` checks the whole chain from its first entry (one hash per entry, streamed) and compares its end with the head the chain's writer keeps outside the database, so a removed, altered or rewritten entry is detected; one request verifies at most 200,000 entries (2,000 per query), and a longer chain answers `complete: false` with `checked_through_seq` rather than an error. Filters combine; a cursor is bound to its filters.",
  request: {
    query: z.object({
      action: z.string().max(200).optional().openapi({ description: "Only this action (exact).", example: "POST /v1/api-keys" }),
      actor_id: z.string().max(200).optional().openapi({ description: "Only entries by this actor id.", example: "key_abcdefghij234567" }),
      target_id: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: "Only entries about this resource id.", example: "ast_abcdefghij234567" }),
      outcome: z.enum(["succeeded", "denied", "failed"]).optional().openapi({ description: "Only this outcome.", example: "denied" }),
      occurred_from: instant("Only entries at or after this instant."),
      occurred_through: instant("Only entries at or before this instant."),
      verify: z.enum(["true", "false"]).default("false").openapi({
        description: "Also verify the chain from its first entry (cost grows with the log's length, up to 200,000 entries per request).",
        example: "true",
      }),
      ...pageQuerySchema(200, 50),
    }),
  },
  responses: { 200: json(AuditPageSchema, "One page of audit entries.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const filters = {
      action: query.action,
      actorId: query.actor_id,
      targetId: query.target_id,
      outcome: query.outcome,
      from: query.occurred_from === undefined ? undefined : Date.parse(query.occurred_from),
      through: query.occurred_through === undefined ? undefined : Date.parse(query.occurred_through),
    };
    const binding = {
      tenantId,
      collection: `audit?${JSON.stringify([filters.action, filters.actorId, filters.targetId, filters.outcome, filters.from, filters.through])}`,
    };
    const db = c.var.db;
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(db, tenantId));
    // Entries are ordered by seq (never reused): the cursor's sort key carries the seq of the last entry served.
    const rows = await listEntries(db, tenantId, filters, page.after?.createdAt ?? null, page.limit + 1);
    const keyed = rows.map((row) => ({ ...row, createdAt: row.seq }));
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, keyed);
    const head = await chainHead(db, tenantId);
    const verification = query.verify === "true" ? verificationView(await verifyTenantChain(c.env, tenantId)) : null;
    return c.json({ items: items.map(auditEntryView), next_cursor: nextCursor, head, verification }, 200);
  });
}
