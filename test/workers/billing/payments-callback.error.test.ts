import { describe, expect, it } from "vitest";
import { signatureHeader } from "../../../src/billing/payments/signature";
import { api, createTenant, json } from "../support/helpers";
import { apiWith, enableWallet, eventBody, pagePayload, SANDBOX, SIM_SECRET, sendCallback, walletBalance } from "./payments-helpers";

const LOCAL = "http://svc.test";
const now = () => Math.floor(Date.now() / 1000);

async function expectCode(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect((await json(res)).code).toBe(code);
}

describe("#17 POST /webhooks/payments (errors)", () => {
  it("400 svc.billing.signature_invalid: stale or future t (over 300 s), wrong secret, missing or malformed header", async () => {
    const body = eventBody("invoice.paid", { id: "in_1" });
    await expectCode(await sendCallback(body, { t: now() - 301 }), 400, "svc.billing.signature_invalid");
    await expectCode(await sendCallback(body, { t: now() + 301 }), 400, "svc.billing.signature_invalid");
    expect((await sendCallback(body, { t: now() - 290 })).status).toBe(202);
    await expectCode(await sendCallback(eventBody("invoice.paid", {}), { secret: "whsec_wrong" }), 400, "svc.billing.signature_invalid");
    for (const header of [
      "",
      "t=abc,v1=00",
      `t=${now()}`,
      `v1=${"0".repeat(64)}`,
      `t=${now()},v1=${"A".repeat(64)}`,
      `t=${now()},v0=${"0".repeat(64)}`,
    ])
      await expectCode(await sendCallback(eventBody("invoice.paid", {}), { header }), 400, "svc.billing.signature_invalid");
    const missing = await apiWith({}, "/webhooks/payments", {
      method: "POST",
      rawBody: body,
      headers: { "content-type": "application/json" },
    });
    await expectCode(missing, 400, "svc.billing.signature_invalid");
  });

  it("400 svc.billing.event_invalid for a correctly signed body that is not an event", async () => {
    for (const body of [
      "not json",
      "[]",
      "{}",
      JSON.stringify({ id: "evt_1", type: "x" }),
      JSON.stringify({ id: "", type: "x", data: { object: {} } }),
    ])
      await expectCode(await sendCallback(body), 400, "svc.billing.event_invalid");
    const badAmount = eventBody("charge.refunded", { amount_refunded: 1.5, metadata: {} });
    await expectCode(await sendCallback(badAmount), 400, "svc.billing.event_invalid");
  });

  it("413 over 256 KiB, before any work", async () => {
    const body = JSON.stringify({ id: "evt_big", type: "invoice.paid", data: { object: { pad: "x".repeat(256 * 1024) } } });
    await expectCode(await sendCallback(body), 413, "svc.request.too_large");
  });

  it("503 svc.billing.verification_unavailable without a provider or a signing secret", async () => {
    const body = eventBody("invoice.paid", {});
    const header = await signatureHeader(body, SIM_SECRET, now());
    await expectCode(
      await sendCallback(body, { header, overrides: { ...SANDBOX, SVC_STRIPE_WEBHOOK_SECRETS: undefined } }),
      503,
      "svc.billing.verification_unavailable",
    );
    await expectCode(
      await sendCallback(body, { header, overrides: { SVC_PAYMENTS_MODE: "none" } }),
      503,
      "svc.billing.verification_unavailable",
    );
  });

  it("409 svc.billing.identity_conflict when the event's tenant, session or amount differ from its intent; nothing changes", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await enableWallet(a.tenantId);
    await enableWallet(b.tenantId);
    const intent = await json(
      await api("/v1/billing/checkout-intents", {
        method: "POST",
        key: a.key,
        body: { purpose: "wallet_top_up", amount_usd: "50.00", success_url: `${LOCAL}/ok`, cancel_url: `${LOCAL}/no` },
      }),
    );
    const genuine = JSON.parse(pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text()).body);
    const variant = (object: Record<string, unknown>) =>
      JSON.stringify({
        ...genuine,
        id: `${genuine.id}_v${Math.random().toString(36).slice(2)}`,
        data: { object: { ...genuine.data.object, ...object } },
      });
    for (const object of [
      { metadata: { svc_intent_id: intent.id, svc_tenant_id: b.tenantId } },
      { amount_total: 500000 },
      { id: "cs_someone_else" },
      { mode: "subscription" },
      { currency: "eur" },
    ])
      await expectCode(await sendCallback(variant(object)), 409, "svc.billing.identity_conflict");
    expect(await walletBalance(a.tenantId)).toBe(0);
    expect(await walletBalance(b.tenantId)).toBe(0);
    // The genuine event still applies afterwards (conflicts are not recorded).
    expect(await json(await sendCallback(JSON.stringify(genuine)))).toMatchObject({ state: "applied", duplicate: false });
    expect(await walletBalance(a.tenantId)).toBe(50_000_000);
  });
});
