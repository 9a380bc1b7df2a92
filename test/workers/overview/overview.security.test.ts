import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant, json } from "../support/helpers";
import { seedJob } from "./seed";

describe("overview security", () => {
  it("needs a credential and overview:read", async () => {
    expect((await api("/v1/overview")).status).toBe(401);
    const narrow = await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== "overview:read") });
    expect((await api("/v1/overview", { key: narrow.key })).status).toBe(403);
    const only = await createTenant({ scopes: ["overview:read"] });
    expect((await api("/v1/overview", { key: only.key })).status).toBe(200);
  });

  it("counts only the caller's tenant", async () => {
    const a = await createTenant();
    const b = await createTenant();
    for (let i = 0; i < 3; i++) await seedJob(a.tenantId, "failed", Date.now() - 1000);
    const seenByB = await json(await api("/v1/overview", { key: b.key }));
    expect(seenByB.jobs.total).toBe(0);
    expect(seenByB.attention.items).toEqual([]);
    expect((await json(await api("/v1/overview", { key: a.key }))).jobs.total).toBe(3);
  });
});
