import { beforeAll, describe, expect, it } from "vitest";
import { addKey, api, createTenant, fixture, json, sha256HexOf, type TestTenant, testEnv } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

/** One tenant with two verification records: a job's publication-time self-check and an authenticated verify call. */
interface Setup {
  tenant: TestTenant;
  checkId: string;
  verifyId: string;
  verifyBody: any;
  assetId: string;
  jobId: string;
}
let setup: Setup;

beforeAll(async () => {
  const tenant = await createTenant();
  const { job, bytes, assetId } = await signedCopy(tenant.key, fixture("sample.jpg"), "image/jpeg");
  const res = await verifyFile(bytes, { key: tenant.key });
  const verifyBody = await json(res);
  expect(res.status, JSON.stringify(verifyBody)).toBe(200);
  setup = { tenant, checkId: job.result.verification_id, verifyId: verifyBody.verification_id, verifyBody, assetId, jobId: job.job_id };
}, 120_000);

const issue = (key: string, verificationId: string, body?: unknown, idempotencyKey: string | null = crypto.randomUUID()) =>
  api(`/v1/verification-evidence/${verificationId}/shares`, {
    method: "POST",
    key,
    body,
    headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
  });
const list = (key: string, verificationId: string, query = "") =>
  api(`/v1/verification-evidence/${verificationId}/shares${query}`, { key });
const close = (key: string, shareId: string) => api(`/v1/verification-shares/${shareId}/close`, { method: "POST", key });
/** The anonymous read: no API key at all. */
const shared = (token: string) => api(`/v1/shared-verifications/${token}`);

const PROJECTION_KEYS = [
  "confidence",
  "does_not_prove",
  "overall",
  "proves",
  "signer_organization",
  "status",
  "status_vocabulary_version",
  "user_explanation",
  "validated_at",
];

/** The one 404 every unusable token gets (request id aside), with the privacy headers. */
async function expectGone(res: Response) {
  expect(res.status).toBe(404);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  return { ...(await json(res)), request_id: "" };
}

