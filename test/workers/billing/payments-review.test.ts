import { describe, expect, it } from "vitest";
import { createTenant, json, testEnv } from "../support/helpers";
import { eventBody, sendCallback, topUpIntent, walletBalance } from "./payments-helpers";
import { seedWallet, walletOf } from "./wallet-fixture";

/* Issue #17 review: money must arrive once, only when paid, and leave only what was really refunded. */

const completion = (intentId: string, tenantId: string, extra: Record<string, unknown> = {}, type = "checkout.session.completed") =>
  eventBody(type, {
    id: `cs_sim_${intentId}`,
    object: "checkout.session",
    mode: "payment",
    amount_total: 2500,
    currency: "usd",
    payment_status: "paid",
    client_reference_id: intentId,
    metadata: { svc_intent_id: intentId, svc_tenant_id: tenantId },
    ...extra,
  });

describe("#17 payments review fixes", () => {
  it("charge.refunded as Stripe sends it (no previous_attributes): each event debits only what it adds, never more than the top-up", async () => {
    const { t, intent } = await topUpIntent();
    await sendCallback(completion(intent.id, t.tenantId));
    expect(await walletBalance(t.tenantId)).toBe(25_000_000);
    const charge = { id: "ch_review", object: "charge", currency: "usd", metadata: { svc_intent_id: intent.id } };
    await sendCallback(eventBody("charge.refunded", { ...charge, amount_refunded: 500 }));
    await sendCallback(eventBody("charge.refunded", { ...charge, amount_refunded: 1000 }));
    expect(await walletBalance(t.tenantId)).toBe(15_000_000);
    // A report larger than the top-up debits at most the top-up.
    await sendCallback(eventBody("charge.refunded", { ...charge, amount_refunded: 999_999 }));
    expect(await walletBalance(t.tenantId)).toBe(0);
  });

  it("concurrent refund events of one charge never both debit the same amount", async () => {
    const { t, intent } = await topUpIntent();
    await sendCallback(completion(intent.id, t.tenantId));
    const charge = { id: "ch_race", object: "charge", currency: "usd", metadata: { svc_intent_id: intent.id } };
    await Promise.all([1, 2, 3].map(() => sendCallback(eventBody("charge.refunded", { ...charge, amount_refunded: 1000 }))));
    expect(await walletBalance(t.tenantId)).toBe(15_000_000);
  });

  it("an unpaid completion (delayed payment method) credits nothing; async_payment_succeeded credits once", async () => {
    const { t, intent } = await topUpIntent();
    const unpaid = await sendCallback(completion(intent.id, t.tenantId, { payment_status: "unpaid" }));
    expect(await json(unpaid)).toMatchObject({ state: "ignored" });
    expect(await walletBalance(t.tenantId)).toBe(0);
    await sendCallback(completion(intent.id, t.tenantId, {}, "checkout.session.async_payment_succeeded"));
    expect(await walletBalance(t.tenantId)).toBe(25_000_000);
  });

  it("three different completion events for one intent at once: credited exactly once", async () => {
    const { t, intent } = await topUpIntent();
    const results = await Promise.all([1, 2, 3].map(() => sendCallback(completion(intent.id, t.tenantId))));
    expect(results.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(await walletBalance(t.tenantId)).toBe(25_000_000);
  });

  it("an intent that is not open (the provider refused it) never completes", async () => {
    const { t, intent } = await topUpIntent();
    await testEnv.DB.prepare("UPDATE billing_intents SET status = 'expired' WHERE id = ?").bind(intent.id).run();
    expect(await json(await sendCallback(completion(intent.id, t.tenantId)))).toMatchObject({ state: "ignored" });
    expect(await walletBalance(t.tenantId)).toBe(0);
  });

  it("month spend only rolls forward: a late settlement of the previous month does not move it back", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 10_000_000);
    const hold = (jobId: string) =>
      testEnv.DB.prepare(
        "INSERT INTO wallet_reservations (job_id, tenant_id, amount_micros, lines, pricing_version, state, created_at) VALUES (?, ?, 1000000, '[]', 'v', 'held', 0)",
      )
        .bind(jobId, t.tenantId)
        .run();
    const settle = (jobId: string, at: number) =>
      testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'settled', ended_at = ? WHERE job_id = ?").bind(at, jobId).run();
    for (const id of ["job_a", "job_b", "job_c"]) await hold(id);
    await settle("job_a", Date.UTC(2026, 11, 1, 0, 0, 1));
    await settle("job_b", Date.UTC(2026, 11, 1, 0, 0, 2));
    await settle("job_c", Date.UTC(2026, 10, 30, 23, 59, 56));
    const row = await testEnv.DB.prepare("SELECT spend_month, month_spend_micros FROM wallets WHERE tenant_id = ?")
      .bind(t.tenantId)
      .first();
    expect(row).toEqual({ spend_month: "2026-12", month_spend_micros: 2_000_000 });
    expect((await walletOf(t.tenantId))!.balance_micros).toBe(7_000_000);
  });
});
