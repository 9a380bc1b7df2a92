import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../../../src/db/client";
import { billingIntents } from "../../../src/db/schema";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { apiWith, CONSOLE, enableWallet, installStandIn, SANDBOX, stripeStandIn } from "./payments-helpers";

const LOCAL = "http://svc.test";
afterEach(() => vi.restoreAllMocks());

const intentCount = async (tenantId: string) =>
  (
    await database(testEnv.DB)
      .select()
      .from(billingIntents)
      .where(and(eq(billingIntents.tenantId, tenantId)))
      .all()
  ).length;

const topUp = (amount = "25.00", origin = LOCAL) => ({
  purpose: "wallet_top_up",
  amount_usd: amount,
  success_url: `${origin}/ok`,
  cancel_url: `${origin}/no`,
});

describe("#17 checkout and portal intents (errors)", () => {
  it("422 redirect_url_not_allowed for a URL off the console origins (and nothing is created)", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    for (const bad of ["https://evil.example/ok", "javascript:alert(1)", "not a url", "https://user:pw@console.example.com/"]) {
      const res = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { ...topUp("25.00", CONSOLE), cancel_url: bad },
      });
      expect(res.status).toBe(422);
      expect((await json(res)).code).toBe("redirect_url_not_allowed");
    }
    const portal = await api("/v1/billing/portal-intents", {
      method: "POST",
      key: t.key,
      body: { return_url: "https://elsewhere.example/" },
    });
    expect(portal.status).toBe(422);
    expect((await json(portal)).code).toBe("redirect_url_not_allowed");
    expect(await intentCount(t.tenantId)).toBe(0);
  });

  it("422 for amounts outside whole cents 10.00–10000.00, an amount on a subscription, or an unknown plan", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    for (const amount of ["9.99", "10000.01", "10.001", "-10.00", "1e3", "abc"]) {
      const res = await api("/v1/billing/checkout-intents", { method: "POST", key: t.key, body: topUp(amount) });
      expect(res.status, amount).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
    const missing = await api("/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { purpose: "wallet_top_up", success_url: `${LOCAL}/a`, cancel_url: `${LOCAL}/b` },
    });
    expect(missing.status).toBe(422);
    const onSubscription = await api("/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { amount_usd: "20.00", success_url: `${LOCAL}/a`, cancel_url: `${LOCAL}/b` },
    });
    expect(onSubscription.status).toBe(422);
    const unknown = await api("/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { plan: "gold", success_url: `${LOCAL}/a`, cancel_url: `${LOCAL}/b` },
    });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).code).toBe("svc.billing.plan_unknown");
  });

  it("409 svc.billing.wallet_not_enabled for a top-up without an opted-in, enabled wallet", async () => {
    const t = await createTenant();
    const res = await api("/v1/billing/checkout-intents", { method: "POST", key: t.key, body: topUp() });
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.billing.wallet_not_enabled");
    const u = await createTenant();
    await enableWallet(u.tenantId, 0, false);
    expect((await api("/v1/billing/checkout-intents", { method: "POST", key: u.key, body: topUp() })).status).toBe(409);
  });

  it("sandbox: 422 without a plan, 503 svc.billing.plan_not_priced for a plan without a price", async () => {
    const t = await createTenant();
    installStandIn(stripeStandIn());
    const none = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { success_url: `${CONSOLE}/a`, cancel_url: `${CONSOLE}/b` },
    });
    expect(none.status).toBe(422);
    expect((await json(none)).code).toBe("svc.billing.plan_required");
    const payg = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { plan: "payg", success_url: `${CONSOLE}/a`, cancel_url: `${CONSOLE}/b` },
    });
    expect(payg.status).toBe(503);
    expect((await json(payg)).code).toBe("svc.billing.plan_not_priced");
  });

  it("503 svc.billing.provider_unavailable when no provider is composed (unknown mode, missing key, live key in sandbox, stand-in with live money)", async () => {
    const t = await createTenant();
    for (const overrides of [
      { SVC_PAYMENTS_MODE: "stripe" },
      { ...SANDBOX, SVC_STRIPE_SECRET_KEY: undefined },
      { ...SANDBOX, SVC_STRIPE_SECRET_KEY: "sk_live_abc" },
      { ...SANDBOX, SVC_PAYMENTS_MODE: "provider", SVC_STRIPE_SECRET_KEY: "sk_live_abc" },
    ]) {
      const res = await apiWith(overrides, "/v1/billing/portal-intents", {
        method: "POST",
        key: t.key,
        body: { return_url: `${CONSOLE}/` },
      });
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ code: "svc.billing.provider_unavailable", retryable: true });
    }
  });

  it("502 when the provider rejects the credentials or answers unusably; 503 when unreachable", async () => {
    const t = await createTenant();
    for (const [behaviour, status, code] of [
      ["unauthorized", 502, "svc.billing.provider_error"],
      ["malformed", 502, "svc.billing.provider_error"],
      ["network", 503, "svc.billing.provider_unavailable"],
    ] as const) {
      vi.restoreAllMocks();
      installStandIn(stripeStandIn(() => behaviour));
      const res = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { plan: "studio", success_url: `${CONSOLE}/a`, cancel_url: `${CONSOLE}/b` },
      });
      expect(res.status, behaviour).toBe(status);
      const body = await json(res);
      expect(body.code).toBe(code);
      expect(JSON.stringify(body)).not.toContain("sk_test_");
    }
  });

  it("429 BILLING_INTENT_RATE_LIMITED past 10 a minute (checkout and portal together); the refused request creates nothing", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res =
        i % 2 === 0
          ? await api("/v1/billing/checkout-intents", { method: "POST", key: t.key, body: topUp() })
          : await api("/v1/billing/portal-intents", { method: "POST", key: t.key, body: { return_url: `${LOCAL}/b` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(10).fill(201));
    const refused = await api("/v1/billing/checkout-intents", { method: "POST", key: t.key, body: topUp() });
    expect(refused.status).toBe(429);
    expect((await json(refused)).code).toBe("BILLING_INTENT_RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await intentCount(t.tenantId)).toBe(10);
    // Another account is not affected.
    const u = await createTenant();
    expect((await api("/v1/billing/portal-intents", { method: "POST", key: u.key, body: { return_url: `${LOCAL}/b` } })).status).toBe(201);
  });

  it("concurrent requests never pass the limit", async () => {
    const t = await createTenant();
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        api("/v1/billing/portal-intents", { method: "POST", key: t.key, body: { return_url: `${LOCAL}/b` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(await intentCount(t.tenantId)).toBe(10);
  });
});
