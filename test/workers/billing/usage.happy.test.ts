import { describe, expect, it } from "vitest";
import { addMicros, parseUsd, usd } from "../../../src/billing/money";
import { api, createTenant, json } from "../support/helpers";
import { charge, hold, optIn, topUp } from "./wallet-helpers";

describe("GET /v1/usage", () => {
  it("an unmetered tenant: no items, the plan's caps, no credit balance", async () => {
    const t = await createTenant();
    const res = await api("/v1/usage", { key: t.key });
    expect(res.status).toBe(200);
    const body = await json(res);
    const now = new Date();
    expect(body).toEqual({
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      metered: false,
      items: [],
      total_usd: "0.00",
      credit_balance_usd: null,
      caps: { max_upload_bytes: 2 * 1024 ** 3, jobs_per_minute: 600, monthly_spend_limit_usd: null },
      pricing_version: expect.any(String),
      currency: "USD",
    });
  });

  it("itemises the period's charges by family and operation and reconciles with GET /v1/billing/charges", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 100_000_000);
    const seeded = [
      await charge(t.tenantId, { media_family: "image", operation: "watermark_then_sign", width: 4000, height: 3000 }),
      await charge(t.tenantId, { media_family: "image", operation: "watermark_then_sign", width: 1920, height: 1080 }),
      await charge(t.tenantId, { media_family: "image", operation: "sign" }),
      await charge(t.tenantId, { media_family: "video", operation: "sign", duration_seconds: 12.5 }),
      await charge(t.tenantId, { media_family: "video", operation: "sign", duration_seconds: 0.001 }),
    ];
    // Last month's charge and held work are not this period's usage.
    await charge(t.tenantId, { media_family: "text", operation: "sign" }, Date.UTC(2020, 5, 1));
    await hold(t.tenantId, { media_family: "document", operation: "sign" });
    const usage = await json(await api("/v1/usage", { key: t.key }));
    expect(usage.metered).toBe(true);
    expect(usage.caps).toBeNull();
    expect(usage.items).toEqual([
      {
        media_family: "image",
        operation: "sign",
        jobs: 1,
        units: { file: "1", megapixel: "0", second: "0" },
        amount_usd: "0.002",
      },
      {
        media_family: "image",
        operation: "watermark_then_sign",
        jobs: 2,
        units: { file: "2", megapixel: "14.0736", second: "0" },
        amount_usd: usd(seeded[0]!.amount + seeded[1]!.amount),
      },
      {
        media_family: "video",
        operation: "sign",
        jobs: 2,
        units: { file: "2", megapixel: "0", second: "12.501" },
        amount_usd: usd(seeded[3]!.amount + seeded[4]!.amount),
      },
    ]);
    const expectedTotal = addMicros(...seeded.map((s) => s.amount));
    expect(usage.total_usd).toBe(usd(expectedTotal));
    // Reconciliation: this period's charges listed by GET /v1/billing/charges sum to the usage total.
    const charges = (await json(await api("/v1/billing/charges?limit=100", { key: t.key }))).items as {
      amount_usd: string;
      created_at: string;
    }[];
    const thisPeriod = charges.filter((c) => c.created_at >= usage.period_start);
    expect(thisPeriod).toHaveLength(usage.items.reduce((n: number, i: { jobs: number }) => n + i.jobs, 0));
    expect(addMicros(...thisPeriod.map((c) => parseUsd(c.amount_usd, 6)!))).toBe(expectedTotal);
    // Availability: balance − reserved.
    const wallet = await json(await api("/v1/billing/wallet", { key: t.key }));
    expect(wallet.reserved_usd).toBe("0.002");
    const balance = 100_000_000 - expectedTotal - 1000; // the 2020 text charge
    expect(wallet.balance_usd).toBe(usd(balance));
    expect(usage.credit_balance_usd).toBe(usd(balance - 2000));
  });
});
