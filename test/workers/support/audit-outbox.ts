import type { AuditDraft } from "../../../src/platform/audit";
import { testEnv } from "./helpers";

/** Audit tests' drafts, kept rows and counts (audit-kept-once, audit-optimistic). */

/** A draft for `action`; `keptAs` names the audit_outbox row that keeps it. */
export const draftOf = (action: string, keptAs?: string): AuditDraft => ({
  action,
  outcome: "succeeded",
  actorKind: "api_key",
  actorId: "key_test",
  credentialId: null,
  requestId: crypto.randomUUID(),
  targetType: "thing",
  targetId: "thing_1",
  statusCode: 200,
  detail: null,
  occurredAt: Date.now(),
  ...(keptAs ? { keptAs } : {}),
});

/** Keeps `draft` in audit_outbox for `tenantId`, claimed for 5 minutes, as a request's batch does; its row id. */
export async function keep(tenantId: string, draft: AuditDraft): Promise<string> {
  const id = crypto.randomUUID();
  await testEnv.DB.prepare("INSERT INTO audit_outbox (id, tenant_id, draft, created_at, claimed_until) VALUES (?, ?, ?, ?, ?)")
    .bind(id, tenantId, JSON.stringify(draft), Date.now(), Date.now() + 300_000)
    .run();
  return id;
}

/** `SELECT COUNT(*) FROM <sql>` with `binds`. */
export const countOf = async (sql: string, ...binds: unknown[]) =>
  (await testEnv.DB.prepare(`SELECT COUNT(*) AS n FROM ${sql}`)
    .bind(...binds)
    .first<{ n: number }>())!.n;
