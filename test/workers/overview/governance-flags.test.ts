import { describe, expect, it } from "vitest";
import { placeHold } from "../governance/governance-helpers";
import { api, createTenant, json } from "../support/helpers";

describe("GET /v1/overview governance flags", () => {
  it("reports holds in force, deletions pending and the newest export from the governance records", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const empty = await json(await api("/v1/overview", { key: a.key }));
    expect(empty.governance).toMatchObject({ legal_holds: { account: 0, assets: 0 }, deletions_pending: 0, last_export: null });

    await placeHold(a.tenantId);
    await placeHold(a.tenantId, "ast_abcdefghij234567");
    await placeHold(b.tenantId);
    const exported = await api("/v1/governance/exports", { method: "POST", key: a.key });
    expect(exported.status).toBe(202);
    const flags = (await json(await api("/v1/overview", { key: a.key }))).governance;
    expect(flags.legal_holds).toEqual({ account: 1, assets: 1 });
    expect(["queued", "running", "completed"]).toContain(flags.last_export.state);
    expect(flags.audit_entries).toBeGreaterThanOrEqual(1);
    // Another tenant's records never count.
    expect((await json(await api("/v1/overview", { key: b.key }))).governance).toMatchObject({
      legal_holds: { account: 1, assets: 0 },
      last_export: null,
    });
  });
});
