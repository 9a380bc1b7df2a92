import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { attributionFor, discloseCreator } from "../../../src/creators/disclosure";
import { enrolCreator, eraseCreator, withdrawCreator } from "../../../src/creators/service";
import { database } from "../../../src/db/client";
import worker from "../../../src/index";
import { base64url } from "../../../src/platform/bytes";
import { lookupHash, masterKeyRing, open, rewrapDataKeys, seal, tenantDataKey } from "../../../src/platform/sealing";
import { testEnv } from "../support/helpers";
import { CONSENT, recomputeCommitment } from "./helpers";

const db = () => database(testEnv.DB);
const newKey = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const tenant = () => `ten_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
const enrolIn = async (env: { SVC_DATA_MASTER_KEYS?: string }, tenantId: string, email: string, name: string | null = null) => {
  const result = await enrolCreator(db(), env, { tenantId, apiKeyId: "key_test", email, name, consent: CONSENT });
  if (result.status === "unavailable") throw new Error(result.reason);
  return result;
};
const emailOf = async (env: { SVC_DATA_MASTER_KEYS?: string }, tenantId: string, creatorId: string) => {
  const result = await discloseCreator(db(), env, { tenantId, creatorId }, "owning_tenant");
  if (result.status !== "ok") throw new Error("not found");
  return result.disclosure.disclosure_state === "disclosed" ? result.disclosure.end_user?.email : result.disclosure.disclosure_state;
};

describe("master key ring", () => {
  it("parses `kid:base64url(32 bytes)` entries, first current; anything malformed is no ring at all", async () => {
    const ring = await masterKeyRing({ SVC_DATA_MASTER_KEYS: ` k2:${newKey()} , k1:${newKey()}` });
    expect(ring?.current.id).toBe("k2");
    expect([...ring!.byId.keys()]).toEqual(["k2", "k1"]);
    for (const bad of [
      undefined,
      "",
      " ",
      "k1",
      `:${newKey()}`,
      "k1:c2hvcnQ",
      `k1:${newKey()}=`,
      `k1:${newKey()},k1:${newKey()}`,
      `bad kid:${newKey()}`,
    ])
      expect(await masterKeyRing({ SVC_DATA_MASTER_KEYS: bad }), String(bad)).toBeNull();
  });
});

describe("sealing", () => {
  it("opens only what it sealed for the same tenant, record and field; lookups are stable per tenant and differ across tenants", async () => {
    const env = { SVC_DATA_MASTER_KEYS: `m1:${newKey()}` };
    const [a, b] = [tenant(), tenant()];
    const ka = await tenantDataKey(db(), env, a, { create: true });
    const kb = await tenantDataKey(db(), env, b, { create: true });
    if (ka.status !== "ok" || kb.status !== "ok") throw new Error("no data key");
    expect(await tenantDataKey(db(), env, tenant(), { create: false })).toEqual({ status: "none" });
    const again = await tenantDataKey(db(), env, a, { create: true });
    expect(again.status === "ok" && again.key.id).toBe(ka.key.id);

    const sealed = await seal(ka.key, { recordId: "r1", field: "email" }, new TextEncoder().encode("x@y.test"));
    expect(new TextDecoder().decode((await open(ka.key, { recordId: "r1", field: "email" }, sealed))!)).toBe("x@y.test");
    expect(await seal(ka.key, { recordId: "r1", field: "email" }, new TextEncoder().encode("x@y.test"))).not.toBe(sealed); // fresh IV
    expect(await open(ka.key, { recordId: "r2", field: "email" }, sealed)).toBeNull();
    expect(await open(ka.key, { recordId: "r1", field: "name" }, sealed)).toBeNull();
    expect(await open(kb.key, { recordId: "r1", field: "email" }, sealed)).toBeNull();
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.at(-1)}`;
    expect(await open(ka.key, { recordId: "r1", field: "email" }, flipped)).toBeNull();
    expect(await open(ka.key, { recordId: "r1", field: "email" }, "not base64!")).toBeNull();

    expect(await lookupHash(ka.key, "p", "v")).toBe(await lookupHash((again as typeof ka).key, "p", "v"));
    expect(await lookupHash(ka.key, "p", "v")).not.toBe(await lookupHash(kb.key, "p", "v"));
    expect(await lookupHash(ka.key, "p", "v")).not.toBe(await lookupHash(ka.key, "q", "v"));
  });
});

