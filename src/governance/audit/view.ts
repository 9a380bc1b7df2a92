import { iso } from "../../platform/openapi";
import type { AuditRow } from "./repo";
import type { ACTOR_KINDS } from "./schemas";
import type { AuditVerification } from "./service";

/** The wire form of one stored entry (the fields the hash covers, renamed; `detail` parsed back from its JSON). */
export function auditEntryView(row: AuditRow) {
  return {
    id: row.id,
    seq: row.seq,
    occurred_at: iso(row.occurredAt),
    action: row.action,
    outcome: row.outcome,
    actor: { kind: row.actorKind as (typeof ACTOR_KINDS)[number], id: row.actorId },
    credential_id: row.credentialId,
    request_id: row.requestId,
    target: { type: row.targetType, id: row.targetId },
    status_code: row.statusCode,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    prev_hash: row.prevHash,
    hash: row.hash,
  };
}

export function verificationView(v: AuditVerification) {
  return {
    intact: v.intact,
    entries: v.entries,
    last_seq: v.intact ? v.lastSeq : null,
    broken_at_seq: v.intact ? null : v.brokenAtSeq,
    reason: v.intact ? null : v.reason,
    witness: v.witness,
    complete: v.complete,
    checked_through_seq: v.checkedThroughSeq,
  };
}
