import { describe, expect, it } from "vitest";
import { verifyTenantChain } from "../../../src/governance/audit/service";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { tamper } from "./audit-support";

async function audit(key: string, query = "") {
  const res = await api(`/v1/governance/audit${query}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}

describe("GET /v1/governance/audit", () => {
  it("records key writes with actor, credential, request and target, newest first, hash-chained", async () => {
    const { key, keyId } = await createTenant();
    const created = await api("/v1/api-keys", { method: "POST", key, body: { name: "CI", scopes: ["identity:read"] } });
    expect(created.status).toBe(201);
    const child = (await json(created)).api_key.api_key_id as string;
    const revoked = await api(`/v1/api-keys/${child}`, { method: "DELETE", key });
    const requestId = revoked.headers.get("x-request-id");
    const page = await audit(key, "?verify=true");
    expect(page.items.map((e: any) => e.action)).toEqual(["DELETE /v1/api-keys/{api_key_id}", "POST /v1/api-keys"]);
    const [del, post] = page.items;
    expect(post).toMatchObject({
      seq: 1,
      outcome: "succeeded",
      actor: { kind: "api_key", id: keyId },
      credential_id: keyId,
      target: { type: "api_key", id: child },
      status_code: 201,
      prev_hash: "0".repeat(64),
    });
    expect(del).toMatchObject({ seq: 2, request_id: requestId, target: { type: "api_key", id: child }, prev_hash: post.hash });
    expect(page.head).toEqual({ seq: 2, hash: del.hash });
    expect(page.verification).toEqual({
      intact: true,
      entries: 2,
      last_seq: 2,
      broken_at_seq: null,
      reason: null,
      witness: "matches",
      complete: true,
      checked_through_seq: 2,
    });
    // Reads are not writes: the list itself added nothing.
    expect((await audit(key)).items).toHaveLength(2);
  });

  it("keeps one gapless chain under concurrent writes from one tenant", async () => {
    const { key } = await createTenant();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api("/v1/api-keys", { method: "POST", key, body: { name: `k${i}`, scopes: ["identity:read"] } }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const page = await audit(key, "?verify=true&limit=200");
    expect(page.items.map((e: any) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    expect(page.verification).toMatchObject({ intact: true, entries: 30, witness: "matches" });
  });

  it("detects an altered entry, a removed entry and a truncated tail", async () => {
    const { key, tenantId } = await createTenant();
    for (let i = 0; i < 4; i++) await api("/v1/api-keys", { method: "POST", key, body: { name: `k${i}`, scopes: ["identity:read"] } });
    expect((await audit(key, "?verify=true")).verification.intact).toBe(true);

    await tamper("UPDATE audit_events SET status_code = 200 WHERE tenant_id = ? AND seq = 2", tenantId);
    expect((await audit(key, "?verify=true")).verification).toMatchObject({ intact: false, broken_at_seq: 2, reason: "hash_mismatch" });
    await tamper("UPDATE audit_events SET status_code = 201 WHERE tenant_id = ? AND seq = 2", tenantId);
    expect((await audit(key, "?verify=true")).verification.intact).toBe(true);

    await tamper("DELETE FROM audit_events WHERE tenant_id = ? AND seq = 3", tenantId);
    expect((await audit(key, "?verify=true")).verification).toMatchObject({ intact: false, broken_at_seq: 4, reason: "sequence_gap" });

    await tamper("DELETE FROM audit_events WHERE tenant_id = ? AND seq = 4", tenantId);
    // What remains (1, 2) chains, but the writer's witness says entry 4 existed: the tail was removed.
    expect((await audit(key, "?verify=true")).verification).toMatchObject({ intact: true, entries: 2, witness: "behind" });
  });

  it("stops a verification at its page cap with a partial answer (complete: false, checked_through_seq), never an error", async () => {
    const { key, tenantId } = await createTenant();
    for (let i = 0; i < 5; i++) await api("/v1/api-keys", { method: "POST", key, body: { name: `k${i}`, scopes: ["identity:read"] } });
    const partial = await verifyTenantChain(testEnv, tenantId, { pageSize: 2, maxPages: 2 });
    expect(partial).toMatchObject({ intact: true, entries: 4, complete: false, checkedThroughSeq: 4, witness: "unchecked" });
    const whole = await verifyTenantChain(testEnv, tenantId, { pageSize: 2, maxPages: 3 });
    expect(whole).toMatchObject({ intact: true, entries: 5, complete: true, checkedThroughSeq: 5, witness: "matches" });
    expect((await audit(key, "?verify=true")).verification).toMatchObject({ complete: true, checked_through_seq: 5 });
  });

  it("refuses changes to the log from the application's own database access", async () => {
    const { key, tenantId } = await createTenant();
    await api("/v1/api-keys", { method: "POST", key, body: { name: "k", scopes: ["identity:read"] } });
    await expect(testEnv.DB.prepare("UPDATE audit_events SET action = 'x' WHERE tenant_id = ?").bind(tenantId).run()).rejects.toThrow(
      /svc_audit_append_only/,
    );
    await expect(testEnv.DB.prepare("DELETE FROM audit_events WHERE tenant_id = ?").bind(tenantId).run()).rejects.toThrow(
      /svc_audit_append_only/,
    );
  });

  it("filters and pages with cursors bound to the filters", async () => {
    const { key } = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: `k${i}`, scopes: ["identity:read"] } }));
      ids.push(res.api_key.api_key_id);
    }
    await api(`/v1/api-keys/${ids[0]}`, { method: "DELETE", key });
    const byTarget = await audit(key, `?target_id=${ids[0]}`);
    expect(byTarget.items.map((e: any) => e.action)).toEqual(["DELETE /v1/api-keys/{api_key_id}", "POST /v1/api-keys"]);
    const first = await audit(key, "?action=POST%20/v1/api-keys&limit=2");
    expect(first.items).toHaveLength(2);
    const second = await audit(key, `?action=POST%20/v1/api-keys&limit=2&cursor=${first.next_cursor}`);
    const third = await audit(key, `?action=POST%20/v1/api-keys&limit=2&cursor=${second.next_cursor}`);
    expect([...first.items, ...second.items, ...third.items].map((e: any) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(third.next_cursor).toBeNull();
    const mismatched = await api(`/v1/governance/audit?limit=2&cursor=${first.next_cursor}`, { key });
    expect(mismatched.status).toBe(422);
  });
});
