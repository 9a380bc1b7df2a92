import { describe, expect, it } from "vitest";
import { PLANS, PRICING } from "../../../src/billing/pricing";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { optIn } from "./wallet-helpers";

describe("GET /v1/billing/account", () => {
  it("creates the account with the default plan on first read; calendar-month service period; no portal in simulation", async () => {
    const t = await createTenant();
    const res = await api("/v1/billing/account", { key: t.key });
    expect(res.status).toBe(200);
    const account = await json(res);
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(account).toEqual({
      id: `acct_${t.tenantId.slice(4)}`,
      plan: "payg",
      plan_display_name: "Pay as you go",
      status: "active",
      cancel_at_period_end: false,
      caps: { max_upload_bytes: 2 * 1024 ** 3, jobs_per_minute: 600, monthly_spend_limit_usd: null },
      current_period_end: end,
      current_service_period_start: start,
      current_service_period_end: end,
      renewal_at: null,
      portal_available: false,
      provider_customer_provisioned: false,
    });
    const rows = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM billing_accounts WHERE tenant_id = ?")
      .bind(t.tenantId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    // Idempotent: a second read does not create a second account or change the answer.
    expect(await json(await api("/v1/billing/account", { key: t.key }))).toEqual(account);
  });

  it("reports the wallet's monthly limit as the cap in force; a provisioned customer without a real provider has no portal", async () => {
    const t = await createTenant();
    await optIn(t.key, { monthly_spend_limit_usd: "250.00" });
    await api("/v1/billing/account", { key: t.key });
    await testEnv.DB.prepare("UPDATE billing_accounts SET provider_customer_id = 'cus_test', plan_id = 'studio' WHERE tenant_id = ?")
      .bind(t.tenantId)
      .run();
    const account = await json(await api("/v1/billing/account", { key: t.key }));
    expect(account.caps.monthly_spend_limit_usd).toBe("250.00");
    expect(account.plan).toBe("studio");
    expect(account.renewal_at).toBe(account.current_period_end);
    expect(account.provider_customer_provisioned).toBe(true);
    expect(account.portal_available).toBe(false); // simulation mode (development default)
  });
});

describe("GET /v1/billing/plans", () => {
  it("lists the published plans with money as strings; provider_mode simulation in development", async () => {
    const t = await createTenant();
    const body = await json(await api("/v1/billing/plans", { key: t.key }));
    expect(body.currency).toBe("USD");
    expect(body.pricing_version).toBe(PRICING.pricing_version);
    expect(body.provider_mode).toBe("simulation");
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(PLANS.map((p) => p.id));
    expect(body.plans[0].monthly_price_usd).toBe("0.00");
    expect(body.plans[1].monthly_price_usd).toBe("49.00");
    for (const p of body.plans) expect(typeof p.caps.max_upload_bytes).toBe("number");
  });
});

describe("GET /v1/billing/pricing", () => {
  it("every rate with its unit and string unit price, the fingerprint-set line and the activation constants", async () => {
    const t = await createTenant();
    const body = await json(await api("/v1/billing/pricing", { key: t.key }));
    expect(body).toMatchObject({
      pricing_version: PRICING.pricing_version,
      currency: "USD",
      activation: "requires_explicit_tenant_enrollment",
      processing_credits_included: false,
      fingerprint_set_change: { unit: "file", unit_price_usd: "0.0005" },
      envelope: PRICING.envelope,
    });
    expect(body.rates).toHaveLength(PRICING.rates.length);
    expect(body.rates[0]).toEqual({
      media_family: "image",
      operation: "sign",
      unit: "file",
      unit_price_usd: "0.002",
      description: "sign one image",
    });
    expect(body.rates.find((r: { unit: string }) => r.unit === "second").unit_price_usd).toBe("0.00002");
    for (const r of body.rates) expect(r.unit_price_usd).toMatch(/^\d+\.\d{2,6}$/);
  });
});
