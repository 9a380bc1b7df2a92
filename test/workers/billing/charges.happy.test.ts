import { describe, expect, it } from "vitest";
import { PRICING } from "../../../src/billing/pricing";
import { api, createTenant, json } from "../support/helpers";
import { charge, hold, optIn, topUp } from "./wallet-helpers";

const list = async (key: string, query = "") => api(`/v1/billing/charges${query}`, { key });

describe("GET /v1/billing/charges", () => {
  it("empty before any work; the constants", async () => {
    const t = await createTenant();
    const res = await list(t.key);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ items: [], next_before: null, currency: "USD", provider_charge_created: false });
  });

  it("one item per settled reservation with its lines, newest first; held work is not a charge", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const base = Date.now() - 10_000;
    const older = await charge(t.tenantId, { media_family: "image", operation: "watermark", width: 2000, height: 1500 }, base);
    const newer = await charge(t.tenantId, { media_family: "audio", operation: "sign", duration_seconds: 90 }, base + 1);
    await hold(t.tenantId, { media_family: "text", operation: "sign" });
    const body = await json(await list(t.key));
    expect(body.items).toEqual([
      {
        id: `chg_${newer.jobId.slice(4)}`,
        job_id: newer.jobId,
        amount_usd: "0.0038",
        lines: [
          { description: "sign one audio file", unit: "file", quantity: "1", unit_price_usd: "0.002", amount_usd: "0.002" },
          { description: "sign, per second of audio", unit: "second", quantity: "90", unit_price_usd: "0.00002", amount_usd: "0.0018" },
        ],
        pricing_version: PRICING.pricing_version,
        created_at: new Date(base + 1).toISOString(),
      },
      expect.objectContaining({ id: `chg_${older.jobId.slice(4)}`, job_id: older.jobId, amount_usd: "0.0034" }),
    ]);
    expect(body.next_before).toBeNull();
  });

  it("pages with before / next_before through every charge exactly once, snapshot-consistent", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const base = Date.now() - 60_000;
    const seeded: string[] = [];
    // Pairs share a settlement time: the job id breaks the tie.
    for (let i = 0; i < 7; i++)
      seeded.push((await charge(t.tenantId, { media_family: "text", operation: "sign" }, base + Math.floor(i / 2))).jobId);
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const res = await list(t.key, `?limit=3${before ? `&before=${encodeURIComponent(before)}` : ""}`);
      expect(res.status).toBe(200);
      const page = await json(res);
      seen.push(...page.items.map((c: { job_id: string }) => c.job_id));
      before = page.next_before;
      pages++;
      // A charge settled mid-walk is not part of this traversal.
      if (pages === 1) await charge(t.tenantId, { media_family: "text", operation: "sign" }, Date.now() + 5);
    } while (before);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(seeded));
    await new Promise((resolve) => setTimeout(resolve, 10)); // past the mid-walk charge's settlement time
    expect((await json(await list(t.key, "?limit=100"))).items).toHaveLength(8);
  });
});
