import { describe, expect, it } from "vitest";
import { type Exec, placeHold, releaseHold } from "../../../scripts/lib/legal-hold.mjs";
import { api, createTenant, json, testEnv } from "../support/helpers";

/** The operator script's runner, over this test's D1 (wrangler runs a command's statements in order, as a batch). */
const exec: Exec = async (text) => {
  const statements = text.split("; ").map((s) => testEnv.DB.prepare(s));
  const results = await testEnv.DB.batch(statements);
  return (results[results.length - 1]?.results ?? []) as Record<string, unknown>[];
};

describe("legal holds placed by the operator script", () => {
  it("are listed, audited in the tenant's chain by the operator, and the service keeps chaining after them", async () => {
    const { key, tenantId } = await createTenant();
    // The service writes first (its AuditChain object now caches the head)...
    expect((await api("/v1/api-keys", { method: "POST", key, body: { name: "a", scopes: ["identity:read"] } })).status).toBe(201);
    // ...then the operator appends directly to D1...
    const placed = await placeHold(exec, { tenant: tenantId, reason: "Matter 2026-117", by: "ops.alice" });
    expect(placed.auditSeq).toBe(2);
    // ...and the service's next append conflicts on seq 2, re-reads the head and chains after the operator's entry.
    expect((await api("/v1/api-keys", { method: "POST", key, body: { name: "b", scopes: ["identity:read"] } })).status).toBe(201);
    const released = await releaseHold(exec, { hold: placed.holdId, by: "ops.bob" });
    expect(released.auditSeq).toBe(4);

    const page = await json(await api("/v1/governance/audit?verify=true", { key }));
    expect(page.items.map((e: { action: string }) => e.action)).toEqual([
      "legal_hold.released",
      "POST /v1/api-keys",
      "legal_hold.placed",
      "POST /v1/api-keys",
    ]);
    expect(page.items[2]).toMatchObject({
      actor: { kind: "operator", id: "ops.alice" },
      target: { type: "legal_hold", id: placed.holdId },
    });
    expect(page.verification).toMatchObject({ intact: true, entries: 4 });

    const holds = await json(await api("/v1/governance/legal-holds", { key }));
    expect(holds.items).toEqual([
      expect.objectContaining({
        legal_hold_id: placed.holdId,
        scope: "account",
        asset_id: null,
        active: false,
        placed_by: "ops.alice",
        released_by: "ops.bob",
      }),
    ]);
    expect((await json(await api("/v1/governance/legal-holds?status=active", { key }))).items).toEqual([]);
  });

  it("pages with a cursor bound to its filter", async () => {
    const { key, tenantId } = await createTenant();
    for (let i = 0; i < 3; i++) await placeHold(exec, { tenant: tenantId, reason: `r${i}`, by: "ops", now: 1_000 + i });
    const first = await json(await api("/v1/governance/legal-holds?limit=2", { key }));
    expect(first.items.map((h: { reason: string }) => h.reason)).toEqual(["r2", "r1"]);
    const second = await json(await api(`/v1/governance/legal-holds?limit=2&cursor=${first.next_cursor}`, { key }));
    expect(second.items.map((h: { reason: string }) => h.reason)).toEqual(["r0"]);
    expect(second.next_cursor).toBeNull();
    expect((await api(`/v1/governance/legal-holds?limit=2&status=active&cursor=${first.next_cursor}`, { key })).status).toBe(422);
  });

  it("suspend retention expiry for the assets they cover", async () => {
    const { sweepExpiredRetention } = await import("../../../src/assets/retention");
    const { database } = await import("../../../src/db/client");
    const { tenantId } = await createTenant();
    const insert = (id: string) =>
      testEnv.DB.prepare(
        "INSERT INTO assets (id, tenant_id, kind, status, retention_until, created_at, updated_at) VALUES (?, ?, 'image', 'published', 1, 0, 0)",
      )
        .bind(id, tenantId)
        .run();
    await insert("ast_retainedretained");
    await insert("ast_expiringexpiring");
    await testEnv.DB.prepare(
      "INSERT INTO legal_holds (id, tenant_id, scope, asset_id, reason, placed_by, placed_at) VALUES ('lgh_retentionretenti', ?, 'asset', 'ast_retainedretained', 'r', 'ops', 1)",
    )
      .bind(tenantId)
      .run();
    await sweepExpiredRetention(database(testEnv.DB), testEnv.OBJECTS);
    const status = async (id: string) =>
      (await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(id).first<{ status: string }>())?.status;
    expect(await status("ast_retainedretained")).toBe("published");
    expect(await status("ast_expiringexpiring")).toBe("retention_expired");
  });
});
