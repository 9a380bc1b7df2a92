import { describe, expect, it } from "vitest";
import { createTenant, json, testEnv } from "../support/helpers";
import { charge, hold, NO_AUTO, optIn, putSettings, topUp, walletRow } from "./wallet-helpers";

async function expectCode(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = await json(res);
  expect(body.code).toBe(code);
  return body;
}

describe("PUT /v1/billing/wallet/settings: refusals", () => {
  it("409 svc.billing.wallet_version_conflict: stale version, 0 once opted in, a version before opting in", async () => {
    const t = await createTenant();
    await expectCode(await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1 }), 409, "svc.billing.wallet_version_conflict");
    expect(await walletRow(t.tenantId)).toBeNull();
    await optIn(t.key);
    await expectCode(await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 0 }), 409, "svc.billing.wallet_version_conflict");
    await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1 });
    const stale = await expectCode(
      await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1, enabled: false }),
      409,
      "svc.billing.wallet_version_conflict",
    );
    expect(stale.retryable).toBe(false);
    expect((await walletRow(t.tenantId))?.enabled).toBe(1);
  });

  it("409 svc.billing.wallet_opt_out_refused while work is reserved or the balance is negative", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const held = await hold(t.tenantId, { media_family: "image", operation: "sign" });
    await expectCode(
      await putSettings(t.key, { auto_recharge: NO_AUTO, enabled: false, expected_version: 1 }),
      409,
      "svc.billing.wallet_opt_out_refused",
    );
    await testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'released', ended_at = ? WHERE job_id = ?")
      .bind(Date.now(), held.jobId)
      .run();
    // A dispute debit larger than the balance leaves it negative.
    await testEnv.DB.prepare(
      "INSERT INTO wallet_transactions (id, tenant_id, kind, amount_micros, provider_event_id, created_at) VALUES ('wtx_dispute', ?, 'dispute', -20000000, NULL, ?)",
    )
      .bind(t.tenantId, Date.now())
      .run();
    await expectCode(
      await putSettings(t.key, { auto_recharge: NO_AUTO, enabled: false, expected_version: 1 }),
      409,
      "svc.billing.wallet_opt_out_refused",
    );
    const row = await walletRow(t.tenantId);
    expect(row).toMatchObject({ enabled: 1, version: 1, balance_micros: -10_000_000 });
    // Other changes stay possible while enabled.
    expect((await putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "5.00" })).status).toBe(200);
  });

  it("403 svc.billing.console_session_required: an API key turning auto-recharge on (at opt-in or later), or changing it while on", async () => {
    const t = await createTenant();
    const on = { enabled: true, threshold_usd: "20.00", amount_usd: "50.00" };
    await expectCode(await putSettings(t.key, { auto_recharge: on, expected_version: 0 }), 403, "svc.billing.console_session_required");
    expect(await walletRow(t.tenantId)).toBeNull();
    await optIn(t.key);
    await expectCode(await putSettings(t.key, { auto_recharge: on, expected_version: 1 }), 403, "svc.billing.console_session_required");
    await testEnv.DB.prepare(
      "UPDATE wallets SET auto_recharge_enabled = 1, auto_recharge_threshold_micros = 20000000, auto_recharge_amount_micros = 50000000 WHERE tenant_id = ?",
    )
      .bind(t.tenantId)
      .run();
    await expectCode(
      await putSettings(t.key, { auto_recharge: { ...on, amount_usd: "60.00" }, expected_version: 1 }),
      403,
      "svc.billing.console_session_required",
    );
    await expectCode(
      await putSettings(t.key, { auto_recharge: { ...on, threshold_usd: "0.00" }, expected_version: 1 }),
      403,
      "svc.billing.console_session_required",
    );
    expect((await walletRow(t.tenantId))?.version).toBe(1);
  });

  it("422 for amounts outside their bounds or finer than cents, and for unknown members", async () => {
    const t = await createTenant();
    await optIn(t.key);
    const bad: Record<string, unknown>[] = [
      { auto_recharge: { enabled: true, threshold_usd: "20.00", amount_usd: "9.99" }, expected_version: 1 },
      { auto_recharge: { enabled: true, threshold_usd: "20.00", amount_usd: "10000.01" }, expected_version: 1 },
      { auto_recharge: { enabled: true, threshold_usd: "20.00", amount_usd: "10.001" }, expected_version: 1 },
      { auto_recharge: { enabled: true, threshold_usd: null, amount_usd: "50.00" }, expected_version: 1 },
      { auto_recharge: { enabled: true, threshold_usd: "10000.01", amount_usd: "50.00" }, expected_version: 1 },
      { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "-1.00" },
      { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "1000000.01" },
      { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "1e3" },
      { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: 5 },
      { auto_recharge: NO_AUTO, expected_version: -1 },
      { auto_recharge: NO_AUTO, expected_version: 1.5 },
      { auto_recharge: NO_AUTO },
      { expected_version: 1 },
      { auto_recharge: NO_AUTO, expected_version: 1, balance_usd: "1000.00" },
    ];
    for (const body of bad) {
      const res = await putSettings(t.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
    expect(await walletRow(t.tenantId)).toMatchObject({ version: 1, balance_micros: 0, monthly_spend_limit_micros: null });
  });

  it("a settled charge cannot be undone or changed (the triggers refuse), so the wallet read stays consistent", async () => {
    const t = await createTenant();
    await optIn(t.key);
    await topUp(t.tenantId, 10_000_000);
    const c = await charge(t.tenantId, { media_family: "text", operation: "sign" });
    await expect(
      testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'released' WHERE job_id = ?").bind(c.jobId).run(),
    ).rejects.toThrow(/svc_wallet_reservation_final/);
  });
});
