import { describe, expect, it } from "vitest";
import { api, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";
import { eventBody, pagePayload, sendCallback } from "./payments-helpers";

/*
 * Issue #17 end to end, through the public API and the simulation adapter only: opt in → quote a sign → top up
 * through the simulated checkout and the same callback path a provider uses → the sign is admitted and charged
 * exactly its quote → a refund drains the wallet → the next sign answers 402. No row is written by hand.
 */

const LOCAL = "http://svc.test";

describe("#17 billing end to end (simulation)", () => {
  it("quote, top up, sign (charge = quote), drained by a refund, then 402", async () => {
    const t = await createTenant();
    const put = await api("/v1/billing/wallet/settings", {
      method: "PUT",
      key: t.key,
      body: { expected_version: 0, enabled: true, auto_recharge: { enabled: false } },
    });
    expect(put.status, await put.clone().text()).toBe(200);

    // Nothing is admitted before the top-up: a metered tenant with an empty wallet.
    const { assetId } = await uploadAsset(t.key, fixture("sample-1mp.jpg"), "image/jpeg");
    const sign = () =>
      api("/v1/sign", {
        method: "POST",
        key: t.key,
        body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
        headers: { "idempotency-key": crypto.randomUUID() },
      });
    expect((await sign()).status).toBe(402);

    const asset = await json(await api(`/v1/assets/${assetId}`, { key: t.key }));
    const inspection = asset.media_inspection ?? asset.inspection ?? null;
    const quote = await json(
      await api("/v1/billing/quotes", {
        method: "POST",
        key: t.key,
        body: {
          media_family: "image",
          operation: "sign",
          width: inspection?.width ?? 1000,
          height: inspection?.height ?? 1000,
          duration_seconds: null,
          frames_per_second: null,
        },
      }),
    );
    expect(quote).toMatchObject({ currency: "USD", estimate_only: true, final_facts_source: "server_validated_media_inspection" });

    const intent = await json(
      await api("/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { purpose: "wallet_top_up", amount_usd: "10.00", success_url: `${LOCAL}/ok`, cancel_url: `${LOCAL}/no` },
      }),
    );
    expect(intent).toMatchObject({ mode: "simulation", actionable: true });
    const page = pagePayload(await (await api(new URL(intent.url).pathname)).text());
    const credited = await sendCallback(page.body, { header: page.header });
    expect(await json(credited)).toMatchObject({ state: "applied", duplicate: false });
    expect((await json(await api("/v1/billing/wallet", { key: t.key }))).balance_usd).toBe("10.00");

    const admitted = await sign();
    expect(admitted.status).toBe(202);
    const job = await waitForJob(t.key, (await json(admitted)).job_id);
    expect(job.state).toBe("completed");
    const charges = await json(await api("/v1/billing/charges", { key: t.key }));
    expect(charges.items).toHaveLength(1);
    expect(charges.items[0]).toMatchObject({ job_id: job.job_id, amount_usd: quote.total_usd });
    const wallet = await json(await api("/v1/billing/wallet", { key: t.key }));
    expect(wallet).toMatchObject({ reserved_usd: "0.00", month_to_date_spend_usd: quote.total_usd });
    const usage = await json(await api("/v1/usage", { key: t.key }));
    expect(usage.total_usd).toBe(quote.total_usd);

    // The top-up is refunded in full: the wallet is drained (below zero by the charge), and new work is refused.
    const charge = { id: "ch_sim_flow", object: "charge", currency: "usd", metadata: { svc_intent_id: intent.id } };
    const refund = await sendCallback(
      eventBody(
        "charge.refunded",
        { ...charge, amount_refunded: 1000 },
        { data: { object: { ...charge, amount_refunded: 1000 }, previous_attributes: { amount_refunded: 0 } } },
      ),
    );
    expect(await json(refund)).toMatchObject({ state: "applied" });
    const { assetId: next } = await uploadAsset(t.key, fixture("sample-1mp.jpg"), "image/jpeg");
    const refused = await api("/v1/sign", {
      method: "POST",
      key: t.key,
      body: { asset_id: next, recipe_id: "rcp_system_sign_only" },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(refused.status).toBe(402);
    expect((await json(refused)).code).toBe("svc.billing.insufficient_funds");
  });
});
