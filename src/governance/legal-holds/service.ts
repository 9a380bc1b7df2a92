import type { Database } from "../../db/client";
import { iso } from "../../platform/openapi";
import { activeHoldCovering, type LegalHoldRow } from "./repo";

/** Whether a deletion target may be removed now. Invariant: `held` names an active hold that covers the target. */
export type HoldCheck = { status: "clear" } | { status: "held"; hold: LegalHoldRow };

/**
 * Holds are placed by the operator (scripts/legal-hold.mjs) to preserve evidence: while one covers a target nothing
 * of it may be removed. An account hold covers every asset; an account deletion is blocked by any active hold —
 * up to its point of no return (the account closed, its assets gone), after which it finishes (deletions/service.ts).
 */
export async function holdCovering(db: Database, tenantId: string, assetId: string | null): Promise<HoldCheck> {
  const hold = await activeHoldCovering(db, tenantId, assetId);
  return hold ? { status: "held", hold } : { status: "clear" };
}

export function legalHoldView(row: LegalHoldRow) {
  return {
    legal_hold_id: row.id,
    scope: row.scope,
    asset_id: row.assetId,
    active: row.releasedAt === null,
    reason: row.reason,
    placed_by: row.placedBy,
    placed_at: iso(row.placedAt),
    released_by: row.releasedBy,
    released_at: iso(row.releasedAt),
  };
}
