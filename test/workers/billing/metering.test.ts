import { describe, expect, it } from "vitest";
import { PRICING } from "../../../src/billing/pricing";
import { api, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { seedWallet, walletOf } from "./wallet-fixture";

/*
 * Issue #17: the wallet admits work. A metered tenant's sign reserves the job's quote with the job (one batch; the
 * database refuses a reservation the wallet cannot cover), publication settles it into a charge, any other end
 * releases it. A tenant that has not opted in is not metered.
 */

const SIGN_ONE_IMAGE = PRICING.rates.find((r) => r.media_family === "image" && r.operation === "sign" && r.unit === "file")!.unit_price;

const sign = (key: string, assetId: string, recipe = "rcp_system_sign_only") =>
  api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: recipe },
    headers: { "idempotency-key": crypto.randomUUID() },
  });

async function reservation(jobId: string) {
  return testEnv.DB.prepare("SELECT amount_micros, state, pricing_version, lines FROM wallet_reservations WHERE job_id = ?")
    .bind(jobId)
    .first<{ amount_micros: number; state: string; pricing_version: string; lines: string }>();
}

describe("metering sign admission (#17)", () => {
  it("an unmetered tenant signs as before: no reservation, the default plan's revision recorded", async () => {
    const t = await createTenant();
    const { assetId } = await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(t.key, assetId);
    expect(res.status).toBe(202);
    const job = await json(res);
    expect(job.active_plan_revision).toBe(1);
    expect(job.pricing_version).toBeNull();
    expect(await reservation(job.job_id)).toBeNull();
  });

  it("a metered sign reserves its quote; publication settles it into a charge, exactly", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 1_000_000);
    const { assetId } = await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(t.key, assetId);
    expect(res.status, await res.clone().text()).toBe(202);
    const job = await json(res);
    expect(job.pricing_version).toBe(PRICING.pricing_version);
    const held = await reservation(job.job_id);
    expect(held).toMatchObject({ amount_micros: SIGN_ONE_IMAGE, pricing_version: PRICING.pricing_version });
    expect((await waitForJob(t.key, job.job_id)).state).toBe("completed");
    expect((await reservation(job.job_id))!.state).toBe("settled");
    expect(await walletOf(t.tenantId)).toEqual({
      balance_micros: 1_000_000 - SIGN_ONE_IMAGE,
      reserved_micros: 0,
      month_spend_micros: SIGN_ONE_IMAGE,
    });
  });

  it("402 when the quote does not fit; nothing is created and the asset can still be signed later", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, SIGN_ONE_IMAGE - 1);
    const { assetId } = await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(t.key, assetId);
    expect(res.status).toBe(402);
    const body = await json(res);
    expect(body.code).toBe("svc.billing.insufficient_funds");
    expect(body.message).toContain("0.002");
    const jobs = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ?").bind(t.tenantId).first<{ n: number }>();
    expect(jobs!.n).toBe(0);
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: t.key }));
    expect(asset.status).toBe("uploaded");
  });

  it("402 past the monthly spend limit", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 1_000_000, { monthlyLimitMicros: SIGN_ONE_IMAGE - 1 });
    const { assetId } = await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(t.key, assetId);
    expect(res.status).toBe(402);
    expect((await json(res)).code).toBe("svc.billing.monthly_limit_reached");
  });

  it("50 parallel signs against a wallet that fits 10: exactly 10 admitted, the rest 402, never over-reserved", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 10 * SIGN_ONE_IMAGE);
    const assets: string[] = [];
    for (let i = 0; i < 50; i++) assets.push((await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg")).assetId);
    const responses = await Promise.all(assets.map((a) => sign(t.key, a)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    const wallet = (await walletOf(t.tenantId))!;
    expect(wallet.balance_micros).toBeGreaterThanOrEqual(0);
    expect(wallet.reserved_micros).toBeLessThanOrEqual(wallet.balance_micros);
    const held = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n, COALESCE(SUM(amount_micros), 0) AS total FROM wallet_reservations WHERE tenant_id = ?",
    )
      .bind(t.tenantId)
      .first<{ n: number; total: number }>();
    expect(held).toEqual({ n: 10, total: 10 * SIGN_ONE_IMAGE });
  });

  it("a cancelled job releases its quote; whichever way a job ends, settled exactly when it published", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 1_000_000);
    const { assetId } = await uploadAsset(t.key, fixture("sample.jpg"), "image/jpeg");
    const job = await json(await sign(t.key, assetId));
    await api(`/v1/jobs/${job.job_id}/cancel`, {
      method: "POST",
      key: t.key,
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const ended = await waitForJob(t.key, job.job_id);
    const r = (await reservation(job.job_id))!;
    expect(r.state).toBe(ended.state === "completed" ? "settled" : "released");
    const wallet = (await walletOf(t.tenantId))!;
    expect(wallet.reserved_micros).toBe(0);
    expect(wallet.balance_micros).toBe(ended.state === "completed" ? 1_000_000 - SIGN_ONE_IMAGE : 1_000_000);
  });

  it("the database itself refuses a reservation the wallet cannot cover, and a settled one cannot change", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 100);
    const insert = (jobId: string, amount: number) =>
      testEnv.DB.prepare(
        "INSERT INTO wallet_reservations (job_id, tenant_id, amount_micros, lines, pricing_version, state, created_at) VALUES (?, ?, ?, '[]', 'v', 'held', 0)",
      )
        .bind(jobId, t.tenantId, amount)
        .run();
    await expect(insert("job_a", 101)).rejects.toThrow(/svc_wallet_insufficient/);
    await insert("job_b", 100);
    await expect(insert("job_c", 1)).rejects.toThrow(/svc_wallet_insufficient/);
    await testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'settled', ended_at = ? WHERE job_id = 'job_b'")
      .bind(Date.now())
      .run();
    await expect(testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'released' WHERE job_id = 'job_b'").run()).rejects.toThrow(
      /svc_wallet_reservation_final/,
    );
    expect(await walletOf(t.tenantId)).toMatchObject({ balance_micros: 0, reserved_micros: 0 });
  });
});
