import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { actorOf, auditRequestEvent } from "../../../platform/audit";
import { notFound, principalOf } from "../../../platform/context";
import { ApiError } from "../../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json } from "../../../platform/openapi";
import { CreateDeletionSchema, DeletionSchema } from "../schemas";
import { deletionView, requestDeletion } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/governance/deletions",
  operationId: "createDeletion",
  tags: ["Governance"],
  summary: "Delete an asset or the whole account",
  description:
    "Requests a deletion, carried out in the background (poll GET /v1/governance/deletions/{deletion_id}). " +
    '**Asset** (`{ scope: "asset", asset_id }`): running jobs of the asset are cancelled first; then its stored bytes (original, signed and watermarked outputs, sidecar, preview, intermediate files), its records (jobs, steps, receipts, verifications of it with their reports and shares, capture admissions, webhook events about it with their pending deliveries) and its entries in the watermark and fingerprint recovery index are removed. Afterwards the asset answers 404 and a verify of a stripped copy no longer recovers it; its manifest stays provable in the transparency log, where its publication resolves to deleted. ' +
    '**Account** (`{ scope: "account", confirm: <tenant id> }`): the same for every asset, then every API key revoked (401 from then on), webhook endpoints removed, creator identities erased, capture identities and every other record of the account removed, and the tenant closed. ' +
    "Kept, and why, is listed in `retained`: the audit log, billing records the law requires, transparency-log entries and the governance records. " +
    "While a legal hold covers the target (an account hold covers every asset; any hold blocks an account deletion) the request is refused with 409 `svc.governance.legal_hold_active`, recorded as a `refused` deletion, and nothing is removed. A target whose deletion is already queued or running answers that deletion (202). Outcomes are audited (`deletion.completed`, `deletion.refused`).",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateDeletionSchema } }, required: true },
  },
  responses: {
    202: json(DeletionSchema, "Accepted: the deletion is queued (or the one already in progress for this target)."),
    404: errorResponse("The asset does not exist for this tenant (`svc.resource.not_found`)."),
    409: errorResponse("`svc.governance.legal_hold_active`: a legal hold covers the target; nothing was removed."),
    422: errorResponse(
      "`svc.governance.confirmation_mismatch`: `confirm` is not this tenant's id; or the body does not match the contract.",
    ),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    const body = c.req.valid("json");
    const request =
      body.scope === "asset" ? { scope: "asset" as const, assetId: body.asset_id } : { scope: "account" as const, confirm: body.confirm };
    const result = await requestDeletion(c.env, c.var.db, tenantId, request, actorOf(principal)?.credentialId ?? null);
    if (result.status === "not_found") throw notFound("asset");
    if (result.status === "confirmation_mismatch")
      throw new ApiError("svc.governance.confirmation_mismatch", "`confirm` must be this tenant's id to delete the account.");
    if (result.status === "refused") {
      await auditRequestEvent(c, tenantId, {
        action: "deletion.refused",
        outcome: "denied",
        targetType: "governance_deletion",
        targetId: result.deletion.id,
        statusCode: 409,
        detail: { error_code: "svc.governance.legal_hold_active", legal_hold_id: result.holdId, scope: request.scope },
      });
      throw new ApiError(
        "svc.governance.legal_hold_active",
        `Legal hold ${result.holdId} covers this target; nothing was removed (deletion ${result.deletion.id} is recorded as refused).`,
      );
    }
    return c.json(deletionView(result.deletion), 202);
  });
}