describe("verification shares", () => {
  it("issue → the token reads a minimal projection without a key, with no ids, codes or evidence", async () => {
    const { tenant, verifyId, verifyBody, assetId, jobId } = setup;
    const before = Date.now();
    const res = await issue(tenant.key, verifyId, { label: "Fact-check desk" });
    const share = await json(res);
    expect(res.status, JSON.stringify(share)).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(share).toMatchObject({ verification_id: verifyId, label: "Fact-check desk", state: "active", closed_at: null });
    expect(share.share_id).toMatch(/^vsh_[a-z2-7]{16}$/);
    expect(share.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(share.url).toBe(`/v1/shared-verifications/${share.token}`);
    const lifetime = Date.parse(share.expires_at) - Date.parse(share.created_at);
    expect(lifetime).toBe(7 * 24 * 3600 * 1000); // default 7 days
    expect(Date.parse(share.created_at)).toBeGreaterThanOrEqual(before - 1000);

    const got = await shared(share.token);
    const text = await got.text();
    expect(got.status, text).toBe(200);
    expect(got.headers.get("cache-control")).toBe("no-store");
    expect(got.headers.get("referrer-policy")).toBe("no-referrer");
    const body = JSON.parse(text);
    expect(Object.keys(body).sort()).toEqual(PROJECTION_KEYS);
    expect(body).toEqual({
      status: "verified_manifest",
      status_vocabulary_version: "svc.verification-status.v1",
      overall: "valid",
      confidence: verifyBody.confidence,
      user_explanation: verifyBody.user_explanation,
      proves: verifyBody.proves,
      does_not_prove: verifyBody.does_not_prove,
      validated_at: expect.any(String),
      signer_organization: verifyBody.signer.organization,
    });
    // Nothing that identifies the tenant, its resources or the evidence.
    for (const secret of [
      tenant.tenantId,
      verifyId,
      assetId,
      jobId,
      share.share_id,
      verifyBody.manifest_id,
      verifyBody.signer.serial_number,
      "vfy_",
      "ten_",
      "ast_",
      "aob_",
      "job_",
      "pub_",
      "urn:c2pa",
      "claimSignature",
      "Fact-check desk",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("a job's publication-time self-check can be shared too (no status: it has none)", async () => {
    const { tenant, checkId } = setup;
    const share = await json(await issue(tenant.key, checkId));
    const res = await shared(share.token);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(PROJECTION_KEYS);
    expect(body).toMatchObject({
      status: null,
      status_vocabulary_version: null,
      overall: "valid",
      confidence: null,
      signer_organization: null,
    });
    expect(body.proves.length).toBeGreaterThan(0);
    expect(body.does_not_prove.length).toBeGreaterThan(0);
  });

  it("the token is stored only as its SHA-256", async () => {
    const { tenant, verifyId } = setup;
    const share = await json(await issue(tenant.key, verifyId, { label: "hash check" }));
    const row = await testEnv.DB.prepare("SELECT * FROM verification_shares WHERE id = ?")
      .bind(share.share_id)
      .first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expect(row!.token_hash).toBe(await sha256HexOf(new TextEncoder().encode(share.token)));
    expect(JSON.stringify(row)).not.toContain(share.token);
    // Neither is it in the stored idempotency record.
    const records = await testEnv.DB.prepare("SELECT * FROM idempotency_records WHERE tenant_id = ?").bind(tenant.tenantId).all();
    expect(JSON.stringify(records.results)).not.toContain(share.token);
  });

  it("lists share metadata newest first with cursor pagination, never tokens", async () => {
    const tenant = await createTenant();
    const { bytes } = await signedCopy(tenant.key, fixture("sample.png"), "image/png");
    const verificationId = (await json(await verifyFile(bytes, { key: tenant.key }))).verification_id;
    const issued = [];
    for (const label of ["first", "second", "third"])
      issued.push(await json(await issue(tenant.key, verificationId, { label, expires_in_seconds: 3600 })));
    // Distinct creation times (two issues within one millisecond would order by id).
    const base = Date.now() - 10_000;
    for (const [i, s] of issued.entries())
      await testEnv.DB.prepare("UPDATE verification_shares SET created_at = ? WHERE id = ?")
        .bind(base + i * 1000, s.share_id)
        .run();
    const all = await json(await list(tenant.key, verificationId));
    expect(all.items.map((s: { share_id: string }) => s.share_id)).toEqual(issued.map((s) => s.share_id).reverse());
    expect(all.next_cursor).toBeNull();
    for (const item of all.items) {
      expect(Object.keys(item).sort()).toEqual(["closed_at", "created_at", "expires_at", "label", "share_id", "state", "verification_id"]);
      expect(item.state).toBe("active");
    }
    const page1 = await json(await list(tenant.key, verificationId, "?limit=2"));
    expect(page1.items.map((s: { label: string }) => s.label)).toEqual(["third", "second"]);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await json(await list(tenant.key, verificationId, `?limit=2&cursor=${page1.next_cursor}`));
    expect(page2.items.map((s: { label: string }) => s.label)).toEqual(["first"]);
    expect(page2.next_cursor).toBeNull();
    // A cursor belongs to its verification's list.
    const sibling = (await json(await verifyFile(bytes, { key: tenant.key }))).verification_id;
    const otherList = await list(tenant.key, sibling, `?limit=2&cursor=${page1.next_cursor}`);
    expect(otherList.status).toBe(422);
    expect((await json(otherList)).code).toBe("svc.cursor.invalid");
    const page = await list(tenant.key, verificationId, "?cursor=tampered");
    expect(page.status).toBe(422);
    expect((await json(page)).code).toBe("svc.cursor.invalid");
  }, 180_000);

  it("close → the token answers the one 404; closing again keeps closed_at", async () => {
    const { tenant, verifyId } = setup;
    const share = await json(await issue(tenant.key, verifyId));
    expect((await shared(share.token)).status).toBe(200);
    const closed = await close(tenant.key, share.share_id);
    const body = await json(closed);
    expect(closed.status).toBe(200);
    expect(body).toMatchObject({ share_id: share.share_id, state: "closed", expires_at: share.expires_at });
    expect(body.closed_at).toEqual(expect.any(String));
    const again = await json(await close(tenant.key, share.share_id));
    expect(again.closed_at).toBe(body.closed_at);

    const unknown = await expectGone(await shared("A".repeat(43)));
    expect(await expectGone(await shared(share.token))).toEqual(unknown);
    for (const malformed of ["abc", `${share.token}x`, `${share.token.slice(0, 42)}.`, "%00", "x".repeat(2000)]) {
      expect(await expectGone(await shared(malformed)), malformed).toEqual(unknown);
    }
    expect(unknown.code).toBe("svc.resource.not_found");
    const listed = await json(await list(tenant.key, verifyId, "?limit=100"));
    expect(listed.items.find((s: { share_id: string }) => s.share_id === share.share_id)).toMatchObject({
      state: "closed",
      closed_at: body.closed_at,
    });
  });

  it("an expired share answers the same 404 and lists as expired", async () => {
    const { tenant, verifyId } = setup;
    const share = await json(await issue(tenant.key, verifyId, { expires_in_seconds: 60 }));
    expect(Date.parse(share.expires_at) - Date.parse(share.created_at)).toBe(60_000);
    expect((await shared(share.token)).status).toBe(200);
    await testEnv.DB.prepare("UPDATE verification_shares SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, share.share_id)
      .run();
    const unknown = await expectGone(await shared("B".repeat(43)));
    expect(await expectGone(await shared(share.token))).toEqual(unknown);
    const listed = await json(await list(tenant.key, verifyId, "?limit=100"));
    expect(listed.items.find((s: { share_id: string }) => s.share_id === share.share_id).state).toBe("expired");
  });

  it("a deactivated tenant's shares stop working", async () => {
    const tenant = await createTenant();
    const { bytes } = await signedCopy(tenant.key, fixture("sample.png"), "image/png");
    const verificationId = (await json(await verifyFile(bytes, { key: tenant.key }))).verification_id;
    const share = await json(await issue(tenant.key, verificationId));
    expect((await shared(share.token)).status).toBe(200);
    await testEnv.DB.prepare("UPDATE tenants SET status = 'deactivated' WHERE id = ?").bind(tenant.tenantId).run();
    await expectGone(await shared(share.token));
  }, 180_000);

  it("Idempotency-Key is required, and a completed issue is never replayed (secret_not_replayable)", async () => {
    const { tenant, verifyId } = setup;
    const missing = await issue(tenant.key, verifyId, {}, null);
    expect(missing.status).toBe(422);
    expect((await json(missing)).code).toBe("svc.idempotency.key_required");

    const key = crypto.randomUUID();
    const first = await issue(tenant.key, verifyId, { label: "once" }, key);
    expect(first.status).toBe(201);
    const replay = await issue(tenant.key, verifyId, { label: "once" }, key);
    expect(replay.status).toBe(409);
    expect((await json(replay)).code).toBe("secret_not_replayable");
    const reused = await issue(tenant.key, verifyId, { label: "other" }, key);
    expect(reused.status).toBe(409);
    expect((await json(reused)).code).toBe("svc.idempotency.key_reused");
    // Still only one share was issued under that key.
    const listed = await json(await list(tenant.key, verifyId, "?limit=100"));
    expect(listed.items.filter((s: { label: string }) => s.label === "once")).toHaveLength(1);
  });

  it("a body is optional; its fields are validated", async () => {
    const { tenant, verifyId } = setup;
    const bare = await api(`/v1/verification-evidence/${verifyId}/shares`, {
      method: "POST",
      key: tenant.key,
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const share = await json(bare);
    expect(bare.status, JSON.stringify(share)).toBe(201);
    expect(share.label).toBeNull();
    expect(Date.parse(share.expires_at) - Date.parse(share.created_at)).toBe(7 * 24 * 3600 * 1000);
    for (const [body, field] of [
      [{ expires_in_seconds: 59 }, "expires_in_seconds"],
      [{ expires_in_seconds: 30 * 24 * 3600 + 1 }, "expires_in_seconds"],
      [{ expires_in_seconds: 1.5 }, "expires_in_seconds"],
      [{ label: "x".repeat(201) }, "label"],
      [{ label: "" }, "label"],
    ] as const) {
      const res = await issue(tenant.key, verifyId, body);
      const err = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(err.code).toBe("svc.request.invalid");
      expect(err.field_details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const longest = await issue(tenant.key, verifyId, { expires_in_seconds: 30 * 24 * 3600 });
    expect(longest.status).toBe(201);
  });

  it("errors: malformed ids 422, unknown 404, another tenant 404 (and its close changes nothing), missing scope 403, no key 401", async () => {
    const { tenant, verifyId } = setup;
    const share = await json(await issue(tenant.key, verifyId));

    for (const res of [
      await list(tenant.key, "nope"),
      await issue(tenant.key, "vsh_abcdefghij234567"),
      await close(tenant.key, "vfy_abcdefghij234567"),
    ]) {
      expect(res.status).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
    for (const res of [
      await list(tenant.key, "vfy_aaaaaaaaaaaaaaaa"),
      await issue(tenant.key, "vfy_aaaaaaaaaaaaaaaa"),
      await close(tenant.key, "vsh_aaaaaaaaaaaaaaaa"),
    ]) {
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe("svc.resource.not_found");
    }

    const other = await createTenant();
    for (const [foreign, missing] of [
      [() => list(other.key, verifyId), () => list(other.key, "vfy_aaaaaaaaaaaaaaaa")],
      [() => issue(other.key, verifyId), () => issue(other.key, "vfy_aaaaaaaaaaaaaaaa")],
      [() => close(other.key, share.share_id), () => close(other.key, "vsh_aaaaaaaaaaaaaaaa")],
    ] as const) {
      const a = await foreign();
      const b = await missing();
      expect(a.status).toBe(404);
      expect({ ...(await json(a)), request_id: "" }).toEqual({ ...(await json(b)), request_id: "" });
    }
    expect((await shared(share.token)).status).toBe(200); // the intruder's close did nothing

    const { key: readOnly } = await addKey(tenant.tenantId, { scopes: ["recovery:read"] });
    const { key: writeOnly } = await addKey(tenant.tenantId, { scopes: ["verify:write"] });
    for (const res of [await issue(readOnly, verifyId), await close(readOnly, share.share_id), await list(writeOnly, verifyId)]) {
      expect(res.status).toBe(403);
      expect(Object.keys(await json(res))).toEqual(["detail"]);
    }
    expect((await list(readOnly, verifyId)).status).toBe(200);
    expect((await api(`/v1/verification-evidence/${verifyId}/shares`, {})).status).toBe(401);
    expect((await api(`/v1/verification-shares/${share.share_id}/close`, { method: "POST" })).status).toBe(401);
  });
});
