import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eraseCreator } from "../../../src/creators/service";
import { database } from "../../../src/db/client";
import worker from "../../../src/index";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { CONSENT, enrol, enrolled, expectError, idem } from "./helpers";

const UNKNOWN = "crid_abcdefghij234567";

/** The 422 contract envelope naming `field` in `location`. */
async function expectInvalid(res: Response, location: string, field: string) {
  const body = await expectError(res, 422, "svc.request.invalid");
  expect(body.field_details, JSON.stringify(body)).toEqual(expect.arrayContaining([expect.objectContaining({ location, field })]));
  return body;
}

describe("bad input answers 422 with field details", () => {
  it("refuses an e-mail over 320 characters, a malformed e-mail, a long or blank name, a missing or bad consent, unknown fields", async () => {
    const t = await createTenant();
    const long = `${"a".repeat(64)}@${"b".repeat(251)}.test`; // 321 characters
    expect(long.length).toBe(321);
    await expectInvalid(await enrol(t.key, { email: long }), "body", "email");
    const max = `${"a".repeat(64)}@${"b".repeat(250)}.test`;
    expect(max.length).toBe(320);
    expect((await enrol(t.key, { email: max })).status).toBe(201);
    await expectInvalid(await enrol(t.key, { email: "not-an-address" }), "body", "email");
    await expectInvalid(await enrol(t.key, { email: "x@y.test", name: "n".repeat(201) }), "body", "name");
    await expectInvalid(await enrol(t.key, { email: "x@y.test", name: "   " }), "body", "name");
    await expectInvalid(await enrol(t.key, { email: "x@y.test", consent: undefined }), "body", "consent");
    await expectInvalid(await enrol(t.key, { email: "x@y.test", consent: { ...CONSENT, basis: "because" } }), "body", "consent.basis");
    await expectInvalid(
      await enrol(t.key, { email: "x@y.test", consent: { ...CONSENT, obtained_at: "yesterday" } }),
      "body",
      "consent.obtained_at",
    );
    await expectInvalid(await enrol(t.key, { email: "x@y.test", phone: "1" }), "body", "(root)");
    expect((await json(await api("/v1/creator-identities", { key: t.key }))).items).toHaveLength(1);
  });

  it("requires an Idempotency-Key on enrolment", async () => {
    const t = await createTenant();
    const res = await api("/v1/creator-identities", { method: "POST", key: t.key, body: { email: "x@y.test", consent: CONSENT } });
    await expectError(res, 422, "svc.idempotency.key_required");
  });

  it("refuses a brand_name over 200 characters (201), a blank one, and bad enum values", async () => {
    const t = await createTenant();
    const put = (body: unknown) => api("/v1/creator-disclosure-policy", { method: "PUT", key: t.key, body });
    await expectInvalid(await put({ brand_name: "b".repeat(201) }), "body", "brand_name");
    expect((await put({ brand_name: "b".repeat(200) })).status).toBe(200);
    await expectInvalid(await put({ brand_name: " " }), "body", "brand_name");
    await expectInvalid(await put({}), "body", "brand_name");
    await expectInvalid(await put({ brand_name: "B", console_disclosure: "everything" }), "body", "console_disclosure");
    // The e-mail is never public: share_disclosure has no name_and_email.
    await expectInvalid(await put({ brand_name: "B", share_disclosure: "name_and_email" }), "body", "share_disclosure");
    await expectInvalid(await put({ brand_name: "B", notice_version: "" }), "body", "notice_version");
  });

  it("refuses a bad state filter, limit, cursor, audience and identity id pattern", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test");
    await expectInvalid(await api("/v1/creator-identities?state=gone", { key: t.key }), "query", "state");
    await expectInvalid(await api("/v1/creator-identities?limit=101", { key: t.key }), "query", "limit");
    await expectInvalid(await api("/v1/creator-identities?limit=0", { key: t.key }), "query", "limit");
    const cursor = await expectError(
      await api("/v1/creator-identities?cursor=bm90LWEtY3Vyc29yLWF0LWFsbC0xMjM0NTY3ODkw", { key: t.key }),
      422,
      "svc.cursor.invalid",
    );
    expect(cursor.field_details[0]).toMatchObject({ location: "query", field: "cursor" });
    // A cursor of another filter set is unusable here.
    await enrolled(t.key, "bo@news.test");
    const page = await json(await api("/v1/creator-identities?limit=1&state=active", { key: t.key }));
    await expectError(await api(`/v1/creator-identities?limit=1&cursor=${page.next_cursor}`, { key: t.key }), 422, "svc.cursor.invalid");
    await expectInvalid(
      await api(`/v1/creator-identities/${ada.creator_id}/disclosure?audience=everyone`, { key: t.key }),
      "query",
      "audience",
    );
    for (const bad of ["crid_ABCDEFGHIJ234567", "crid_abc", "whe_abcdefghij234567", "crid_abcdefghij234561"]) {
      await expectInvalid(await api(`/v1/creator-identities/${bad}`, { key: t.key }), "path", "creator_identity_id");
      await expectInvalid(await api(`/v1/creator-identities/${bad}/disclosure`, { key: t.key }), "path", "creator_identity_id");
      await expectInvalid(
        await api(`/v1/creator-identities/${bad}/withdraw`, { method: "POST", key: t.key, headers: idem() }),
        "path",
        "creator_identity_id",
      );
    }
  });
});

