import { describe, expect, it } from "vitest";
import { api, createTenant, fixture, json, sha256HexOf, type TestTenant, uploadAsset, waitForJob } from "../support/helpers";

/**
 * Every route that takes a tenant-owned id: a second tenant's key must get exactly what a missing id gets
 * (404, same code), and the owner must still see the resource afterwards. Later areas add their rows here.
 */
interface IdRoute {
  name: string;
  /** Creates the resource as `owner` and returns its id. */
  create: (owner: TestTenant) => Promise<string>;
  /** Requests touching the id; mutating ones must leave the owner's resource untouched. */
  requests: { method: string; path: (id: string) => string; body?: unknown; headers?: Record<string, string> }[];
  /** The owner's view after the other tenant's attempts. */
  ownerCheck: (owner: TestTenant, id: string) => Promise<void>;
  missingId: string;
}

/** A published asset of `owner`, with its job and receipt ids (one per owner, memoized). */
const published = new Map<string, Promise<{ assetId: string; jobId: string; receiptId: string }>>();
function publishedAsset(owner: TestTenant) {
  let p = published.get(owner.tenantId);
  if (!p) {
    p = (async () => {
      const { assetId } = await uploadAsset(owner.key, fixture("sample.png"), "image/png");
      const job = await json(
        await api("/v1/sign", {
          method: "POST",
          key: owner.key,
          body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
          headers: { "idempotency-key": crypto.randomUUID() },
        }),
      );
      const done = await waitForJob(owner.key, job.job_id);
      return { assetId, jobId: job.job_id as string, receiptId: done.result.receipt_id as string };
    })();
    published.set(owner.tenantId, p);
  }
  return p;
}

const idem = () => ({ "idempotency-key": crypto.randomUUID() });

