import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { apiWith } from "./payments-helpers";

const LOCAL = "http://svc.test";

describe("#17 checkout and portal intents (security)", () => {
  it("401 without a credential; 403 without billing:write", async () => {
    for (const path of ["/v1/billing/checkout-intents", "/v1/billing/portal-intents"]) {
      expect((await api(path, { method: "POST", body: { return_url: `${LOCAL}/` } })).status).toBe(401);
      const reader = await createTenant({ scopes: ["billing:read"] });
      const res = await api(path, {
        method: "POST",
        key: reader.key,
        body: { return_url: `${LOCAL}/`, success_url: `${LOCAL}/`, cancel_url: `${LOCAL}/` },
      });
      expect(res.status).toBe(403);
    }
  });

  it("the simulated checkout page is development only, and only for simulated checkout intents", async () => {
    const t = await createTenant();
    const intent = await json(
      await api("/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { plan: "studio", success_url: `${LOCAL}/a`, cancel_url: `${LOCAL}/b` },
      }),
    );
    expect((await api(`/dev/payments/checkout/${intent.id}`)).status).toBe(200);
    // Not in simulation mode → absent.
    expect((await apiWith({ SVC_PAYMENTS_MODE: "sandbox" }, `/dev/payments/checkout/${intent.id}`)).status).toBe(404);
    // A portal intent, an unknown id, a malformed id → absent.
    const portal = await json(await api("/v1/billing/portal-intents", { method: "POST", key: t.key, body: { return_url: `${LOCAL}/` } }));
    expect((await api(`/dev/payments/checkout/${portal.id}`)).status).toBe(404);
    expect((await api("/dev/payments/checkout/bin_aaaaaaaaaaaaaaaa")).status).toBe(404);
    expect((await api("/dev/payments/checkout/../../x")).status).toBe(404);
  });
});
