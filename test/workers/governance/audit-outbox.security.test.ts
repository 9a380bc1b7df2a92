import { afterEach, describe, expect, it } from "vitest";
import { drainAuditOutbox, durableAuditSink } from "../../../src/governance/audit/service";
import { type AuditSink, installAuditSink } from "../../../src/platform/audit";
import { request, send } from "../campaign/faults-http.helpers";
import { faultyEnv } from "../support/faults";
import { addKey, api, createTenant, testEnv } from "../support/helpers";

/*
 * #22: a write whose audit append fails after the write happened (the tenant's AuditChain object unreachable) keeps
 * its entry in D1 (audit_outbox) and the sweep appends it with its original time, once. Before, the entry was lost.
 */
const UPLOAD = { byte_length: 10, declared_media_type: "image/jpeg", mode: "single", sha256: "ab".repeat(32), filename: "o.jpg" };

const entries = async (tenantId: string, action: string) =>
  (
    await testEnv.DB.prepare("SELECT occurred_at, request_id, actor_id FROM audit_events WHERE tenant_id = ? AND action = ? ORDER BY seq")
      .bind(tenantId, action)
      .all<{ occurred_at: number; request_id: string; actor_id: string }>()
  ).results;
const kept = async (tenantId: string) =>
  (await testEnv.DB.prepare("SELECT id, draft FROM audit_outbox WHERE tenant_id = ?").bind(tenantId).all<{ id: string; draft: string }>())
    .results;

/** A sink whose append fails for the tenant's writes of `action`; `defer` as given (the real one by default). */
function failingFor(tenantId: string, action: string, defer: AuditSink["defer"] = durableAuditSink.defer): AuditSink {
  return {
    defer,
    holdsSucceeded: durableAuditSink.holdsSucceeded,
    async append(env, t, drafts) {
      if (t === tenantId && drafts.some((d) => d.action === action)) throw new Error("audit chain unreachable");
      await durableAuditSink.append(env, t, drafts);
    },
  };
}

afterEach(() => installAuditSink(durableAuditSink));

describe("audit entries kept when the chain cannot take them (#22)", () => {
  it("an upload whose append fails is answered, its entry kept, and the sweep appends it once with its own time and request", async () => {
    const { key, tenantId, keyId } = await createTenant();
    installAuditSink(failingFor(tenantId, "POST /v1/uploads"));
    const before = Date.now();
    const res = await api("/v1/uploads", { method: "POST", key, body: UPLOAD, headers: { "idempotency-key": "kept-1" } });
    expect(res.status).toBe(201);
    const requestId = res.headers.get("x-request-id");
    installAuditSink(durableAuditSink);
    expect(await entries(tenantId, "POST /v1/uploads")).toEqual([]);
    const rows = await kept(tenantId);
    expect(rows).toHaveLength(1);
    const draft = JSON.parse(rows[0]!.draft);
    expect(draft).toMatchObject({ action: "POST /v1/uploads", outcome: "succeeded", actorId: keyId, requestId });
    expect(draft.occurredAt).toBeGreaterThanOrEqual(before);
    // The sweep appends it, then nothing more on the next runs.
    expect(await drainAuditOutbox(testEnv, Date.now())).toBeGreaterThanOrEqual(1);
    expect(await drainAuditOutbox(testEnv, Date.now())).toBe(0);
    expect(await entries(tenantId, "POST /v1/uploads")).toEqual([
      { occurred_at: draft.occurredAt, request_id: requestId, actor_id: keyId },
    ]);
    expect(await kept(tenantId)).toEqual([]);
    // The chain stays whole.
    const audit = await (await api("/v1/governance/audit?verify=true", { key })).json<{
      verification: { intact: boolean; witness: string };
    }>();
    expect(audit.verification).toMatchObject({ intact: true, witness: "matches" });
  });

  it("a sweep that died after appending and before dropping the row: the next one drops it without a second entry", async () => {
    const { key, tenantId } = await createTenant();
    installAuditSink(failingFor(tenantId, "POST /v1/uploads"));
    expect((await api("/v1/uploads", { method: "POST", key, body: UPLOAD })).status).toBe(201);
    installAuditSink(durableAuditSink);
    const [row] = await kept(tenantId);
    await drainAuditOutbox(testEnv, Date.now());
    // the row back, as if the drop never ran
    await testEnv.DB.prepare("INSERT INTO audit_outbox (id, tenant_id, draft, created_at) VALUES (?, ?, ?, ?)")
      .bind(row!.id, tenantId, row!.draft, Date.now())
      .run();
    expect(await drainAuditOutbox(testEnv, Date.now())).toBe(0);
    expect(await entries(tenantId, "POST /v1/uploads")).toHaveLength(1);
    expect(await kept(tenantId)).toEqual([]);
  });

  it("a claimed row is not drained twice while its claim holds; a kept entry whose append fails again stays for a later sweep", async () => {
    const { key, tenantId } = await createTenant();
    installAuditSink(failingFor(tenantId, "POST /v1/uploads"));
    expect((await api("/v1/uploads", { method: "POST", key, body: UPLOAD })).status).toBe(201);
    // the chain still unreachable when the sweep runs (the sweep calls the object itself): the row stays
    const broken = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const now = Date.now();
    expect(await drainAuditOutbox(broken.env, now)).toBe(0);
    expect(broken.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(await kept(tenantId)).toHaveLength(1);
    // claimed for 5 minutes by that run: a sweep within the claim leaves it, one after it appends it
    expect(await drainAuditOutbox(testEnv, now + 1_000)).toBe(0);
    expect(await drainAuditOutbox(testEnv, now + 6 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(await entries(tenantId, "POST /v1/uploads")).toHaveLength(1);
    expect(await kept(tenantId)).toEqual([]);
  });

  it("a write that shows a one-time secret is never answered on a kept entry: 503, nothing kept", async () => {
    const { key, tenantId } = await createTenant();
    installAuditSink(failingFor(tenantId, "POST /v1/api-keys"));
    const res = await api("/v1/api-keys", { method: "POST", key, body: { name: "k", scopes: ["identity:read"] } });
    expect(res.status).toBe(503);
    expect(await res.text()).not.toMatch(/svc_live_/);
    expect(await kept(tenantId)).toEqual([]);
  });

  it("when D1 cannot keep it either, the write still stands (it happened) and the loss is only logged", async () => {
    const { key, tenantId } = await createTenant();
    installAuditSink(
      failingFor(tenantId, "POST /v1/uploads", async () => {
        throw new Error("D1 unavailable too");
      }),
    );
    expect((await api("/v1/uploads", { method: "POST", key, body: UPLOAD })).status).toBe(201);
    expect(await kept(tenantId)).toEqual([]);
    expect(await entries(tenantId, "POST /v1/uploads")).toEqual([]);
  });

  it("a revoke answered with its entry kept is not answered again as a lost revoke to the same caller", async () => {
    const { key, tenantId } = await createTenant();
    const target = await addKey(tenantId);
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const first = await send(faulty.env, request(`/v1/api-keys/${target.keyId}`, { method: "DELETE", key }));
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expect(first.status, first.text).toBe(200);
    expect(await kept(tenantId)).toHaveLength(1);
    const again = await send(testEnv, request(`/v1/api-keys/${target.keyId}`, { method: "DELETE", key }));
    expect(again.status, again.text).toBe(409);
    await drainAuditOutbox(testEnv, Date.now());
    expect(await entries(tenantId, "DELETE /v1/api-keys/{api_key_id}")).toHaveLength(1);
  });
});
