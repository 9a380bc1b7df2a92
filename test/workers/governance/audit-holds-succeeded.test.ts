import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { createTenant, testEnv } from "../support/helpers";

/*
 * The audit area's answer to "was this write answered?" (api-keys asks it for a revoke that landed, #22): a succeeded
 * entry of that action on that target, in the chain or kept in the outbox; nothing else counts.
 */
const REVOKE = "DELETE /v1/api-keys/{api_key_id}";

async function chainEntry(tenantId: string, seq: number, action: string, outcome: string, targetId: string) {
  await testEnv.DB.prepare(
    "INSERT INTO audit_events (tenant_id, seq, id, occurred_at, action, outcome, actor_kind, target_id, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, 'api_key', ?, 'p', 'h')",
  )
    .bind(tenantId, seq, crypto.randomUUID(), Date.now(), action, outcome, targetId)
    .run();
}

async function keptEntry(tenantId: string, action: string, outcome: string, targetId: string) {
  await testEnv.DB.prepare("INSERT INTO audit_outbox (id, tenant_id, draft, created_at) VALUES (?, ?, ?, ?)")
    .bind(crypto.randomUUID(), tenantId, JSON.stringify({ action, outcome, targetId, requestId: "req_x" }), Date.now())
    .run();
}

describe("the audit sink: holdsSucceeded", () => {
  it("counts a succeeded entry of the action on the target, in the chain or kept; never another outcome, action, target or tenant", async () => {
    const db = database(testEnv.DB);
    const a = await createTenant();
    const b = await createTenant();
    const asked = (tenantId: string, target: string) => durableAuditSink.holdsSucceeded(db, tenantId, REVOKE, target);

    await chainEntry(a.tenantId, 1_000_001, REVOKE, "denied", "key_denied");
    await chainEntry(a.tenantId, 1_000_002, "POST /v1/api-keys", "succeeded", "key_other_action");
    await keptEntry(a.tenantId, REVOKE, "failed", "key_kept_failed");
    await chainEntry(b.tenantId, 1_000_003, REVOKE, "succeeded", "key_other_tenant");
    await keptEntry(b.tenantId, REVOKE, "succeeded", "key_kept_other_tenant");
    for (const target of ["key_denied", "key_other_action", "key_kept_failed", "key_other_tenant", "key_kept_other_tenant", "key_none"])
      expect(await asked(a.tenantId, target), target).toBe(false);

    await chainEntry(a.tenantId, 1_000_004, REVOKE, "succeeded", "key_in_chain");
    await keptEntry(a.tenantId, REVOKE, "succeeded", "key_kept");
    expect(await asked(a.tenantId, "key_in_chain")).toBe(true);
    expect(await asked(a.tenantId, "key_kept")).toBe(true);
    expect(await asked(b.tenantId, "key_other_tenant")).toBe(true);
    expect(await asked(b.tenantId, "key_kept_other_tenant")).toBe(true);
  });
});