describe("master key rotation", () => {
  // rewrapDataKeys reports over every data key: start each test from none (earlier tests' keys are done with).
  beforeEach(() => testEnv.DB.prepare("DELETE FROM tenant_data_keys").run());

  it("rewrap moves every data key under the current master key without touching records; after the old key is gone everything still opens", async () => {
    const [oldKey, newer] = [newKey(), newKey()];
    const before = { SVC_DATA_MASTER_KEYS: `old:${oldKey}` };
    const during = { SVC_DATA_MASTER_KEYS: `new:${newer},old:${oldKey}` };
    const after = { SVC_DATA_MASTER_KEYS: `new:${newer}` };
    const [a, b] = [tenant(), tenant()];
    const ada = await enrolIn(before, a, "ada@news.test", "Ada");
    const bo = await enrolIn(before, b, "bo@news.test");
    const rows = async () => (await testEnv.DB.prepare("SELECT * FROM creator_identities ORDER BY id").all()).results;
    const recordsBefore = await rows();

    expect(await emailOf(during, a, ada.row.id)).toBe("ada@news.test"); // the old key still unwraps
    expect(await emailOf(after, a, ada.row.id)).toBe("unavailable"); // not yet rewrapped
    expect(await rewrapDataKeys(db(), during)).toEqual({ rewrapped: 2, unreadable: 0 });
    const keys = (
      await testEnv.DB.prepare("SELECT master_key_id, rewrapped_at FROM tenant_data_keys").all<{
        master_key_id: string;
        rewrapped_at: number;
      }>()
    ).results;
    expect(keys.map((k) => k.master_key_id)).toEqual(["new", "new"]);
    expect(keys.every((k) => k.rewrapped_at > 0)).toBe(true);
    expect(await rows()).toEqual(recordsBefore); // no record touched
    expect(await rewrapDataKeys(db(), during)).toEqual({ rewrapped: 0, unreadable: 0 });

    expect(await emailOf(after, a, ada.row.id)).toBe("ada@news.test");
    expect(await emailOf(after, b, bo.row.id)).toBe("bo@news.test");
    expect(await emailOf(before, a, ada.row.id)).toBe("unavailable");
    // The lookup key comes from the data key, so "already enrolled" survives the rotation.
    expect((await enrolIn(after, a, " ADA@news.test")).status).toBe("existing");
    const disclosed = await discloseCreator(db(), after, { tenantId: a, creatorId: ada.row.id }, "owning_tenant");
    if (disclosed.status !== "ok") throw new Error("not found");
    const { commitment, end_user } = disclosed.disclosure;
    expect(await recomputeCommitment(commitment!.salt!, end_user!.email!, end_user!.name)).toBe(commitment!.value);
  });

  it("a data key under a master key missing from the ring is left as it is and counted", async () => {
    const lost = { SVC_DATA_MASTER_KEYS: `lost:${newKey()}` };
    const current = { SVC_DATA_MASTER_KEYS: `cur:${newKey()}` };
    const t = tenant();
    const ada = await enrolIn(lost, t, "ada@news.test");
    expect(await rewrapDataKeys(db(), current)).toEqual({ rewrapped: 0, unreadable: 1 });
    expect(await rewrapDataKeys(db(), {})).toEqual({ rewrapped: 0, unreadable: 0 });
    expect(await emailOf(lost, t, ada.row.id)).toBe("ada@news.test");
  });

  it("the cron sweep runs the rewrap", async () => {
    const [oldKey, newer] = [newKey(), newKey()];
    const t = tenant();
    const ada = await enrolIn({ SVC_DATA_MASTER_KEYS: `o:${oldKey}` }, t, "ada@news.test");
    const env = { ...testEnv, SVC_DATA_MASTER_KEYS: `n:${newer},o:${oldKey}` };
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const row = await testEnv.DB.prepare("SELECT master_key_id FROM tenant_data_keys WHERE tenant_id = ?")
      .bind(t)
      .first<{ master_key_id: string }>();
    expect(row!.master_key_id).toBe("n");
    expect(await emailOf({ SVC_DATA_MASTER_KEYS: `n:${newer}` }, t, ada.row.id)).toBe("ada@news.test");
  });
});

