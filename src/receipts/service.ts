import { anchorProofOf } from "../anchoring/log";
import type { Bindings } from "../env";
import type { ReceiptRow } from "./repo";

export function receiptView(row: ReceiptRow) {
  return {
    receipt_id: row.id,
    asset_id: row.assetId,
    job_id: row.jobId,
    created_at: new Date(row.createdAt).toISOString(),
    evidence: JSON.parse(row.evidence),
  };
}

/** The receipt with its publication's place in the transparency log (read live: sealing happens after publication). */
export async function withAnchor(env: Bindings, row: ReceiptRow) {
  const view = receiptView(row);
  const publicationId = (view.evidence as { publication_id?: string }).publication_id;
  return { ...view, evidence: { ...view.evidence, anchor: publicationId ? await anchorProofOf(env, publicationId) : null } };
}
