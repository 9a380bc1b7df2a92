import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredRetention } from "../../../src/assets/retention";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import { database } from "../../../src/db/client";
import { imageServices } from "../../../src/media";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { lookupScope } from "../../../src/soft-bindings/service";
import { addKey, api, BASE, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";

/*
 * Who sees what through the C2PA Soft Binding Resolution API: global lookups over published assets that never
 * name a tenant, tenant-scoped lookups only with a key holding recovery:read, nothing past retention or without
 * a manifest, and the public content lookup rate limited per network address.
 */

const SBR = "/v1/soft-binding-resolution";
const WM = `svc.watermark.${SVC_IMAGE_WATERMARK}`;
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromHex = (text: string) => Uint8Array.from(text.match(/../g)!, (h) => parseInt(h, 16));

async function publish(key: string, source: Uint8Array, mediaType: string, body: Record<string, unknown>) {
  const { assetId } = await uploadAsset(key, source, mediaType, "photo");
  const res = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, ...body },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  expect(res.status, await res.clone().text()).toBe(202);
  const job = await waitForJob(key, (await json(res)).job_id, 60_000);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
  return { assetId, job, receipt, manifestId: receipt.evidence.manifest?.active_manifest_label as string | undefined };
}

/** The ISCC binding of a publication, from the soft-binding index row the publication wrote (hex bits → base64). */
async function isccOf(publicationId: string): Promise<string> {
  const row = await testEnv.DB.prepare("SELECT bits FROM soft_bindings WHERE publication_id = ? AND algorithm = 'iscc-image'")
    .bind(publicationId)
    .first<{ bits: string }>();
  return b64(fromHex(row!.bits));
}

function byContent(bytes: Uint8Array, ip: string, key?: string) {
  const headers: Record<string, string> = { "content-type": "image/png", "cf-connecting-ip": ip };
  if (key) headers.authorization = `Bearer ${key}`;
  return exports.default.fetch(
    new Request(`${BASE}${SBR}/matches/byContent`, { method: "POST", body: bytes as Uint8Array<ArrayBuffer>, headers }),
  );
}

describe("lookupScope (the policy, pure)", () => {
  const key = {
    kind: "api_key",
    tenantId: "ten_a",
    apiKeyId: "key_a",
    rateLimitPerMinute: null,
    signingProfile: null,
    outputRetentionDays: null,
  } as const;
  it("global for anyone; tenant only for a key holding recovery:read; always resolvable publications only", () => {
    expect(lookupScope({ kind: "anonymous" }, undefined)).toEqual({
      status: "ok",
      scope: "global",
      filter: { tenantId: null, resolvableOnly: true },
    });
    expect(lookupScope({ kind: "anonymous" }, "global")).toMatchObject({ scope: "global" });
    expect(lookupScope({ kind: "anonymous" }, "tenant")).toEqual({ status: "credential_required" });
    expect(lookupScope({ ...key, scopes: new Set(["recovery:read"]) }, undefined)).toMatchObject({
      scope: "global",
      filter: { tenantId: null },
    });
    expect(lookupScope({ ...key, scopes: new Set(["recovery:read"]) }, "tenant")).toEqual({
      status: "ok",
      scope: "tenant",
      filter: { tenantId: "ten_a", resolvableOnly: true },
    });
    expect(lookupScope({ ...key, scopes: new Set(["assets:read"]) }, "tenant")).toEqual({ status: "scope_missing" });
  });
});

