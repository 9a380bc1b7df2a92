import { describe, expect, it } from "vitest";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { CONSENT, enrol, enrolled, idem, recomputeCommitment } from "./helpers";

describe("creator disclosure policy", () => {
  it("reads the defaults until replaced, then the replacement; omitted fields take their defaults", async () => {
    const t = await createTenant({ name: "Harbour Gazette" });
    const initial = await json(await api("/v1/creator-disclosure-policy", { key: t.key }));
    expect(initial).toEqual({
      brand_name: "Harbour Gazette",
      console_disclosure: "name_and_email",
      share_disclosure: "name",
      notice_version: null,
      updated_at: null,
    });
    const put = await api("/v1/creator-disclosure-policy", {
      method: "PUT",
      key: t.key,
      body: { brand_name: "  Harbour  ", share_disclosure: "attributed" },
    });
    expect(put.status).toBe(200);
    const replaced = await json(put);
    expect(replaced).toMatchObject({
      brand_name: "Harbour",
      console_disclosure: "name_and_email",
      share_disclosure: "attributed",
      notice_version: null,
    });
    expect(Date.parse(replaced.updated_at)).toBeGreaterThan(0);
    expect(await json(await api("/v1/creator-disclosure-policy", { key: t.key }))).toEqual(replaced);
    const again = await json(
      await api("/v1/creator-disclosure-policy", {
        method: "PUT",
        key: t.key,
        body: { brand_name: "Harbour", console_disclosure: "name", share_disclosure: "none", notice_version: "v7" },
      }),
    );
    expect(again).toMatchObject({ console_disclosure: "name", share_disclosure: "none", notice_version: "v7" });
  });
});

describe("creator identities", () => {
  it("enrols (201), returns the existing active identity for the same e-mail (200), gets and lists with a state filter and cursors", async () => {
    const t = await createTenant();
    const created = await enrol(t.key, { email: "ada.harbour@news.test", name: "Ada Harbour" });
    expect(created.status).toBe(201);
    const ada = await json(created);
    expect(ada).toEqual({
      creator_id: expect.stringMatching(/^crid_[a-z2-7]{16}$/),
      created_at: expect.any(String),
      assurance_level: "self_asserted",
      status: "active",
      display_name_present: true,
      erased_at: null,
      withdrawn_at: null,
    });
    // The same subject (trimmed, any case) is not a conflict: the existing record, unchanged, with 200.
    const same = await enrol(t.key, { email: "  ADA.Harbour@NEWS.test ", name: "Someone Else" });
    expect(same.status).toBe(200);
    expect(await json(same)).toEqual(ada);

    const bo = await enrolled(t.key, "bo@news.test");
    expect(bo.display_name_present).toBe(false);
    const cy = await enrolled(t.key, "cy@news.test", "Cy");
    expect((await api(`/v1/creator-identities/${cy.creator_id}/withdraw`, { method: "POST", key: t.key, headers: idem() })).status).toBe(
      200,
    );

    expect(await json(await api(`/v1/creator-identities/${ada.creator_id}`, { key: t.key }))).toEqual(ada);
    // Newest first by (created_at, id); compared as sets where rows may share a millisecond.
    const ids = (page: any) => page.items.map((i: any) => i.creator_id);
    const all = await json(await api("/v1/creator-identities", { key: t.key }));
    expect([...ids(all)].sort()).toEqual([ada.creator_id, bo.creator_id, cy.creator_id].sort());
    expect(all.next_cursor).toBeNull();
    const active = await json(await api("/v1/creator-identities?state=active", { key: t.key }));
    expect([...ids(active)].sort()).toEqual([ada.creator_id, bo.creator_id].sort());
    expect(active.items.every((i: any) => i.status === "active")).toBe(true);
    const withdrawn = await json(await api("/v1/creator-identities?state=withdrawn", { key: t.key }));
    expect(ids(withdrawn)).toEqual([cy.creator_id]);

    const first = await json(await api("/v1/creator-identities?limit=2", { key: t.key }));
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await json(await api(`/v1/creator-identities?limit=2&cursor=${first.next_cursor}`, { key: t.key }));
    expect([...ids(first), ...ids(second)]).toEqual(ids(all));
    expect(second.next_cursor).toBeNull();
  });

  it("replays a create under the same Idempotency-Key, and records the consent as given with its time and key", async () => {
    const t = await createTenant();
    const headers = idem();
    const first = await enrol(t.key, { email: "dee@news.test", name: "Dee" }, headers);
    const replay = await enrol(t.key, { email: "dee@news.test", name: "Dee" }, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    const body = await json(first);
    expect(await json(replay)).toEqual(body);
    const row = await testEnv.DB.prepare("SELECT consent, consent_recorded_at, consent_api_key_id FROM creator_identities WHERE id = ?")
      .bind(body.creator_id)
      .first<{ consent: string; consent_recorded_at: number; consent_api_key_id: string }>();
    expect(JSON.parse(row!.consent)).toEqual(CONSENT);
    expect(row!.consent_api_key_id).toBe(t.keyId);
    expect(Math.abs(row!.consent_recorded_at - Date.parse(body.created_at))).toBeLessThan(1000);
  });
});

describe("disclosure", () => {
  it("discloses per audience and policy, with a commitment a verifier can recompute", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "Ada.Harbour@News.Test", "  Ada Harbour ");
    const res = await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: t.key });
    expect(res.status).toBe(200);
    const owning = await json(res);
    expect(owning).toMatchObject({
      schema_version: "svc.creator-disclosure.v1",
      assurance_level: "self_asserted",
      audience: "owning_tenant",
      disclosure_state: "disclosed",
      tenant: { brand_name: "Test", notice_version: null },
      end_user: { name: "Ada Harbour", email: "ada.harbour@news.test" },
      creator_ref: expect.stringMatching(/^cref_[a-z2-7]{26}$/),
    });
    expect(owning.assurance_statement.length).toBeGreaterThan(10);
    expect(owning.commitment).toMatchObject({
      algorithm: "sha256",
      salt: expect.stringMatching(/^[0-9a-f]{64}$/),
      canonical_form: expect.any(String),
    });
    expect(await recomputeCommitment(owning.commitment.salt, owning.end_user.email, owning.end_user.name)).toBe(owning.commitment.value);

    // public: the share policy (default `name`): the name only, no e-mail, no salt; same reference and commitment value.
    const pub = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure?audience=public`, { key: t.key }));
    expect(pub).toMatchObject({
      audience: "public",
      disclosure_state: "disclosed",
      end_user: { name: "Ada Harbour" },
      creator_ref: owning.creator_ref,
    });
    expect(pub.end_user).not.toHaveProperty("email");
    expect(pub.commitment).toMatchObject({ value: owning.commitment.value, salt: null });

    // attributed: withheld, reference and commitment only; none: nothing at all.
    await api("/v1/creator-disclosure-policy", {
      method: "PUT",
      key: t.key,
      body: { brand_name: "B", console_disclosure: "attributed", share_disclosure: "none" },
    });
    const attributed = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: t.key }));
    expect(attributed).toMatchObject({
      disclosure_state: "withheld",
      end_user: null,
      creator_ref: owning.creator_ref,
      commitment: { salt: null },
    });
    const none = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure?audience=public`, { key: t.key }));
    expect(none).toMatchObject({
      disclosure_state: "withheld",
      end_user: null,
      creator_ref: null,
      commitment: null,
      tenant: { brand_name: "B" },
    });

    // name: the name without the e-mail, even to the owning tenant; an identity without a name discloses null.
    await api("/v1/creator-disclosure-policy", { method: "PUT", key: t.key, body: { brand_name: "B", console_disclosure: "name" } });
    const named = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: t.key }));
    expect(named).toMatchObject({ disclosure_state: "disclosed", end_user: { name: "Ada Harbour" }, commitment: { salt: null } });
    expect(named.end_user).not.toHaveProperty("email");
    const bo = await enrolled(t.key, "bo@news.test");
    expect(await json(await api(`/v1/creator-identities/${bo.creator_id}/disclosure`, { key: t.key }))).toMatchObject({
      disclosure_state: "disclosed",
      end_user: { name: null },
    });
  });
});