describe("service functions for other areas", () => {
  it("attributionFor answers an active identity's reference and commitment, and only the state otherwise", async () => {
    const env = { SVC_DATA_MASTER_KEYS: `m:${newKey()}` };
    const [t, other] = [tenant(), tenant()];
    const ada = await enrolIn(env, t, "ada@news.test", "Ada");
    expect(await attributionFor(db(), t, ada.row.id)).toEqual({
      status: "active",
      creator_ref: ada.row.creatorRef,
      commitment: ada.row.commitment,
    });
    expect(ada.row.creatorRef).toMatch(/^cref_[a-z2-7]{26}$/);
    expect(ada.row.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(await attributionFor(db(), other, ada.row.id)).toEqual({ status: "unknown" });
    expect(await attributionFor(db(), t, "crid_abcdefghij234567")).toEqual({ status: "unknown" });
    await withdrawCreator(db(), t, ada.row.id);
    expect(await attributionFor(db(), t, ada.row.id)).toEqual({ status: "withdrawn" });
    // discloseCreator by creator_ref (what verify will use) finds the identity whatever the tenant.
    const byRef = await discloseCreator(db(), env, { creatorRef: ada.row.creatorRef }, "public");
    expect(byRef.status === "ok" && byRef.disclosure.disclosure_state).toBe("withdrawn");
    expect(await discloseCreator(db(), env, { creatorRef: "cref_nothing" }, "public")).toEqual({ status: "not_found" });
  });

  it("eraseCreator deletes the sealed data and salt (the commitment becomes unresolvable), once; other tenants cannot erase", async () => {
    const env = { SVC_DATA_MASTER_KEYS: `m:${newKey()}` };
    const [t, other] = [tenant(), tenant()];
    const ada = await enrolIn(env, t, "ada@news.test", "Ada");
    expect(await eraseCreator(db(), other, ada.row.id)).toEqual({ status: "not_found" });
    const erased = await eraseCreator(db(), t, ada.row.id, 1_800_000_000_000);
    expect(erased.status).toBe("erased");
    const row = await testEnv.DB.prepare("SELECT * FROM creator_identities WHERE id = ?").bind(ada.row.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      status: "erased",
      erased_at: 1_800_000_000_000,
      email_sealed: null,
      name_sealed: null,
      salt_sealed: null,
      email_lookup: null,
      commitment: ada.row.commitment,
      creator_ref: ada.row.creatorRef,
    });
    expect(await eraseCreator(db(), t, ada.row.id, 1_900_000_000_000)).toMatchObject({
      status: "erased",
      row: { erasedAt: 1_800_000_000_000 },
    });
    expect(await attributionFor(db(), t, ada.row.id)).toEqual({ status: "erased" });
    const d = await discloseCreator(db(), env, { tenantId: t, creatorId: ada.row.id }, "owning_tenant");
    expect(d.status === "ok" && d.disclosure).toMatchObject({ disclosure_state: "erased", end_user: null, commitment: { salt: null } });
    // The same e-mail can be enrolled afresh: a new identity.
    expect((await enrolIn(env, t, "ada@news.test")).status).toBe("created");
  });
});