describe("tenancy: global by default, tenant-scoped on request", () => {
  let a: Awaited<ReturnType<typeof createTenant>>;
  let b: Awaited<ReturnType<typeof createTenant>>;
  let pa: Awaited<ReturnType<typeof publish>>;
  let pb: Awaited<ReturnType<typeof publish>>;
  let iscc: string;

  beforeAll(async () => {
    a = await createTenant();
    b = await createTenant();
    // The same image published by two tenants: identical fingerprints, two manifests.
    pa = await publish(a.key, fixture("sample.png"), "image/png", {
      recipe_id: "rcp_system_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    pb = await publish(b.key, fixture("sample.png"), "image/png", {
      recipe_id: "rcp_system_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    iscc = await isccOf(pa.job.result.publication_id);
    expect(await isccOf(pb.job.result.publication_id)).toBe(iscc);
  }, 120_000);

  it("anonymous and keyed global lookups see every tenant's publication and name only manifests", async () => {
    for (const key of [undefined, a.key, b.key]) {
      const res = await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}`, { key: key ?? null });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(JSON.parse(text).matches.map((m: { manifestId: string }) => m.manifestId)).toEqual([pa.manifestId, pb.manifestId]);
      for (const secret of [a.tenantId, b.tenantId, pa.assetId, pb.assetId, pa.job.result.publication_id, pa.job.job_id])
        expect(text).not.toContain(secret);
      expect(text).not.toMatch(/ten_|ast_|pub_|job_|key_/);
    }
  });

  it("scope=tenant with a recovery:read key sees only its own tenant's publications", async () => {
    const own = await json(
      await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}&scope=tenant`, { key: a.key }),
    );
    expect(own.matches.map((m: { manifestId: string }) => m.manifestId)).toEqual([pa.manifestId]);
    const theirs = await json(
      await api(`${SBR}/matches/byBinding?scope=tenant`, { method: "POST", key: b.key, body: { alg: "io.iscc.v0", value: iscc } }),
    );
    expect(theirs.matches.map((m: { manifestId: string }) => m.manifestId)).toEqual([pb.manifestId]);
    // A tenant with no such publication gets nothing, where the global lookup would find two.
    const c = await createTenant({ scopes: ["recovery:read"] });
    expect(
      await json(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}&scope=tenant`, { key: c.key })),
    ).toEqual({ matches: [] });
    // By content too.
    const scoped = await json(
      await exports.default.fetch(
        new Request(`${BASE}${SBR}/matches/byContent?scope=tenant&alg=io.iscc.v0`, {
          method: "POST",
          body: fixture("sample.png") as Uint8Array<ArrayBuffer>,
          headers: { "content-type": "image/png", authorization: `Bearer ${b.key}` },
        }),
      ),
    );
    expect(scoped.matches.map((m: { manifestId: string }) => m.manifestId)).toEqual([pb.manifestId]);
  });

  it("scope=tenant without a key is 401; with a key lacking recovery:read 403 (global lookups stay open to it); a bad key is 401 even without scope", async () => {
    const anonymous = await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}&scope=tenant`);
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({ code: "svc.resolution.credential_required" });
    const posted = await api(`${SBR}/matches/byBinding?scope=tenant`, { method: "POST", body: { alg: "io.iscc.v0", value: iscc } });
    expect((await json(posted)).code).toBe("svc.resolution.credential_required");

    const { key: narrow } = await addKey(a.tenantId, { scopes: ["assets:read"] });
    const tenantScoped = await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}&scope=tenant`, {
      key: narrow,
    });
    expect(tenantScoped.status).toBe(403);
    expect(await json(tenantScoped)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    // Without the scope, a valid key may still do what anyone may: global lookups and public manifests.
    for (const path of [
      `${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}`,
      `${SBR}/manifests/${encodeURIComponent(pa.manifestId!)}`,
    ]) {
      expect((await api(path, { key: narrow })).status, path).toBe(200);
    }
    const { key: revoked } = await addKey(a.tenantId, { status: "revoked" });
    for (const key of [revoked, "svc_live_not-a-key"]) {
      const res = await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(iscc)}`, { key });
      expect(res.status).toBe(401);
      expect((await json(res)).code).toBe("svc.auth.invalid_key");
    }
  });

  it("manifests and the algorithm list are public", async () => {
    expect((await api(`${SBR}/manifests/${encodeURIComponent(pb.manifestId!)}`)).status).toBe(200);
    expect((await api(`${SBR}/manifests/${encodeURIComponent(pb.manifestId!)}`, { key: a.key })).status).toBe(200);
    expect((await api(`${SBR}/services/supportedAlgorithms`)).status).toBe(200);
  });
});