describe("missing and conflicting", () => {
  it("an unknown id answers 404 on get, disclosure and withdraw", async () => {
    const t = await createTenant();
    await expectError(await api(`/v1/creator-identities/${UNKNOWN}`, { key: t.key }), 404, "svc.resource.not_found");
    await expectError(await api(`/v1/creator-identities/${UNKNOWN}/disclosure`, { key: t.key }), 404, "svc.resource.not_found");
    await expectError(
      await api(`/v1/creator-identities/${UNKNOWN}/withdraw`, { method: "POST", key: t.key, headers: idem() }),
      404,
      "svc.resource.not_found",
    );
  });

  it("the operator audience is refused to an API key (403), whatever the id", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    for (const id of [ada.creator_id, UNKNOWN]) {
      const body = await expectError(
        await api(`/v1/creator-identities/${id}/disclosure?audience=operator`, { key: t.key }),
        403,
        "svc.creators.audience_not_allowed",
      );
      expect(body.field_details[0]).toMatchObject({ location: "query", field: "audience" });
    }
  });

  it("an erased identity cannot be withdrawn (409) and discloses only its state", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    await eraseCreator(database(testEnv.DB), t.tenantId, ada.creator_id);
    await expectError(
      await api(`/v1/creator-identities/${ada.creator_id}/withdraw`, { method: "POST", key: t.key, headers: idem() }),
      409,
      "svc.creators.erased",
    );
    const d = await json(await api(`/v1/creator-identities/${ada.creator_id}/disclosure`, { key: t.key }));
    expect(d).toMatchObject({ disclosure_state: "erased", end_user: null, commitment: { salt: null } });
    expect(await json(await api(`/v1/creator-identities/${ada.creator_id}`, { key: t.key }))).toMatchObject({
      status: "erased",
      erased_at: expect.any(String),
    });
  });
});

describe("without a data master key", () => {
  it("enrolment answers 503 svc.creators.sealing_unavailable, disclosure `unavailable`; reads and withdraw still work", async () => {
    const t = await createTenant();
    const ada = await enrolled(t.key, "ada@news.test", "Ada");
    for (const missing of [undefined, "", "not-a-key-ring", "k1:c2hvcnQ"]) {
      const env = { ...testEnv, SVC_DATA_MASTER_KEYS: missing };
      const call = (path: string, init: { method?: string; body?: string } = {}) =>
        worker.fetch(
          new Request(`http://svc.test${path}`, {
            ...init,
            headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json", ...idem() },
          }),
          env,
          createExecutionContext(),
        );
      const body = await expectError(
        await call("/v1/creator-identities", { method: "POST", body: JSON.stringify({ email: "new@news.test", consent: CONSENT }) }),
        503,
        "svc.creators.sealing_unavailable",
      );
      expect(body.retryable).toBe(true);
      const d = await json(await call(`/v1/creator-identities/${ada.creator_id}/disclosure`));
      expect(d).toMatchObject({
        disclosure_state: "unavailable",
        end_user: null,
        creator_ref: expect.any(String),
        commitment: { salt: null },
      });
      expect((await call(`/v1/creator-identities/${ada.creator_id}`)).status).toBe(200);
      expect((await call("/v1/creator-identities")).status).toBe(200);
      expect((await call("/v1/creator-disclosure-policy")).status).toBe(200);
    }
    const env = { ...testEnv, SVC_DATA_MASTER_KEYS: undefined };
    const res = await worker.fetch(
      new Request(`http://svc.test/v1/creator-identities/${ada.creator_id}/withdraw`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}` },
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });
});
