import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../../../src/db/client";
import { billingAccounts, billingIntents, paymentEvents, walletTransactions } from "../../../src/db/schema";
import { api, createTenant, json, testEnv } from "../support/helpers";
import {
  apiWith,
  CONSOLE,
  enableWallet,
  eventBody,
  installStandIn,
  pagePayload,
  SANDBOX,
  SIM_SECRET,
  sendCallback,
  stripeStandIn,
  topUpIntent,
  WHSEC,
  walletBalance,
} from "./payments-helpers";

const db = () => database(testEnv.DB);
afterEach(() => vi.restoreAllMocks());

describe("#17 POST /webhooks/payments (happy)", () => {
  it("the simulated checkout page completes a top-up through the callback: credited exactly once, a replay is a duplicate", async () => {
    const { t, intent } = await topUpIntent("25.00");
    const page = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    const first = await sendCallback(page.body, { header: page.header });
    expect(first.status).toBe(202);
    expect(await json(first)).toEqual({ event_id: `evt_sim_${intent.id}`, state: "applied", duplicate: false });
    expect(await walletBalance(t.tenantId)).toBe(25_000_000);
    // The same event again (the provider retries), and the page used twice: one credit.
    const again = await sendCallback(page.body, { header: page.header });
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual({ event_id: `evt_sim_${intent.id}`, state: "applied", duplicate: true });
    const twice = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    expect(await json(await sendCallback(twice.body, { header: twice.header }))).toMatchObject({ duplicate: true });
    expect(await walletBalance(t.tenantId)).toBe(25_000_000);
    const txs = await db().select().from(walletTransactions).where(eq(walletTransactions.tenantId, t.tenantId)).all();
    expect(txs).toEqual([expect.objectContaining({ kind: "top_up", amountMicros: 25_000_000, providerEventId: `evt_sim_${intent.id}` })]);
    const row = await db().select().from(billingIntents).where(eq(billingIntents.id, intent.id)).get();
    expect(row?.status).toBe("completed");
  });

  it("the stripe package's own webhook helper verifies what the simulation signed, as a receiver would", async () => {
    const { intent } = await topUpIntent();
    const page = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    const stripe = new Stripe("sk_test_receiver", { httpClient: Stripe.createFetchHttpClient() });
    const event = await stripe.webhooks.constructEventAsync(page.body, page.header, SIM_SECRET, 300, Stripe.createSubtleCryptoProvider());
    expect(event.id).toBe(`evt_sim_${intent.id}`);
    expect(event.type).toBe("checkout.session.completed");
    await expect(
      stripe.webhooks.constructEventAsync(page.body, page.header, "whsec_other", 300, Stripe.createSubtleCryptoProvider()),
    ).rejects.toThrow();
  });

  it("sandbox: a header made by the stripe package's test helper is accepted; a completed subscription sets the plan and customer", async () => {
    const t = await createTenant();
    installStandIn(stripeStandIn());
    const intent = await json(
      await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { plan: "studio", success_url: `${CONSOLE}/ok`, cancel_url: `${CONSOLE}/no` },
      }),
    );
    const stored = await db().select().from(billingIntents).where(eq(billingIntents.id, intent.id)).get();
    const account = await db().select().from(billingAccounts).where(eq(billingAccounts.tenantId, t.tenantId)).get();
    const body = eventBody("checkout.session.completed", {
      id: stored!.providerSessionId,
      object: "checkout.session",
      mode: "subscription",
      client_reference_id: intent.id,
      customer: account!.providerCustomerId,
      amount_total: 4900,
      currency: "usd",
      payment_status: "paid",
      metadata: { svc_intent_id: intent.id, svc_tenant_id: t.tenantId },
    });
    const stripe = new Stripe("sk_test_sender", { httpClient: Stripe.createFetchHttpClient() });
    const header = await stripe.webhooks.generateTestHeaderStringAsync({
      payload: body,
      secret: WHSEC,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });
    const res = await sendCallback(body, { header, overrides: SANDBOX });
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ state: "applied", duplicate: false });
    const after = await db().select().from(billingAccounts).where(eq(billingAccounts.tenantId, t.tenantId)).get();
    expect(after).toMatchObject({ planId: "studio", planRevision: 1, providerCustomerId: account!.providerCustomerId });
  });

  it("refunds (cumulative amount_refunded, only the increase) and disputes debit the wallet", async () => {
    const { t, intent } = await topUpIntent("25.00");
    const page = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    await sendCallback(page.body, { header: page.header });
    const charge = { id: "ch_sim_1", object: "charge", currency: "usd", metadata: { svc_intent_id: intent.id } };
    const r1 = await sendCallback(
      eventBody(
        "charge.refunded",
        { ...charge, amount_refunded: 1000 },
        { data: { object: { ...charge, amount_refunded: 1000 }, previous_attributes: { amount_refunded: 0 } } },
      ),
    );
    expect(await json(r1)).toMatchObject({ state: "applied", duplicate: false });
    const r2 = await sendCallback(
      eventBody(
        "charge.refunded",
        {},
        { data: { object: { ...charge, amount_refunded: 1500 }, previous_attributes: { amount_refunded: 1000 } } },
      ),
    );
    expect(r2.status).toBe(202);
    const d = await sendCallback(
      eventBody("charge.dispute.created", {
        id: "dp_1",
        object: "dispute",
        amount: 500,
        charge: "ch_sim_1",
        metadata: { svc_intent_id: intent.id },
      }),
    );
    expect(await json(d)).toMatchObject({ state: "applied" });
    expect(await walletBalance(t.tenantId)).toBe(5_000_000);
    const kinds = (await db().select().from(walletTransactions).where(eq(walletTransactions.tenantId, t.tenantId)).all()).map((x) => [
      x.kind,
      x.amountMicros,
    ]);
    expect(kinds.sort()).toEqual(
      [
        ["dispute", -5_000_000],
        ["refund", -10_000_000],
        ["refund", -5_000_000],
        ["top_up", 25_000_000],
      ].sort(),
    );
  });

  it("other event types, and events naming no intent of ours, are recorded as ignored", async () => {
    const other = eventBody("invoice.paid", { id: "in_1", object: "invoice" });
    expect(await json(await sendCallback(other))).toMatchObject({ state: "ignored", duplicate: false });
    expect(await json(await sendCallback(other))).toMatchObject({ state: "ignored", duplicate: true });
    const foreign = eventBody("checkout.session.completed", {
      id: "cs_x",
      object: "checkout.session",
      mode: "payment",
      amount_total: 100,
      metadata: {},
    });
    expect(await json(await sendCallback(foreign))).toMatchObject({ state: "ignored" });
    const unknown = eventBody("checkout.session.completed", { id: "cs_y", client_reference_id: "bin_aaaaaaaaaaaaaaaa", mode: "payment" });
    expect(await json(await sendCallback(unknown))).toMatchObject({ state: "ignored" });
    const ids = [other, foreign, unknown].map((b) => JSON.parse(b).id as string);
    const rows = (await db().select().from(paymentEvents).all()).filter((r) => ids.includes(r.eventId));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.state === "ignored" && r.tenantId === null)).toBe(true);
  });

  it("secret rotation: any configured secret, and any of several v1 values, verifies", async () => {
    const body = eventBody("customer.updated", { id: "cus_1", object: "customer" });
    const t = Math.floor(Date.now() / 1000);
    const stripe = new Stripe("sk_test_sender", { httpClient: Stripe.createFetchHttpClient() });
    const crypto = Stripe.createSubtleCryptoProvider();
    const withOld = await stripe.webhooks.generateTestHeaderStringAsync({
      payload: body,
      secret: "whsec_test_old_secret_abc",
      timestamp: t,
      cryptoProvider: crypto,
    });
    expect((await sendCallback(body, { header: withOld, overrides: SANDBOX })).status).toBe(202);
    const body2 = eventBody("customer.updated", { id: "cus_2", object: "customer" });
    const unknownSig = (
      await stripe.webhooks.generateTestHeaderStringAsync({ payload: body2, secret: "whsec_retired", timestamp: t, cryptoProvider: crypto })
    ).split(",")[1];
    const current = (
      await stripe.webhooks.generateTestHeaderStringAsync({ payload: body2, secret: WHSEC, timestamp: t, cryptoProvider: crypto })
    ).split(",")[1];
    expect((await sendCallback(body2, { header: `t=${t},${unknownSig},${current}`, overrides: SANDBOX })).status).toBe(202);
  });
  it("sandbox: a dispute names only its charge; the intent is found from the charge's metadata at the provider", async () => {
    const t = await createTenant();
    await enableWallet(t.tenantId);
    const standIn = stripeStandIn();
    installStandIn(standIn);
    const intent = await json(
      await apiWith(SANDBOX, "/v1/billing/checkout-intents", {
        method: "POST",
        key: t.key,
        body: { purpose: "wallet_top_up", amount_usd: "25.00", success_url: `${CONSOLE}/ok`, cancel_url: `${CONSOLE}/no` },
      }),
    );
    const stored = await db().select().from(billingIntents).where(eq(billingIntents.id, intent.id)).get();
    const stripe = new Stripe("sk_test_sender", { httpClient: Stripe.createFetchHttpClient() });
    const sign = (payload: string) =>
      stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WHSEC, cryptoProvider: Stripe.createSubtleCryptoProvider() });
    const completed = eventBody("checkout.session.completed", {
      id: stored!.providerSessionId,
      object: "checkout.session",
      mode: "payment",
      amount_total: 2500,
      currency: "usd",
      payment_status: "paid",
      client_reference_id: intent.id,
      metadata: { svc_intent_id: intent.id, svc_tenant_id: t.tenantId },
    });
    expect(await json(await sendCallback(completed, { header: await sign(completed), overrides: SANDBOX }))).toMatchObject({
      state: "applied",
    });
    standIn.charges.set("ch_standin_1", intent.id);
    const dispute = eventBody("charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      amount: 2500,
      charge: "ch_standin_1",
      metadata: {},
    });
    expect(await json(await sendCallback(dispute, { header: await sign(dispute), overrides: SANDBOX }))).toMatchObject({
      state: "applied",
    });
    expect(await walletBalance(t.tenantId)).toBe(0);
    // The provider unreachable while resolving: 503, nothing recorded, so its retry applies later.
    vi.restoreAllMocks();
    installStandIn(stripeStandIn(() => "network"));
    const later = eventBody("charge.dispute.created", { id: "dp_2", object: "dispute", amount: 100, charge: "ch_standin_1", metadata: {} });
    const res = await sendCallback(later, { header: await sign(later), overrides: SANDBOX });
    expect(res.status).toBe(503);
    expect((await json(res)).code).toBe("svc.billing.provider_unavailable");
    expect(
      await db()
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, JSON.parse(later).id))
        .get(),
    ).toBeUndefined();
  });
});
