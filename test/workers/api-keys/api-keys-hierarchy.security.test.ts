import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { apiKeys } from "../../../src/db/schema";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";

/**
 * Issue #13 items 1–3: the key hierarchy. A key acts on another key only when it covers it (every scope held,
 * expiry no later, IP allowlist within, rate limit no higher), and a rotation is a state machine that never
 * reactivates a retired key.
 */

const IP = "203.0.113.7";
const idem = () => ({ "idempotency-key": crypto.randomUUID(), "cf-connecting-ip": IP });
const post = (path: string, key: string, body?: unknown) => api(path, { method: "POST", key, body, headers: idem() });
const put = (path: string, key: string, body: unknown) => api(path, { method: "PUT", key, body, headers: { "cf-connecting-ip": IP } });
const get = (path: string, key: string) => api(path, { key, headers: { "cf-connecting-ip": IP } });

async function narrowKey(tenantId: string) {
  return addKey(tenantId, { scopes: ["api_keys:read", "api_keys:write"] });
}

async function setDeadlineInPast(keyId: string) {
  await database(testEnv.DB)
    .update(apiKeys)
    .set({ rotationDeadline: Date.now() - 1000 })
    .where(eq(apiKeys.id, keyId));
}

describe("#13.1 a narrow key cannot act on a broader key", () => {
  it("#13.1 a key with only api_keys:read+write cannot rotate the all-scope key (403, no secret issued)", async () => {
    const t = await createTenant();
    const narrow = await narrowKey(t.tenantId);
    const res = await post(`/v1/api-keys/${t.keyId}/rotate`, narrow.key, { overlap_seconds: 3600 });
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body.code).toBe("svc.api_keys.outranks_caller");
    expect(JSON.stringify(body)).not.toContain("svc_live_");
    const rows = await database(testEnv.DB).select().from(apiKeys).where(eq(apiKeys.tenantId, t.tenantId));
    expect(rows).toHaveLength(2); // no successor was written
  });

  it("#13.1 nor revoke it, change its restrictions, retention or signing profile, or finish its rotation", async () => {
    const t = await createTenant();
    const narrow = await narrowKey(t.tenantId);
    const rotated = await post(`/v1/api-keys/${t.keyId}/rotate`, t.key, { overlap_seconds: 3600 });
    expect(rotated.status).toBe(201);
    const attempts = [
      await api(`/v1/api-keys/${t.keyId}`, { method: "DELETE", key: narrow.key, headers: idem() }),
      await put(`/v1/api-keys/${t.keyId}/restrictions`, narrow.key, { ip_allowlist: [], rate_limit_per_minute: 1 }),
      await put(`/v1/api-keys/${t.keyId}/retention`, narrow.key, { output_retention_days: 1 }),
      await put(`/v1/api-keys/${t.keyId}/signing-profile`, narrow.key, { default_recipe_id: null, allowed_recipe_ids: null }),
      await post(`/v1/api-keys/${t.keyId}/rotation/complete`, narrow.key),
      await post(`/v1/api-keys/${t.keyId}/rotation/cancel`, narrow.key),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("svc.api_keys.outranks_caller");
    }
    expect((await json(await get(`/v1/api-keys/${t.keyId}`, t.key))).status).toBe("active");
  });

  it("#13.1 a key may manage keys it covers, including itself", async () => {
    const t = await createTenant();
    const narrow = await narrowKey(t.tenantId);
    const child = await json(await post("/v1/api-keys", narrow.key, { name: "child", scopes: ["api_keys:read"] }));
    expect(
      (await put(`/v1/api-keys/${child.api_key.api_key_id}/restrictions`, narrow.key, { ip_allowlist: [], rate_limit_per_minute: 10 }))
        .status,
    ).toBe(200);
    expect((await post(`/v1/api-keys/${child.api_key.api_key_id}/rotate`, narrow.key, { overlap_seconds: 3600 })).status).toBe(201);
    expect((await post(`/v1/api-keys/${narrow.keyId}/rotate`, narrow.key, { overlap_seconds: 3600 })).status).toBe(201);
  });

  it("#13.1 a successor inherits exactly the predecessor's scopes, expiry and restrictions", async () => {
    const t = await createTenant();
    const expiresAt = Date.now() + 86_400_000;
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write", "jobs:read"], expiresAt });
    expect(
      (await put(`/v1/api-keys/${k.keyId}/restrictions`, t.key, { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: 50 })).status,
    ).toBe(200);
    const rotated = await json(await post(`/v1/api-keys/${k.keyId}/rotate`, k.key, { overlap_seconds: 3600 }));
    const successorId = rotated.api_key.api_key_id;
    expect(rotated.api_key.scopes).toEqual(["api_keys:read", "api_keys:write", "jobs:read"]);
    expect(Date.parse(rotated.api_key.expires_at)).toBe(expiresAt);
    const restrictions = await json(await get(`/v1/api-keys/${successorId}/restrictions`, t.key));
    expect(restrictions.ip_allowlist).toEqual(["203.0.113.0/24"]);
    expect(restrictions.rate_limit_per_minute).toBe(50);
  });
});

