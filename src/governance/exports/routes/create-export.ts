import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { actorOf } from "../../../platform/audit";
import { principalOf, publicOrigin } from "../../../platform/context";
import { ApiError } from "../../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json } from "../../../platform/openapi";
import { GovernanceExportSchema } from "../schemas";
import { enqueueExport } from "../seal";
import { exportView, requestExport } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/governance/exports",
  operationId: "createGovernanceExport",
  tags: ["Governance"],
  summary: "Export everything the tenant has",
  description:
    "Starts an export (**202**, state `queued`): a job on the queue seals every record of the tenant created at or before `as_of` (now) — assets, stored objects, uploads, jobs and their steps, receipts, publications, soft bindings, verifications, API keys (metadata, never secret hashes), webhook endpoints (never their secrets), creator identities (sealed personal data omitted), capture identities and admissions, billing records, request logs and the audit log up to its head — plus every stored object's bytes, into one POSIX tar archive in R2 with a `manifest.json` of SHA-256 hashes signed by the service (`manifest.sig`). No body. Poll GET /v1/governance/exports/{export_id}; once `completed` it carries a presigned `download` URL, for 7 days. One export at a time per tenant: 409 `svc.governance.export_in_progress` while one is queued or running (its id is in the message). 503 `svc.governance.export_signing_unavailable` when no signing key is configured. The request is audited, and so is its end (`export.completed` / `export.failed`).",
  request: { headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    202: json(GovernanceExportSchema, "Accepted: the export, queued."),
    409: errorResponse("`svc.governance.export_in_progress`: an export is queued or running."),
    503: errorResponse("`svc.governance.export_signing_unavailable`. Retry later."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const actor = actorOf(principal) ?? { actorKind: "service" as const, actorId: null };
    const result = await requestExport(c.env, c.var.db, principal.tenantId, actor, Date.now());
    switch (result.status) {
      case "signing_unavailable":
        throw new ApiError("svc.governance.export_signing_unavailable");
      case "in_progress":
        throw new ApiError(
          "svc.governance.export_in_progress",
          result.active ? `Export ${result.active.id} is ${result.active.state}; wait for it to finish.` : undefined,
        );
      case "created":
        // A lost message is sent again by the cron sweep; the row is the truth.
        c.executionCtx.waitUntil(enqueueExport(c.env, result.row).catch(() => undefined));
        return c.json(await exportView(c.env, publicOrigin(c), result.row), 202);
    }
  });
}
