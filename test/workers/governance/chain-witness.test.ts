import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { tamper } from "./audit-support";

const verify = async (key: string) => (await json(await api("/v1/governance/audit?verify=true", { key }))).verification;
const newKey = (key: string, name: string) => api("/v1/api-keys", { method: "POST", key, body: { name, scopes: ["identity:read"] } });

/** What an eviction gives: a fresh AuditChain instance, its storage kept, its in-memory head forgotten. */
async function evict(tenantId: string) {
  const ns = (testEnv as unknown as { AUDIT_CHAIN: DurableObjectNamespace }).AUDIT_CHAIN;
  const stub: DurableObjectStub = ns.get(ns.idFromName(`audit:${tenantId}`));
  await runInDurableObject(stub, (instance: unknown) => {
    const chain = instance as { headKnown: boolean; head: unknown };
    chain.headKnown = false;
    chain.head = null;
  });
}

describe("the audit chain's witness", () => {
  it("a removed tail stays detected after the writer restarts and appends again", async () => {
    const { key, tenantId } = await createTenant();
    for (let i = 0; i < 4; i++) await newKey(key, `k${i}`);
    await tamper("DELETE FROM audit_events WHERE tenant_id = ? AND seq >= 3", tenantId);
    await evict(tenantId);
    expect((await newKey(key, "later")).status).toBe(201);
    // The chain in D1 links again (2 → the new 3), but the witness kept the head that was removed (seq 4)…
    expect(await verify(key)).toMatchObject({ intact: true, last_seq: 3, witness: "behind" });
    // …and once the chain grows past it, the entry at that position is not the one written there.
    await newKey(key, "even later");
    expect(await verify(key)).toMatchObject({ intact: true, last_seq: 4, witness: "differs" });
  });

  it("a rewritten newest entry stays detected too; an untouched chain keeps matching across restarts", async () => {
    const { key, tenantId } = await createTenant();
    for (let i = 0; i < 3; i++) await newKey(key, `k${i}`);
    await evict(tenantId);
    await newKey(key, "after a restart");
    expect(await verify(key)).toMatchObject({ intact: true, witness: "matches" });

    await tamper("DELETE FROM audit_events WHERE tenant_id = ? AND seq = 4", tenantId);
    await evict(tenantId);
    await newKey(key, "hides the removal");
    expect((await verify(key)).witness).toBe("differs");
  });
});

describe("audited refusals", () => {
  it("records repeated refusals of one credential at most once a minute, counting the repeats in the next entry", async () => {
    const { key } = await createTenant();
    const narrow = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "n", scopes: ["identity:read"] } }));
    for (let i = 0; i < 12; i++) expect((await api("/v1/governance/audit", { key: narrow.secret })).status).toBe(403);
    const denied = await json(await api(`/v1/governance/audit?actor_id=${narrow.api_key.api_key_id}&outcome=denied`, { key }));
    expect(denied.items).toHaveLength(1);
    expect(denied.items[0].detail).toEqual({ reason: "scope_missing" });
  });

  it("a disclosure that cannot be audited is refused with 503 svc.audit.unavailable, not disclosed", async () => {
    const t = await createTenant({ scopes: ALL_SCOPES });
    const enrolled = await api("/v1/creator-identities", {
      method: "POST",
      key: t.key,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: {
        email: "grace@example.test",
        name: "Grace",
        consent: { basis: "consent", obtained_at: "2026-11-20T09:00:00.000Z", notice_version: "2026-10", reference: "r" },
      },
    });
    const creator = await json(enrolled);
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../../../src/index")).default;
    const ctx = createExecutionContext();
    const broken = { ...testEnv, AUDIT_CHAIN: undefined };
    const res = await worker.fetch!(
      new Request(`http://svc.test/v1/creator-identities/${creator.creator_id}/disclosure`, {
        headers: { authorization: `Bearer ${t.key}` },
      }) as never,
      broken as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const body = await res.text();
    expect(res.status, body).toBe(503);
    expect(JSON.parse(body).code).toBe("svc.audit.unavailable");
    expect(body).not.toContain("grace@example.test");
  });
});
