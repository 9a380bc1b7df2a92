import type { Database } from "../../db/client";
import { accountHoldActive, assetHoldActive } from "../legal-holds/repo";
import { pendingDeletions } from "./repo";

/*
 * The governance state other areas decide by (asset lists, the capture admission gate). Kept apart from the
 * deletion service so those areas import two small repos, not the deletion machinery.
 */

/** The workspace-wide governance state asset lists and details report. */
export async function workspaceGovernance(db: Database, tenantId: string) {
  const [held, pending] = await Promise.all([accountHoldActive(db, tenantId), pendingDeletions(db, tenantId, null)]);
  // No rule withholds downloads: a hold preserves, it does not withhold, and a deletion removes (then 404).
  return { legal_hold: held, deletion_pending: pending.account, delivery_allowed: true };
}

/** The governance policy the capture admission gate decides by; its version names this rule. */
export const CAPTURE_GOVERNANCE_POLICY_VERSION = "svc.governance-capture.v1";

/**
 * The capture admission gate's governance input: a capture is refused while an account deletion of the tenant
 * is queued or running, while a deletion of the target asset is, or while an asset-scoped legal hold covers the
 * target asset (held evidence must not change). An account hold alone does not stop new captures.
 */
export async function captureGovernance(db: Database, tenantId: string, assetId: string) {
  const [pending, assetHeld] = await Promise.all([pendingDeletions(db, tenantId, assetId), assetHoldActive(db, tenantId, assetId)]);
  const rejected = pending.account || pending.asset || assetHeld;
  return { status: rejected ? ("rejected" as const) : ("allowed" as const), policy_version: CAPTURE_GOVERNANCE_POLICY_VERSION };
}
