import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { charge, optIn, topUp } from "./wallet-helpers";

async function seedTwo(t: { tenantId: string; key: string }) {
  await optIn(t.key);
  await topUp(t.tenantId, 10_000_000);
  await charge(t.tenantId, { media_family: "text", operation: "sign" }, Date.now() - 2000);
  await charge(t.tenantId, { media_family: "text", operation: "sign" }, Date.now() - 1000);
}

describe("GET /v1/billing/charges: refusals and isolation", () => {
  it("422 for a limit outside 1..100 or not an integer", async () => {
    const t = await createTenant();
    for (const q of ["?limit=0", "?limit=101", "?limit=2.5", "?limit=x"]) {
      const res = await api(`/v1/billing/charges${q}`, { key: t.key });
      expect(res.status, q).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
  });

  it("422 svc.cursor.invalid naming `before` for a tampered, foreign or other-list cursor", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await seedTwo(a);
    const cursor = (await json(await api("/v1/billing/charges?limit=1", { key: a.key }))).next_before as string;
    expect(cursor).toBeTruthy();
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("AA") ? "BB" : "AA"}`;
    for (const [key, before] of [
      [a.key, tampered],
      [a.key, "not-a-cursor"],
      [b.key, cursor],
    ] as const) {
      const res = await api(`/v1/billing/charges?before=${encodeURIComponent(before)}`, { key });
      expect(res.status).toBe(422);
      const body = await json(res);
      expect(body.code).toBe("svc.cursor.invalid");
      expect(body.field_details[0].field).toBe("before");
    }
    // A cursor of another list (jobs) is refused here too.
    const jobsCursor = (await json(await api("/v1/jobs?limit=1", { key: a.key }))).next_cursor;
    if (jobsCursor) expect((await api(`/v1/billing/charges?before=${encodeURIComponent(jobsCursor)}`, { key: a.key })).status).toBe(422);
  });

  it("tenant B never sees A's charges", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await seedTwo(a);
    expect((await json(await api("/v1/billing/charges", { key: a.key }))).items).toHaveLength(2);
    expect((await json(await api("/v1/billing/charges", { key: b.key }))).items).toEqual([]);
    expect((await json(await api("/v1/usage", { key: b.key }))).items).toEqual([]);
  });
});
