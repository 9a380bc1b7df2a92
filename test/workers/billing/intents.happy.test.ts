import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../../../src/db/client";
import { billingAccounts, billingIntents } from "../../../src/db/schema";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { apiWith, CONSOLE, enableWallet, installStandIn, SANDBOX, stripeStandIn } from "./payments-helpers";

const db = () => database(testEnv.DB);
const LOCAL = "http://svc.test";

afterEach(() => vi.restoreAllMocks());

describe("#17 checkout and portal intents (happy)", () => {
  it("simulation: a top-up intent answers 201 with the local checkout page and stores what was asked", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    const res = await api("/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { purpose: "wallet_top_up", amount_usd: "25.00", success_url: `${LOCAL}/ok`, cancel_url: `${LOCAL}/cancel` },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.stringMatching(/^bin_[a-z2-7]{16}$/),
      mode: "simulation",
      url: `${LOCAL}/dev/payments/checkout/${body.id}`,
      actionable: true,
      expires_at: expect.any(String),
    });
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
    const row = await db().select().from(billingIntents).where(eq(billingIntents.id, body.id)).get();
    expect(row).toMatchObject({
      tenantId: t.tenantId,
      kind: "checkout",
      purpose: "wallet_top_up",
      amountMicros: 25_000_000,
      status: "open",
      mode: "simulation",
    });
    // The page the url names is served (development only) and carries a signed event, never the secret.
    const page = await api(`/dev/payments/checkout/${body.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("USD 25.00");
    expect(html).not.toContain("whsec_svc_development_simulation_only");
  });

  it("simulation: a subscription without a plan is inert (url null), with a plan actionable; a portal has url null", async () => {
    const t = await createTenant();
    const inert = await json(
      await api("/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { success_url: `${LOCAL}/ok`, cancel_url: `${LOCAL}/c` },
      }),
    );
    expect(inert).toMatchObject({ mode: "simulation", url: null, actionable: false });
    const studio = await json(
      await api("/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { purpose: "subscription", plan: "studio", success_url: `${LOCAL}/ok`, cancel_url: `${LOCAL}/c` },
      }),
    );
    expect(studio).toMatchObject({ mode: "simulation", actionable: true });
    const portal = await api("/v1/billing/portal-intents", { method: "POST", key: t.key, body: { return_url: `${LOCAL}/billing` } });
    expect(portal.status).toBe(201);
    expect(await json(portal)).toMatchObject({ mode: "simulation", url: null, actionable: false });
  });

  it("sandbox: a subscription checkout goes to Stripe (stand-in) with the plan's price; the customer is saved on the account", async () => {
    const t = await createTenant();
    const standIn = stripeStandIn();
    installStandIn(standIn);
    const res = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { plan: "studio", success_url: `${CONSOLE}/billing/done`, cancel_url: `${CONSOLE}/billing` },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toMatchObject({ mode: "sandbox", actionable: true, url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
    expect(standIn.calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/checkout/sessions"]);
    expect(standIn.calls[1]!.form.get("line_items[0][price]")).toBe("price_studio_monthly");
    expect(standIn.calls[1]!.form.get("client_reference_id")).toBe(body.id);
    const account = await db().select().from(billingAccounts).where(eq(billingAccounts.tenantId, t.tenantId)).get();
    expect(account?.providerCustomerId).toBe("cus_standin1");
    // The second intent reuses the customer: no second customer is created.
    const portal = await apiWith(SANDBOX, "/v1/billing/portal-intents", {
      method: "POST",
      key: t.key,
      body: { return_url: "https://admin.example.com/x" },
    });
    expect(portal.status).toBe(201);
    expect(await json(portal)).toMatchObject({
      mode: "sandbox",
      url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\//),
      actionable: true,
    });
    expect(standIn.calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/checkout/sessions", "/v1/billing_portal/sessions"]);
    expect(standIn.calls[2]!.form.get("customer")).toBe("cus_standin1");
  });

  it("sandbox: a top-up checkout is a payment session for the exact cents", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    const standIn = stripeStandIn();
    installStandIn(standIn);
    const res = await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
      method: "POST",
      key: t.key,
      body: { purpose: "wallet_top_up", amount_usd: "10000.00", success_url: `${CONSOLE}/ok`, cancel_url: `${CONSOLE}/no` },
    });
    expect(res.status).toBe(201);
    const session = standIn.calls.find((c) => c.path === "/v1/checkout/sessions")!;
    expect(session.form.get("mode")).toBe("payment");
    expect(session.form.get("line_items[0][price_data][unit_amount]")).toBe("1000000");
  });
});
