import type { Database } from "../db/client";
import { utf8 } from "../platform/bytes";
import { newId } from "../platform/ids";
import { type SealingUnavailable, seal, tenantDataKey } from "../platform/sealing";
import { type FeedbackRow, insertFeedback } from "./repo";
import type { FeedbackRequest } from "./schemas";

/** Who sent feedback, as the audit log names them. */
export interface FeedbackSender {
  actorKind: string;
  actorId: string | null;
}

export type SubmitResult = { status: "created"; row: FeedbackRow } | { status: "unavailable"; reason: SealingUnavailable };

/**
 * Stores feedback with its message sealed under the tenant data key (AAD binds tenant, feedback id and field
 * "message"), so the free text, which may carry personal data, is never at rest in clear. Without a usable data key
 * nothing is stored.
 */
export async function submitFeedback(
  db: Database,
  env: { SVC_DATA_MASTER_KEYS?: string },
  tenantId: string,
  sender: FeedbackSender,
  input: FeedbackRequest,
  now = Date.now(),
): Promise<SubmitResult> {
  const dataKey = await tenantDataKey(db, env, tenantId, { create: true });
  if (dataKey.status === "none") return { status: "unavailable", reason: "data_key_unusable" };
  if (dataKey.status === "unavailable") return dataKey;
  const id = newId("feedback");
  const row: FeedbackRow = {
    id,
    tenantId,
    kind: input.kind,
    dataKeyId: dataKey.key.id,
    messageSealed: await seal(dataKey.key, { recordId: id, field: "message" }, utf8(input.message)),
    messageLength: input.message.length,
    relatedAssetId: input.asset_id ?? null,
    relatedJobId: input.job_id ?? null,
    relatedVerificationId: input.verification_id ?? null,
    actorKind: sender.actorKind,
    actorId: sender.actorId,
    createdAt: now,
  };
  await insertFeedback(db, row);
  return { status: "created", row };
}