const ROUTES: IdRoute[] = [
  {
    name: "uploads",
    create: async (owner) => {
      const bytes = fixture("sample.png");
      const res = await api("/v1/uploads", {
        method: "POST",
        key: owner.key,
        body: { byte_length: bytes.length, declared_media_type: "image/png", mode: "single", sha256: await sha256HexOf(bytes) },
      });
      return (await json(res)).upload_id;
    },
    requests: [
      { method: "POST", path: (id) => `/v1/uploads/${id}/complete`, body: {}, headers: idem() },
      { method: "POST", path: (id) => `/v1/uploads/${id}/abort` },
    ],
    ownerCheck: async (owner, id) => {
      const res = await api(`/v1/uploads/${id}/complete`, { method: "POST", key: owner.key, body: {}, headers: idem() });
      expect((await json(res)).code).toBe("svc.uploads.bytes_missing"); // still open: not aborted by the intruder
    },
    missingId: "upl_aaaaaaaaaaaaaaaa",
  },
  {
    name: "assets",
    create: async (owner) => (await publishedAsset(owner)).assetId,
    requests: [
      { method: "GET", path: (id) => `/v1/assets/${id}` },
      { method: "GET", path: (id) => `/v1/assets/${id}/detail` },
      { method: "POST", path: (id) => `/v1/assets/${id}/download` },
    ],
    ownerCheck: async (owner, id) => {
      expect((await json(await api(`/v1/assets/${id}`, { key: owner.key }))).status).toBe("published");
    },
    missingId: "ast_aaaaaaaaaaaaaaaa",
  },
  {
    name: "jobs",
    create: async (owner) => (await publishedAsset(owner)).jobId,
    requests: [
      { method: "GET", path: (id) => `/v1/jobs/${id}` },
      { method: "POST", path: (id) => `/v1/jobs/${id}/cancel`, body: {}, headers: idem() },
    ],
    ownerCheck: async (owner, id) => {
      expect((await json(await api(`/v1/jobs/${id}`, { key: owner.key }))).state).toBe("completed");
    },
    missingId: "job_aaaaaaaaaaaaaaaa",
  },
  {
    name: "receipts",
    create: async (owner) => (await publishedAsset(owner)).receiptId,
    requests: [{ method: "GET", path: (id) => `/v1/receipts/${id}` }],
    ownerCheck: async (owner, id) => {
      expect((await api(`/v1/receipts/${id}`, { key: owner.key })).status).toBe(200);
    },
    missingId: "rct_aaaaaaaaaaaaaaaa",
  },
  {
    name: "API keys",
    create: async (owner) => {
      const res = await api("/v1/api-keys", { method: "POST", key: owner.key, body: { name: "victim", scopes: ["identity:read"] } });
      expect(res.status).toBe(201);
      return (await json(res)).api_key.api_key_id;
    },
    requests: [
      { method: "GET", path: (id) => `/v1/api-keys/${id}` },
      { method: "DELETE", path: (id) => `/v1/api-keys/${id}` },
      { method: "GET", path: (id) => `/v1/api-keys/${id}/restrictions` },
      { method: "PUT", path: (id) => `/v1/api-keys/${id}/restrictions`, body: { ip_allowlist: ["10.0.0.0/8"], rate_limit_per_minute: 1 } },
      { method: "GET", path: (id) => `/v1/api-keys/${id}/signing-profile` },
      { method: "PUT", path: (id) => `/v1/api-keys/${id}/signing-profile`, body: { default_recipe_id: null, allowed_recipe_ids: null } },
      { method: "POST", path: (id) => `/v1/api-keys/${id}/rotate`, body: {} },
      { method: "POST", path: (id) => `/v1/api-keys/${id}/rotation/complete` },
      { method: "POST", path: (id) => `/v1/api-keys/${id}/rotation/cancel` },
      { method: "GET", path: (id) => `/v1/api-keys/${id}/retention` },
      { method: "PUT", path: (id) => `/v1/api-keys/${id}/retention`, body: { output_retention_days: 1 } },
    ],
    ownerCheck: async (owner, id) => {
      const res = await api(`/v1/api-keys/${id}`, { key: owner.key });
      expect(res.status).toBe(200);
      const key = await json(res);
      expect(key.status).toBe("active");
      expect(key.rotation).toBeNull(); // not rotated by the intruder
      expect((await json(await api(`/v1/api-keys/${id}/restrictions`, { key: owner.key }))).version).toBe(0);
    },
    missingId: "key_aaaaaaaaaaaaaaaa",
  },
  {
    name: "verification evidence: reports and shares",
    create: async (owner) =>
      (await json(await api(`/v1/jobs/${(await publishedAsset(owner)).jobId}`, { key: owner.key }))).result.verification_id,
    requests: [
      { method: "POST", path: (id) => `/v1/verification-evidence/${id}/reports` },
      { method: "GET", path: (id) => `/v1/verification-evidence/${id}/shares` },
      { method: "POST", path: (id) => `/v1/verification-evidence/${id}/shares`, body: { label: "intruder" }, headers: idem() },
    ],
    ownerCheck: async (owner, id) => {
      const shares = await json(await api(`/v1/verification-evidence/${id}/shares`, { key: owner.key }));
      expect(shares.items).toEqual([]); // the intruder issued no share of it
      expect((await api(`/v1/verification-evidence/${id}/reports`, { method: "POST", key: owner.key })).status).toBe(201);
    },
    missingId: "vfy_aaaaaaaaaaaaaaaa",
  },
  {
    name: "verification reports",
    create: async (owner) => {
      const verificationId = (await json(await api(`/v1/jobs/${(await publishedAsset(owner)).jobId}`, { key: owner.key }))).result
        .verification_id;
      const res = await api(`/v1/verification-evidence/${verificationId}/reports`, { method: "POST", key: owner.key });
      expect(res.status).toBe(201);
      return (await json(res)).report_id;
    },
    requests: [
      { method: "GET", path: (id) => `/v1/verification-reports/${id}` },
      { method: "GET", path: (id) => `/v1/verification-reports/${id}?format=html` },
    ],
    ownerCheck: async (owner, id) => {
      expect((await api(`/v1/verification-reports/${id}?format=html`, { key: owner.key })).status).toBe(200);
    },
    missingId: "vrp_aaaaaaaaaaaaaaaa",
  },
  {
    name: "verification shares",
    create: async (owner) => {
      const verificationId = (await json(await api(`/v1/jobs/${(await publishedAsset(owner)).jobId}`, { key: owner.key }))).result
        .verification_id;
      const res = await api(`/v1/verification-evidence/${verificationId}/shares`, {
        method: "POST",
        key: owner.key,
        body: {},
        headers: idem(),
      });
      expect(res.status).toBe(201);
      return (await json(res)).share_id;
    },
    requests: [{ method: "POST", path: (id) => `/v1/verification-shares/${id}/close` }],
    ownerCheck: async (owner, id) => {
      const verificationId = (await json(await api(`/v1/jobs/${(await publishedAsset(owner)).jobId}`, { key: owner.key }))).result
        .verification_id;
      const shares = await json(await api(`/v1/verification-evidence/${verificationId}/shares`, { key: owner.key }));
      expect(shares.items.find((s: { share_id: string }) => s.share_id === id)).toMatchObject({ state: "active", closed_at: null }); // not closed by the intruder
    },
    missingId: "vsh_aaaaaaaaaaaaaaaa",
  },
];

describe("tenant isolation", () => {
  for (const route of ROUTES) {
    it(`${route.name}: another tenant's id answers exactly like a missing one`, async () => {
      const owner = await createTenant({ name: "owner" });
      const intruder = await createTenant({ name: "intruder" });
      const id = await route.create(owner);
      for (const request of route.requests) {
        const foreign = await api(request.path(id), {
          method: request.method,
          key: intruder.key,
          body: request.body,
          headers: request.headers,
        });
        const missing = await api(request.path(route.missingId), {
          method: request.method,
          key: intruder.key,
          body: request.body,
          headers: { ...request.headers, "idempotency-key": crypto.randomUUID() },
        });
        expect(foreign.status, `${request.method} foreign`).toBe(404);
        expect(missing.status, `${request.method} missing`).toBe(404);
        const a = await json(foreign);
        const b = await json(missing);
        expect({ ...a, request_id: "" }).toEqual({ ...b, request_id: "" });
      }
      await route.ownerCheck(owner, id);
    });
  }

  it("lists only ever show the caller's own rows", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const res = await api("/v1/api-keys?limit=100", { key: b.key });
    const ids = (await json(res)).items.map((k: { api_key_id: string }) => k.api_key_id);
    expect(ids).toContain(b.keyId);
    expect(ids).not.toContain(a.keyId);
    await publishedAsset(a);
    for (const path of ["/v1/assets", "/v1/jobs", "/v1/receipts"]) {
      const page = await json(await api(path, { key: b.key }));
      expect(page.items, path).toEqual([]);
    }
    expect((await json(await api("/v1/assets", { key: b.key }))).total_count).toBe(0);
  });
});
