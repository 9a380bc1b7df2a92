import { describe, expect, it } from "vitest";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { charge, hold, NO_AUTO, optIn, putSettings, topUp, walletRow } from "./wallet-helpers";

const wallet = async (key: string) => json(await api("/v1/billing/wallet", { key }));

describe("GET /v1/billing/wallet", () => {
  it("before opt-in: the wallet as it would be (disabled, zeros, version 0), and reading creates nothing", async () => {
    const t = await createTenant();
    const res = await api("/v1/billing/wallet", { key: t.key });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      balance_usd: "0.00",
      reserved_usd: "0.00",
      month_to_date_spend_usd: "0.00",
      monthly_spend_limit_usd: null,
      top_up_min_usd: "10.00",
      top_up_max_usd: "10000.00",
      enabled: false,
      recharge_pending: false,
      auto_recharge: { enabled: false, threshold_usd: null, amount_usd: null },
      transactions: [],
      version: 0,
      currency: "USD",
    });
    expect(await walletRow(t.tenantId)).toBeNull();
  });

  it("balance, reserved, month spend and the movements (charges included), newest first", async () => {
    const t = await createTenant();
    await optIn(t.key);
    const base = Date.now() - 60_000;
    const topUpId = await topUp(t.tenantId, 25_000_000, base);
    const first = await charge(
      t.tenantId,
      { media_family: "image", operation: "watermark_then_sign", width: 4000, height: 3000 },
      base + 1000,
    );
    const second = await charge(t.tenantId, { media_family: "video", operation: "sign", duration_seconds: 10 }, base + 2000);
    const held = await hold(t.tenantId, { media_family: "document", operation: "sign" });
    const w = await wallet(t.key);
    // 25.00 − 0.0126 − 0.005 = 24.9824; reserved: the held document sign.
    expect(w).toMatchObject({
      balance_usd: "24.9824",
      reserved_usd: "0.002",
      month_to_date_spend_usd: "0.0176",
      enabled: true,
      version: 1,
    });
    expect(held.amount).toBe(2000);
    expect(w.transactions).toEqual([
      {
        kind: "charge",
        amount_usd: "-0.005",
        created_at: new Date(second.endedAt).toISOString(),
        reference: `chg_${second.jobId.slice(4)}`,
      },
      {
        kind: "charge",
        amount_usd: "-0.0126",
        created_at: new Date(first.endedAt).toISOString(),
        reference: `chg_${first.jobId.slice(4)}`,
      },
      { kind: "top_up", amount_usd: "25.00", created_at: new Date(base).toISOString(), reference: topUpId },
    ]);
  });

  it("shows only the latest 20 movements", async () => {
    const t = await createTenant();
    await optIn(t.key);
    const base = Date.now() - 100_000;
    for (let i = 0; i < 25; i++) await topUp(t.tenantId, 10_000_000, base + i);
    const w = await wallet(t.key);
    expect(w.transactions).toHaveLength(20);
    expect(w.transactions[0].created_at).toBe(new Date(base + 24).toISOString());
    expect(w.balance_usd).toBe("250.00");
  });

  it("month-to-date spend counts only this month: a settlement of an earlier month never moves the spend month back", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    await charge(t.tenantId, { media_family: "text", operation: "sign" }, Date.UTC(2020, 0, 15));
    expect((await walletRow(t.tenantId))?.spend_month).toBe(new Date().toISOString().slice(0, 7));
    const w = await wallet(t.key);
    expect(w.month_to_date_spend_usd).toBe("0.00");
    expect(w.balance_usd).toBe("9.999");
  });
});

describe("PUT /v1/billing/wallet/settings", () => {
  it("expected_version 0 opts in: creates the wallet at version 1 with the settings", async () => {
    const t = await createTenant();
    const w = await optIn(t.key, { monthly_spend_limit_usd: "100.00" });
    expect(w).toMatchObject({ enabled: true, version: 1, balance_usd: "0.00", monthly_spend_limit_usd: "100.00", auto_recharge: NO_AUTO });
    expect(await wallet(t.key)).toEqual(w);
  });

  it("each change bumps the version; the monthly limit is set, left (absent) or removed (null)", async () => {
    const t = await createTenant();
    await optIn(t.key);
    let w = await json(await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "42.50" }));
    expect(w).toMatchObject({ version: 2, monthly_spend_limit_usd: "42.50" });
    w = await json(await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 2 }));
    expect(w).toMatchObject({ version: 3, monthly_spend_limit_usd: "42.50" });
    w = await json(await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 3, monthly_spend_limit_usd: null }));
    expect(w).toMatchObject({ version: 4, monthly_spend_limit_usd: null });
  });

  it("opting out with nothing reserved and a non-negative balance; opting in again later", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    let w = await json(await putSettings(t.key, { auto_recharge: NO_AUTO, enabled: false, expected_version: 1 }));
    expect(w).toMatchObject({ enabled: false, version: 2, balance_usd: "10.00" });
    w = await json(await putSettings(t.key, { auto_recharge: NO_AUTO, enabled: true, expected_version: 2 }));
    expect(w).toMatchObject({ enabled: true, version: 3 });
  });

  it("an API key may turn auto-recharge off, or leave it on exactly as it is", async () => {
    const t = await createTenant();
    await optIn(t.key);
    // Turned on earlier by a console session (#18): written directly here.
    await testEnv.DB.prepare(
      "UPDATE wallets SET auto_recharge_enabled = 1, auto_recharge_threshold_micros = 20000000, auto_recharge_amount_micros = 50000000 WHERE tenant_id = ?",
    )
      .bind(t.tenantId)
      .run();
    const on = { enabled: true, threshold_usd: "20.00", amount_usd: "50.00" };
    expect((await wallet(t.key)).auto_recharge).toEqual(on);
    const unchanged = await putSettings(t.key, {
      auto_recharge: { enabled: true, threshold_usd: "20", amount_usd: "50.0" },
      expected_version: 1,
    });
    expect(unchanged.status).toBe(200);
    expect(await json(unchanged)).toMatchObject({ auto_recharge: on, version: 2 });
    const off = await putSettings(t.key, { auto_recharge: { enabled: false }, expected_version: 2 });
    expect(off.status).toBe(200);
    expect(await json(off)).toMatchObject({ auto_recharge: NO_AUTO, version: 3 });
  });
});
