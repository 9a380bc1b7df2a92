import { describe, expect, it } from "vitest";
import { SimulationPayments } from "../../../src/billing/payments/simulation";
import { StripePayments } from "../../../src/billing/payments/stripe";
import type { CheckoutRequest, PaymentsProvider } from "../../../src/billing/payments/types";
import { newId } from "../../../src/platform/ids";
import { STRIPE_BASE, type StandInBehaviour, stripeStandIn } from "./payments-helpers";

/*
 * One conformance suite for every PaymentsProvider (issue #17): the simulation, and the Stripe adapter against a
 * local stand-in of the Stripe API. What the service relies on holds for both; failures map to rejected/unreachable.
 */

function stripeAdapter(behaviour: () => StandInBehaviour = () => "ok") {
  const standIn = stripeStandIn(behaviour);
  const adapter = new StripePayments({
    mode: "sandbox",
    secretKey: "sk_test_conformance",
    apiBase: new URL(STRIPE_BASE),
    fetch: standIn.handler,
  });
  return { adapter, standIn };
}

const ADAPTERS: [string, () => PaymentsProvider][] = [
  ["simulation", () => new SimulationPayments("http://svc.test")],
  ["stripe (stand-in)", () => stripeAdapter().adapter],
];

const topUp = (over: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  intentId: newId("billingIntent"),
  tenantId: newId("tenant"),
  purpose: "wallet_top_up",
  plan: null,
  amountCents: 2500,
  successUrl: "https://console.example.com/ok",
  cancelUrl: "https://console.example.com/cancel",
  customerId: null,
  ...over,
});

describe.each(ADAPTERS)("PaymentsProvider conformance: %s", (_name, make) => {
  it("a top-up checkout answers a distinct session with an http(s) url that expires in the future", async () => {
    const provider = make();
    const a = await provider.createCheckout(topUp());
    const b = await provider.createCheckout(topUp());
    expect(a.status).toBe("ok");
    expect(b.status).toBe("ok");
    if (a.status !== "ok" || b.status !== "ok") return;
    expect(a.value.url).toMatch(/^https?:\/\//);
    expect(a.value.sessionId).toBeTruthy();
    expect(a.value.sessionId).not.toBe(b.value.sessionId);
    expect(a.value.expiresAt).toBeGreaterThan(Date.now());
  });

  it("a subscription checkout for a priced plan answers a url; the account's customer is kept", async () => {
    const provider = make();
    const result = await provider.createCheckout(
      topUp({ purpose: "subscription", amountCents: null, plan: { id: "studio", priceId: "price_studio" }, customerId: "cus_existing" }),
    );
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.value.url).toMatch(/^https?:\/\//);
    expect(result.value.customerId).toBe("cus_existing");
  });

  it("a portal intent answers (a url, or null when there is nothing to manage) and never throws", async () => {
    const provider = make();
    const result = await provider.createPortal({
      intentId: newId("billingIntent"),
      tenantId: newId("tenant"),
      returnUrl: "https://console.example.com/",
      customerId: null,
    });
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    if (result.value.url !== null) expect(result.value.url).toMatch(/^https:\/\//);
    expect(result.value.expiresAt).toBeGreaterThan(Date.now());
  });

  it("declares its mode", () => {
    expect(["simulation", "sandbox", "provider"]).toContain(make().mode);
  });
});

describe("Stripe adapter against the stand-in", () => {
  it("creates a customer once, then a session carrying the intent id (reference, metadata, PaymentIntent metadata)", async () => {
    const { adapter, standIn } = stripeAdapter();
    const request = topUp();
    const result = await adapter.createCheckout(request);
    expect(result.status).toBe("ok");
    expect(standIn.calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/checkout/sessions"]);
    const session = standIn.calls[1]!;
    expect(session.authorization).toBe("Bearer sk_test_conformance");
    expect(session.idempotencyKey).toBe(`svc-checkout-${request.intentId}`);
    expect(session.form.get("mode")).toBe("payment");
    expect(session.form.get("client_reference_id")).toBe(request.intentId);
    expect(session.form.get("metadata[svc_intent_id]")).toBe(request.intentId);
    expect(session.form.get("payment_intent_data[metadata][svc_intent_id]")).toBe(request.intentId);
    expect(session.form.get("line_items[0][price_data][unit_amount]")).toBe("2500");
    expect(session.form.get("line_items[0][price_data][currency]")).toBe("usd");
    if (result.status === "ok") expect(result.value.customerId).toBe("cus_standin1");
  });

  it("a subscription names the configured price", async () => {
    const { adapter, standIn } = stripeAdapter();
    await adapter.createCheckout(
      topUp({ purpose: "subscription", amountCents: null, plan: { id: "studio", priceId: "price_x" }, customerId: "cus_1" }),
    );
    expect(standIn.calls.map((c) => c.path)).toEqual(["/v1/checkout/sessions"]);
    expect(standIn.calls[0]!.form.get("mode")).toBe("subscription");
    expect(standIn.calls[0]!.form.get("line_items[0][price]")).toBe("price_x");
  });

  it.each([
    ["unauthorized", "rejected"],
    ["malformed", "rejected"],
    ["network", "unreachable"],
    ["server_error", "unreachable"],
  ] as const)("a stand-in answering %s maps to %s (never a throw)", async (behaviour, expected) => {
    const { adapter } = stripeAdapter(() => behaviour);
    expect((await adapter.createCheckout(topUp())).status).toBe(expected);
    expect(
      (
        await adapter.createPortal({
          intentId: newId("billingIntent"),
          tenantId: "t",
          returnUrl: "https://c.example/",
          customerId: "cus_1",
        })
      ).status,
    ).toBe(expected);
  });
});
