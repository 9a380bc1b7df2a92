import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { charge, NO_AUTO, optIn, putSettings, topUp, walletRow } from "./wallet-helpers";

describe("wallet: tenant isolation and concurrency", () => {
  it("tenant B never sees A's wallet or movements, and B's settings never touch A's wallet", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await optIn(a.key, { monthly_spend_limit_usd: "99.00" });
    await topUp(a.tenantId, 50_000_000);
    await charge(a.tenantId, { media_family: "image", operation: "sign" });
    const seenByB = await json(await api("/v1/billing/wallet", { key: b.key }));
    expect(seenByB).toMatchObject({ enabled: false, version: 0, balance_usd: "0.00", transactions: [], monthly_spend_limit_usd: null });
    // B opting in with A's version number creates B's own wallet; A's is untouched.
    const bv = await putSettings(b.key, { auto_recharge: NO_AUTO, expected_version: 0, enabled: true });
    expect(bv.status).toBe(200);
    expect(await json(bv)).toMatchObject({ balance_usd: "0.00", transactions: [], version: 1 });
    expect((await putSettings(b.key, { auto_recharge: NO_AUTO, expected_version: 1, enabled: false })).status).toBe(200);
    expect(await walletRow(a.tenantId)).toMatchObject({
      enabled: 1,
      version: 1,
      balance_micros: 49_998_000,
      monthly_spend_limit_micros: 99_000_000,
    });
  });

  it("two PUTs with the same expected_version at once: exactly one 200, the other 409", async () => {
    const t = await createTenant();
    await optIn(t.key);
    const results = await Promise.all([
      putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "10.00" }),
      putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 1, monthly_spend_limit_usd: "20.00" }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect((await json(loser)).code).toBe("svc.billing.wallet_version_conflict");
    const winner = await json(results.find((r) => r.status === 200)!);
    expect(await walletRow(t.tenantId)).toMatchObject({
      version: 2,
      monthly_spend_limit_micros: winner.monthly_spend_limit_usd === "10.00" ? 10_000_000 : 20_000_000,
    });
  });

  it("ten concurrent opt-ins: exactly one creates the wallet", async () => {
    const t = await createTenant();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => putSettings(t.key, { auto_recharge: NO_AUTO, expected_version: 0 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await walletRow(t.tenantId))?.version).toBe(1);
  });
});
