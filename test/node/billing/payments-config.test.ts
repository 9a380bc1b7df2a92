import { describe, expect, it } from "vitest";
import { DEV_SIMULATION_SECRET, paymentsConfig } from "../../../src/billing/payments/config";
import { parsePaymentEvent } from "../../../src/billing/payments/events";
import { signatureHeader, verifySignature } from "../../../src/billing/payments/signature";

const DEV = { SVC_ENVIRONMENT: "development" } as const;
const PROD = { SVC_ENVIRONMENT: "production" } as const;

describe("#17 payments configuration", () => {
  it("defaults to simulation in development and to none elsewhere; simulation is never composed in production", () => {
    expect(paymentsConfig(DEV)).toMatchObject({ mode: "simulation", webhookSecrets: [DEV_SIMULATION_SECRET] });
    expect(paymentsConfig({ ...DEV, SVC_PAYMENTS_SIMULATION_SECRET: "s3" }).webhookSecrets).toEqual(["s3"]);
    expect(paymentsConfig(PROD)).toMatchObject({ mode: null, webhookSecrets: [] });
    expect(paymentsConfig({ ...PROD, SVC_PAYMENTS_MODE: "simulation" })).toMatchObject({
      mode: null,
      problem: "simulation is development only",
    });
  });

  it("sandbox needs a test key, provider a live key and no stand-in; secrets and origins are lists", () => {
    const sandbox = paymentsConfig({
      ...PROD,
      SVC_PAYMENTS_MODE: "sandbox",
      SVC_STRIPE_SECRET_KEY: "sk_test_abc",
      SVC_STRIPE_WEBHOOK_SECRETS: " whsec_a , whsec_b ",
      SVC_CONSOLE_ORIGINS: "https://console.example.com/path, nonsense, ftp://x.example",
      SVC_STRIPE_PLAN_PRICES: "studio=price_1,broken, x=",
    });
    expect(sandbox).toMatchObject({
      mode: "sandbox",
      webhookSecrets: ["whsec_a", "whsec_b"],
      consoleOrigins: ["https://console.example.com"],
    });
    expect(sandbox.stripe?.planPrices).toEqual({ studio: "price_1" });
    expect(paymentsConfig({ ...PROD, SVC_PAYMENTS_MODE: "sandbox", SVC_STRIPE_SECRET_KEY: "sk_live_abc" }).mode).toBeNull();
    expect(paymentsConfig({ ...PROD, SVC_PAYMENTS_MODE: "provider", SVC_STRIPE_SECRET_KEY: "sk_test_abc" }).mode).toBeNull();
    expect(paymentsConfig({ ...PROD, SVC_PAYMENTS_MODE: "provider", SVC_STRIPE_SECRET_KEY: "rk_live_abc" }).mode).toBe("provider");
    expect(
      paymentsConfig({
        ...PROD,
        SVC_PAYMENTS_MODE: "provider",
        SVC_STRIPE_SECRET_KEY: "sk_live_abc",
        SVC_STRIPE_API_BASE: "http://stripe.test",
      }).mode,
    ).toBeNull();
  });
});

describe("#17 callback signature and events", () => {
  it("verifies t.body HMACs within 300 s, with any secret and any v1", async () => {
    const body = '{"id":"evt_1"}';
    const t = 1_764_064_800;
    const header = await signatureHeader(body, "k2", t);
    expect(await verifySignature(header, body, ["k1", "k2"], t * 1000)).toBe("valid");
    expect(await verifySignature(header, body, ["k1"], t * 1000)).toBe("invalid");
    expect(await verifySignature(header, `${body} `, ["k2"], t * 1000)).toBe("invalid");
    expect(await verifySignature(header, body, ["k2"], (t + 301) * 1000)).toBe("stale");
    expect(await verifySignature(`t=${t},v1=${"0".repeat(64)},${header.split(",")[1]}`, body, ["k2"], t * 1000)).toBe("valid");
  });

  it("reads a refund as the charge's cumulative amount_refunded, in µUSD (the debit is its increase, computed at write time)", () => {
    const event = parsePaymentEvent(
      JSON.stringify({
        id: "evt_r",
        type: "charge.refunded",
        data: {
          object: { amount_refunded: 1500, metadata: { svc_intent_id: "bin_abcdefghij234567" } },
          previous_attributes: { amount_refunded: 1000 },
        },
      }),
    );
    expect(event).toEqual({
      kind: "debit",
      eventId: "evt_r",
      type: "charge.refunded",
      reason: "refund",
      intentId: "bin_abcdefghij234567",
      tenantRef: null,
      amount: 15_000_000,
      chargeId: null,
    });
    expect(parsePaymentEvent(JSON.stringify({ id: "e", type: "charge.refunded", data: { object: { amount_refunded: -1 } } }))).toBeNull();
    expect(parsePaymentEvent(JSON.stringify({ id: "e", type: "x.y", data: { object: {} } }))).toEqual({
      kind: "other",
      eventId: "e",
      type: "x.y",
    });
  });
});