describe("only resolvable publications are found", () => {
  it("a watermark-only output (no manifest) is never a match", async () => {
    const { key } = await createTenant();
    const p = await publish(key, fixture("sample-1mp.jpg"), "image/jpeg", { recipe_id: "rcp_system_watermark_only" });
    expect(p.manifestId).toBeUndefined();
    const payload = b64(fromHex(p.receipt.evidence.watermark.payload));
    expect(await json(await api(`${SBR}/matches/byBinding?alg=${WM}&value=${encodeURIComponent(payload)}`))).toEqual({ matches: [] });
    expect(await json(await api(`${SBR}/matches/byBinding?alg=${WM}&value=${encodeURIComponent(payload)}&scope=tenant`, { key }))).toEqual({
      matches: [],
    });
  });

  it("past its retention, a publication is neither matched nor its manifest served", async () => {
    const admin = await createTenant();
    const issued = await json(
      await api("/v1/api-keys", {
        method: "POST",
        key: admin.key,
        body: { name: "short-lived", scopes: ["sign:write", "jobs:read", "assets:read", "uploads:write"] },
      }),
    );
    await api(`/v1/api-keys/${issued.api_key.api_key_id}/retention`, { method: "PUT", key: admin.key, body: { output_retention_days: 1 } });
    const { codec } = await imageServices();
    const data = new Uint8Array(300 * 200 * 4).map((_, i) => (i % 4 === 3 ? 255 : ((i >> 2) * 13 + ((i >> 9) & 31) * 7) & 255));
    const encoded = await codec.encode({ width: 300, height: 200, data }, "image/png", new Uint8Array());
    if (encoded.status !== "encoded") throw new Error("encode");
    const p = await publish(issued.secret, encoded.bytes, "image/png", {
      recipe_id: "rcp_system_sign",
      fingerprint_algorithms: ["iscc-image"],
    });
    const value = encodeURIComponent(await isccOf(p.job.result.publication_id));
    const manifestPath = `${SBR}/manifests/${encodeURIComponent(p.manifestId!)}`;
    expect((await json(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${value}`))).matches).toEqual([
      { manifestId: p.manifestId, similarityScore: 100 },
    ]);
    expect((await api(manifestPath)).status).toBe(200);

    const { retention_until } = (await testEnv.DB.prepare("SELECT retention_until FROM assets WHERE id = ?")
      .bind(p.assetId)
      .first<{ retention_until: number }>())!;
    expect(await sweepExpiredRetention(database(testEnv.DB), testEnv.OBJECTS, retention_until + 1)).toBe(1);
    expect(await json(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${value}`))).toEqual({ matches: [] });
    const gone = await api(manifestPath);
    expect(gone.status).toBe(404);
    expect((await json(gone)).code).toBe("svc.resource.not_found");
    // The download answers the same (the media are gone), so nothing is served that retention deleted.
    const d = await api(`/v1/assets/${p.assetId}/download`, { method: "POST", key: admin.key });
    expect(d.status).toBe(410);
  });
});

describe("public content lookups are rate limited per network address", () => {
  it("10 per minute per address, then 429 with Retry-After; another address and a keyed caller are unaffected", async () => {
    const { codec } = await imageServices();
    const data = new Uint8Array(64 * 64 * 4).fill(200);
    const encoded = await codec.encode({ width: 64, height: 64, data }, "image/png", new Uint8Array());
    if (encoded.status !== "encoded") throw new Error("encode");
    const ip = "198.18.0.77";
    for (let i = 0; i < 10; i++) expect((await byContent(encoded.bytes, ip)).status, `request ${i + 1}`).toBe(200);
    const refused = await byContent(encoded.bytes, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toContain("q=10");
    expect(await json(refused)).toMatchObject({ code: "svc.resolution.rate_limited", retryable: true });
    expect((await byContent(encoded.bytes, "198.18.0.78")).status).toBe(200);
    const { key } = await createTenant({ scopes: ["recovery:read"] });
    expect((await byContent(encoded.bytes, ip, key)).status).toBe(200);
    // Binding lookups are index reads, not media work: not charged to the content bucket.
    expect((await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=AAAAAAAAAAA=`, { headers: { "cf-connecting-ip": ip } })).status).toBe(
      200,
    );
  });

  it("binding lookups have their own, looser public limit: 120 per minute per address, then 429", async () => {
    const ip = "198.18.0.99";
    const lookup = () => api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=AAAAAAAAAAA=`, { headers: { "cf-connecting-ip": ip } });
    // The bucket drains at 2 per second while the loop runs, so a few more than 120 may pass before the refusal.
    let allowed = 0;
    let refused: Response | null = null;
    for (let i = 0; i < 140 && !refused; i++) {
      const res = await lookup();
      if (res.status === 429) refused = res;
      else {
        expect(res.status).toBe(200);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(120);
    expect(allowed).toBeLessThan(140);
    if (!refused) throw new Error("never refused");
    expect(refused.headers.get("ratelimit-policy")).toContain("q=120");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
