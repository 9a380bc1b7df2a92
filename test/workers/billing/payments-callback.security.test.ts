import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { enableWallet, eventBody, pagePayload, sendCallback, topUpIntent, walletBalance } from "./payments-helpers";

describe("#17 POST /webhooks/payments (security)", () => {
  it("the signature covers the exact raw bytes: a re-serialised or altered body is refused", async () => {
    const { t, intent } = await topUpIntent("10.00");
    const page = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    const pretty = JSON.stringify(JSON.parse(page.body), null, 2);
    expect((await sendCallback(pretty, { header: page.header })).status).toBe(400);
    const inflated = page.body.replace('"amount_total":1000', '"amount_total":100000');
    expect((await sendCallback(inflated, { header: page.header })).status).toBe(400);
    expect(await walletBalance(t.tenantId)).toBe(0);
  });

  it("needs no API key: the signature is the credential, and a bad one is refused", async () => {
    const res = await sendCallback("{}", { header: "t=1,v1=00" });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe("svc.billing.signature_invalid");
  });

  it("the tenant comes from the intent: svc_tenant_id alone moves nothing", async () => {
    const victim = await createTenant();
    await enableWallet(victim.tenantId);
    const forged = eventBody("checkout.session.completed", {
      id: "cs_forged",
      mode: "payment",
      amount_total: 100000,
      currency: "usd",
      metadata: { svc_tenant_id: victim.tenantId },
    });
    expect(await json(await sendCallback(forged))).toMatchObject({ state: "ignored" });
    expect(await walletBalance(victim.tenantId)).toBe(0);
  });
});