describe("withdraw", () => {
  it("withdraws (200, idempotent), stops disclosure, and enrolling the e-mail again creates a new active identity", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    const before = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: t.key }));
    const res = await api(`/v1/creator-identities/${ada.creator_id}/withdraw`, { method: "POST", key: t.key, headers: idem() });
    expect(res.status).toBe(200);
    const withdrawn = await json(res);
    expect(withdrawn).toMatchObject({ creator_id: ada.creator_id, status: "withdrawn", withdrawn_at: expect.any(String), erased_at: null });
    const again = await api(`/v1/creator-identities/${ada.creator_id}/withdraw`, { method: "POST", key: t.key, headers: idem() });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(withdrawn);

    for (const audience of ["owning_tenant", "public"]) {
      const d = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure?audience=${audience}`, { key: t.key }));
      expect(d).toMatchObject({
        disclosure_state: "withdrawn",
        end_user: null,
        creator_ref: before.creator_ref,
        commitment: { value: before.commitment.value, salt: null },
      });
    }

    const reenrolled = await enrol(t.key, { email: "ada@news.test", name: "Ada" });
    expect(reenrolled.status).toBe(201);
    const fresh = await json(reenrolled);
    expect(fresh.creator_id).not.toBe(ada.creator_id);
    const d = await json(await api(`/v1/creator-identities/${fresh.creator_id}/disclosure`, { key: t.key }));
    expect(d.disclosure_state).toBe("disclosed");
    expect(d.creator_ref).not.toBe(before.creator_ref);
    expect(d.commitment.value).not.toBe(before.commitment.value);
    expect((await json(await api(`/v1/creator-identities/${ada.creator_id}`, { key: t.key }))).status).toBe("withdrawn");
  });
});
