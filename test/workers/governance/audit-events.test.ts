import { describe, expect, it } from "vitest";
import { pagePayload, sendCallback, topUpIntent } from "../billing/payments-helpers";
import { enrolled } from "../creators/helpers";
import { api, createTenant, json } from "../support/helpers";

/** Security-relevant events that are not API writes are in the audit log too. */
describe("named audit events", () => {
  it("a creator disclosure read is recorded with its audience and state, never the disclosed values", async () => {
    const t = await createTenant();
    const creator = await enrolled(t.key, "ada@example.test", "Ada Lovelace");
    const res = await api(`/v1/creator-identities/${creator.creator_id}/disclosure?audience=owning_tenant`, { key: t.key });
    expect(res.status).toBe(200);
    const page = await json(await api("/v1/governance/audit?action=creator.disclosure_read", { key: t.key }));
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      actor: { kind: "api_key", id: t.keyId },
      target: { type: "creator_identity", id: creator.creator_id },
      detail: { audience: "owning_tenant", disclosure_state: "disclosed" },
    });
    expect(JSON.stringify(page)).not.toContain("ada@example.test");
    expect(JSON.stringify(page)).not.toContain("Lovelace");
  });

  it("a payment callback that credits a wallet is recorded once, by the provider", async () => {
    const { t, intent } = await topUpIntent("25.00");
    const page = pagePayload(await (await api(`/dev/payments/checkout/${intent.id}`)).text());
    expect((await sendCallback(page.body, { header: page.header })).status).toBe(202);
    expect((await sendCallback(page.body, { header: page.header })).status).toBe(202); // the provider retries: a duplicate
    const audit = await json(await api("/v1/governance/audit?action=payment.event_applied&verify=true", { key: t.key }));
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      actor: { kind: "payment_provider", id: `evt_sim_${intent.id}` },
      credential_id: null,
      target: { type: "billing_intent", id: intent.id },
      detail: { event_type: "checkout.session.completed" },
    });
    expect(audit.verification.intact).toBe(true);
  });
});