describe("#13.2 rotation is a state machine", () => {
  async function rotating() {
    const t = await createTenant();
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write"] });
    const rotated = await json(await post(`/v1/api-keys/${k.keyId}/rotate`, t.key, { overlap_seconds: 3600 }));
    return { t, k, successorId: rotated.api_key.api_key_id as string, successorSecret: rotated.secret as string };
  }

  it("#13.2 cancel after complete is 409 and revokes nothing more", async () => {
    const { t, k, successorId, successorSecret } = await rotating();
    expect((await post(`/v1/api-keys/${k.keyId}/rotation/complete`, t.key)).status).toBe(200);
    const res = await post(`/v1/api-keys/${k.keyId}/rotation/cancel`, t.key);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.api_keys.rotation_ended");
    expect((await get(`/v1/api-keys/${successorId}`, successorSecret)).status).toBe(200); // the successor still works
    expect((await get(`/v1/api-keys/${k.keyId}`, k.key)).status).toBe(401); // the retired key stays retired
  });

  it("#13.2 complete after cancel is 409 and the successor stays revoked", async () => {
    const { t, k, successorId, successorSecret } = await rotating();
    expect((await post(`/v1/api-keys/${k.keyId}/rotation/cancel`, t.key)).status).toBe(200);
    const res = await post(`/v1/api-keys/${k.keyId}/rotation/complete`, t.key);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.api_keys.rotation_ended");
    expect((await get(`/v1/api-keys/${k.keyId}`, k.key)).status).toBe(200);
    expect((await get(`/v1/api-keys/${successorId}`, successorSecret)).status).toBe(401);
    const view = await json(await get(`/v1/api-keys/${k.keyId}`, t.key));
    expect(view.rotation.state).toBe("canceled");
  });

  it("#13.2 cancel after the overlap lapsed is 409 and never resurrects the outgoing key", async () => {
    const { t, k, successorId } = await rotating();
    await setDeadlineInPast(k.keyId);
    for (const how of ["cancel", "complete"]) {
      const res = await post(`/v1/api-keys/${k.keyId}/rotation/${how}`, t.key);
      expect(res.status).toBe(409);
      expect((await json(res)).code).toBe("svc.api_keys.rotation_ended");
    }
    expect((await get(`/v1/api-keys/${k.keyId}`, k.key)).status).toBe(401);
    const view = await json(await get(`/v1/api-keys/${k.keyId}`, t.key));
    expect(view.status).toBe("expired");
    expect(view.rotation.state).toBe("lapsed");
    expect((await json(await get(`/v1/api-keys/${successorId}`, t.key))).status).toBe("active");
    // A lapsed key cannot start a new rotation either.
    expect((await post(`/v1/api-keys/${k.keyId}/rotate`, t.key, { overlap_seconds: 3600 })).status).toBe(409);
  });

  it("#13.2 a concurrent complete and cancel have exactly one winner", async () => {
    for (let i = 0; i < 5; i++) {
      const { t, k, successorId } = await rotating();
      const [a, b] = await Promise.all([
        post(`/v1/api-keys/${k.keyId}/rotation/complete`, t.key),
        post(`/v1/api-keys/${k.keyId}/rotation/cancel`, t.key),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const pred = await json(await get(`/v1/api-keys/${k.keyId}`, t.key));
      const succ = await json(await get(`/v1/api-keys/${successorId}`, t.key));
      // Exactly one of the two keys works afterwards.
      expect([pred.status, succ.status].filter((s) => s === "active")).toHaveLength(1);
    }
  });

  it("#13.2 a canceled rotation may be followed by a new one; completing needs a live successor", async () => {
    const { t, k, successorId } = await rotating();
    expect((await post(`/v1/api-keys/${k.keyId}/rotation/cancel`, t.key)).status).toBe(200);
    const again = await post(`/v1/api-keys/${k.keyId}/rotate`, t.key, { overlap_seconds: 3600 });
    expect(again.status).toBe(201);
    const second = (await json(again)).api_key.api_key_id;
    expect(second).not.toBe(successorId);
    expect((await api(`/v1/api-keys/${second}`, { method: "DELETE", key: t.key, headers: idem() })).status).toBe(200);
    const res = await post(`/v1/api-keys/${k.keyId}/rotation/complete`, t.key);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.api_keys.rotation_ended");
    expect((await get(`/v1/api-keys/${k.keyId}`, k.key)).status).toBe(200);
  });

  it("#13.2 expired keys are listed as expired, not active", async () => {
    const t = await createTenant();
    const old = await addKey(t.tenantId, { scopes: ["jobs:read"], expiresAt: Date.now() - 1000 });
    const page = await json(await get("/v1/api-keys?limit=100", t.key));
    const item = page.items.find((i: { api_key_id: string }) => i.api_key_id === old.keyId);
    expect(item.status).toBe("expired");
  });
});

describe("#13.3 child keys never outlive or out-rank their parent", () => {
  it("#13.3 a key with an expiry cannot mint a key without one; omitted, the child inherits it", async () => {
    const t = await createTenant();
    const expiresAt = Date.now() + 3_600_000;
    const parent = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write", "jobs:read"], expiresAt });
    const forever = await post("/v1/api-keys", parent.key, { name: "c", scopes: ["jobs:read"], expires_at: null });
    expect(forever.status).toBe(403);
    expect((await json(forever)).code).toBe("svc.api_keys.outranks_caller");
    const later = await post("/v1/api-keys", parent.key, {
      name: "c",
      scopes: ["jobs:read"],
      expires_at: new Date(expiresAt + 60_000).toISOString(),
    });
    expect(later.status).toBe(403);
    const inherited = await post("/v1/api-keys", parent.key, { name: "c", scopes: ["jobs:read"] });
    expect(inherited.status).toBe(201);
    expect(Date.parse((await json(inherited)).api_key.expires_at)).toBe(expiresAt);
  });

  it("#13.3 a key with an IP allowlist and a rate limit mints children that inherit both", async () => {
    const t = await createTenant();
    const parent = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write", "jobs:read"] });
    expect(
      (await put(`/v1/api-keys/${parent.keyId}/restrictions`, t.key, { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: 100 }))
        .status,
    ).toBe(200);
    const child = await json(await post("/v1/api-keys", parent.key, { name: "c", scopes: ["jobs:read"] }));
    const r = await json(await get(`/v1/api-keys/${child.api_key.api_key_id}/restrictions`, t.key));
    expect(r.ip_allowlist).toEqual(["203.0.113.0/24"]);
    expect(r.rate_limit_per_minute).toBe(100);
    // ...and cannot then loosen the child beyond its own grant.
    const loosen = await put(`/v1/api-keys/${child.api_key.api_key_id}/restrictions`, parent.key, {
      ip_allowlist: [],
      rate_limit_per_minute: 100,
    });
    expect(loosen.status).toBe(403);
  });

  it("#13.3 a restricted key cannot lift its own restrictions, but may tighten them", async () => {
    const t = await createTenant();
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write"] });
    expect(
      (await put(`/v1/api-keys/${k.keyId}/restrictions`, t.key, { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: 100 })).status,
    ).toBe(200);
    for (const body of [
      { ip_allowlist: [], rate_limit_per_minute: 100 },
      { ip_allowlist: ["203.0.113.0/16"], rate_limit_per_minute: 100 },
      { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: null },
      { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: 101 },
    ]) {
      const res = await put(`/v1/api-keys/${k.keyId}/restrictions`, k.key, body);
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("svc.api_keys.outranks_caller");
    }
    expect(
      (await put(`/v1/api-keys/${k.keyId}/restrictions`, k.key, { ip_allowlist: ["203.0.113.0/28"], rate_limit_per_minute: 50 })).status,
    ).toBe(200);
  });
});

describe("#13.1–3 review findings: every ceiling of a key is part of its grant", () => {
  it("#13.1 a key confined by its signing profile cannot widen it, and its children start confined", async () => {
    const t = await createTenant();
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write", "sign:write"] });
    const profile = { default_recipe_id: "rcp_system_sign_only", allowed_recipe_ids: ["rcp_system_sign_only"] };
    expect((await put(`/v1/api-keys/${k.keyId}/signing-profile`, t.key, profile)).status).toBe(200);
    const widen = await put(`/v1/api-keys/${k.keyId}/signing-profile`, k.key, { default_recipe_id: null, allowed_recipe_ids: null });
    expect(widen.status).toBe(403);
    expect((await json(widen)).code).toBe("svc.api_keys.outranks_caller");
    const child = await json(await post("/v1/api-keys", k.key, { name: "c", scopes: ["sign:write"] }));
    const childProfile = await json(await get(`/v1/api-keys/${child.api_key.api_key_id}/signing-profile`, t.key));
    expect(childProfile.allowed_recipe_ids).toEqual(["rcp_system_sign_only"]);
  });

  it("#13.1 a key with a retention cannot lengthen its own, and its children inherit it", async () => {
    const t = await createTenant();
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read", "api_keys:write"] });
    expect((await put(`/v1/api-keys/${k.keyId}/retention`, t.key, { output_retention_days: 30 })).status).toBe(200);
    expect((await put(`/v1/api-keys/${k.keyId}/retention`, k.key, { output_retention_days: 3650 })).status).toBe(403);
    expect((await put(`/v1/api-keys/${k.keyId}/retention`, k.key, { output_retention_days: 7 })).status).toBe(200);
    const child = await json(await post("/v1/api-keys", k.key, { name: "c", scopes: ["api_keys:read"] }));
    expect((await json(await get(`/v1/api-keys/${child.api_key.api_key_id}/retention`, t.key))).output_retention_days).toBe(7);
  });

  it("#13.2 a rotating key cannot be revoked (complete or cancel says which key survives)", async () => {
    const t = await createTenant();
    const k = await addKey(t.tenantId, { scopes: ["api_keys:read"] });
    const rotated = await json(await post(`/v1/api-keys/${k.keyId}/rotate`, t.key, { overlap_seconds: 3600 }));
    const res = await api(`/v1/api-keys/${k.keyId}`, { method: "DELETE", key: t.key, headers: idem() });
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.api_keys.rotation_in_progress");
    expect((await post(`/v1/api-keys/${k.keyId}/rotation/cancel`, t.key)).status).toBe(200);
    expect((await api(`/v1/api-keys/${k.keyId}`, { method: "DELETE", key: t.key, headers: idem() })).status).toBe(200);
    expect((await get("/v1/me", rotated.secret)).status).toBe(401);
    expect((await get("/v1/me", k.key)).status).toBe(401);
  });

  it("#13.2 complete needs a successor that still authenticates (not one whose own overlap lapsed)", async () => {
    const t = await createTenant();
    const p = await addKey(t.tenantId, { scopes: ["api_keys:read"] });
    const s1 = await json(await post(`/v1/api-keys/${p.keyId}/rotate`, t.key, { overlap_seconds: 3600 }));
    const s1Id = s1.api_key.api_key_id;
    expect((await post(`/v1/api-keys/${s1Id}/rotate`, t.key, { overlap_seconds: 3600 })).status).toBe(201);
    await setDeadlineInPast(s1Id);
    const res = await post(`/v1/api-keys/${p.keyId}/rotation/complete`, t.key);
    expect(res.status).toBe(409);
    expect((await get(`/v1/api-keys/${p.keyId}`, p.key)).status).toBe(200);
  });

  it("#13.3 IPv4-mapped allowlist ranges are refused (they would never match)", async () => {
    const t = await createTenant();
    const res = await put(`/v1/api-keys/${t.keyId}/restrictions`, t.key, {
      ip_allowlist: ["::ffff:203.0.113.0/120"],
      rate_limit_per_minute: null,
    });
    expect(res.status).toBe(422);
  });

  it("#13.2 onboarding counts only keys that authenticate", async () => {
    const t = await createTenant();
    await addKey(t.tenantId, { scopes: ["jobs:read"], expiresAt: Date.now() - 1000 });
    const onboarding = await json(await get("/v1/developer-onboarding", t.key));
    expect(JSON.stringify(onboarding.api_keys)).toMatch(/"active_count":1\b/);
  });
});
