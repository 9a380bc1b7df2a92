import { createExecutionContext } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import { database } from "../../../src/db/client";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { installAuditSink } from "../../../src/platform/audit";
import { OPERATION_POLICIES } from "../../../src/platform/auth/policy";
import { utf8 } from "../../../src/platform/bytes";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_LEASE_MS,
  releaseIdempotencyKey,
} from "../../../src/platform/idempotency";
import { api, createTenant, json, testEnv } from "../support/helpers";

describe("Idempotency-Key on real operations", () => {
  it("replays a stored response for the same request, marked as a replay", async () => {
    const { key } = await createTenant();
    const issued = await json(await api("/v1/api-keys", { method: "POST", key, body: { name: "t", scopes: ["identity:read"] } }));
    const path = `/v1/api-keys/${issued.api_key.api_key_id}`;
    const headers = { "idempotency-key": "revoke-1" };
    const first = await api(path, { method: "DELETE", key, headers });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const replay = await api(path, { method: "DELETE", key, headers });
    expect(replay.status).toBe(200); // not 409 already_revoked: the stored outcome is replayed
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(firstBody);
  });

  it("the same key with a different request answers 409 key_reused", async () => {
    const { key } = await createTenant();
    const headers = { "idempotency-key": "k-reused" };
    const a = await api("/v1/api-keys/key_aaaaaaaaaaaaaaaa", { method: "DELETE", key, headers });
    expect(a.status).toBe(404);
    const b = await api("/v1/api-keys/key_bbbbbbbbbbbbbbbb", { method: "DELETE", key, headers });
    expect(b.status).toBe(409);
    expect((await json(b)).code).toBe("svc.idempotency.key_reused");
  });

  it("a completed command whose response carried a secret is never replayed (secret_not_replayable)", async () => {
    const { key } = await createTenant();
    const init = { method: "POST", key, body: { name: "once", scopes: ["identity:read"] }, headers: { "idempotency-key": "create-1" } };
    const first = await api("/v1/api-keys", init);
    expect(first.status).toBe(201);
    const secret = (await json(first)).secret;
    const replay = await api("/v1/api-keys", init);
    expect(replay.status).toBe(409);
    const body = await json(replay);
    expect(body.code).toBe("secret_not_replayable");
    expect(JSON.stringify(body)).not.toContain(secret);
    // And the secret is not in D1 either.
    const rows = await testEnv.DB.prepare("SELECT response_body FROM idempotency_records WHERE idempotency_key = 'create-1'").all();
    expect(JSON.stringify(rows.results)).not.toContain(secret);
    // Only one key was created.
    const list = await json(await api("/v1/api-keys", { key }));
    expect(list.items.filter((k: { name: string }) => k.name === "once")).toHaveLength(1);
  });

  it("keys are scoped per tenant and per operation", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const headers = { "idempotency-key": "shared-key" };
    expect(
      (await api("/v1/api-keys", { method: "POST", key: a.key, headers, body: { name: "a", scopes: ["identity:read"] } })).status,
    ).toBe(201);
    expect(
      (await api("/v1/api-keys", { method: "POST", key: b.key, headers, body: { name: "b", scopes: ["identity:read"] } })).status,
    ).toBe(201);
    expect((await api("/v1/api-keys/key_aaaaaaaaaaaaaaaa", { method: "DELETE", key: a.key, headers })).status).toBe(404);
  });

  it.each([
    ["has a space", "a b"],
    ["too long", "x".repeat(201)],
    ["non-ASCII", "clé"],
    ["empty", ""],
  ])("an Idempotency-Key that %s answers 422", async (_label, value) => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", {
      method: "POST",
      key,
      headers: { "idempotency-key": value },
      body: { name: "x", scopes: ["identity:read"] },
    });
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("svc.idempotency.key_invalid");
  });

  it("a keyed write's audit append runs alongside the key's completion, and both end before the answer", async () => {
    const { key, tenantId } = await createTenant();
    const completed = () =>
      testEnv.DB.prepare("SELECT response_status FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = 'overlap-1'")
        .bind(tenantId)
        .first<{ response_status: number | null }>();
    let sawCompletion: boolean | null = null;
    let appended = false;
    installAuditSink({
      ...durableAuditSink,
      async append(env, t, drafts) {
        // The append waits (bounded) for the key's completion: written one after the other it never sees it.
        for (let i = 0; i < 50 && !(await completed())?.response_status; i++) await new Promise((r) => setTimeout(r, 20));
        sawCompletion = Boolean((await completed())?.response_status);
        await durableAuditSink.append(env, t, drafts);
        appended = true;
      },
    });
    try {
      // A keyed write that shows no one-time secret (one that does waits for its audit entry: see below).
      const res = await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: 10, declared_media_type: "image/jpeg", mode: "single", sha256: "ab".repeat(32), filename: "o.jpg" },
        headers: { "idempotency-key": "overlap-1" },
      });
      expect(res.status).toBe(201);
      expect(appended).toBe(true); // awaited before the answer left
      expect(sawCompletion).toBe(true);
    } finally {
      installAuditSink(durableAuditSink);
    }
    const events = await json(await api("/v1/governance/audit?action=POST%20%2Fv1%2Fuploads", { key }));
    expect(events.items.length).toBe(1);
  });

  it("a keyed write showing a one-time secret completes its key only once its audit entry landed (#22)", async () => {
    const { key, tenantId } = await createTenant();
    const completed = () =>
      testEnv.DB.prepare("SELECT response_status FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = 'secret-1'")
        .bind(tenantId)
        .first<{ response_status: number | null }>();
    let completedBeforeAppend: boolean | null = null;
    installAuditSink({
      ...durableAuditSink,
      async append(env, t, drafts) {
        completedBeforeAppend = Boolean((await completed())?.response_status);
        await durableAuditSink.append(env, t, drafts);
      },
    });
    try {
      const res = await api("/v1/api-keys", {
        method: "POST",
        key,
        body: { name: "o", scopes: ["identity:read"] },
        headers: { "idempotency-key": "secret-1" },
      });
      expect(res.status).toBe(201);
      expect(completedBeforeAppend).toBe(false);
      expect((await completed())?.response_status).toBe(201);
    } finally {
      installAuditSink(durableAuditSink);
    }
  });

  it("accepts a key of exactly 200 printable characters", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", {
      method: "POST",
      key,
      headers: { "idempotency-key": "!~".repeat(100) },
      body: { name: "x", scopes: ["identity:read"] },
    });
    expect(res.status).toBe(201);
  });
});

describe("Idempotency middleware with a controllable operation", () => {
  // A test-only operation mounted on a real app instance, so in-flight and failure cases can be driven.
  // Files share modules (isolate: false): the entry goes when the file ends, or other files would see the operation.
  OPERATION_POLICIES["POST /test/idempotent"] = { auth: "bearer", scope: "identity:read", idempotency: "required" };
  afterAll(() => {
    delete OPERATION_POLICIES["POST /test/idempotent"];
  });
  const app = createApp();
  let gate: Promise<void> = Promise.resolve();
  let failNext = false;
  let runs = 0;
  app.post("/test/idempotent", async (c) => {
    runs++;
    await gate;
    if (failNext) {
      failNext = false;
      throw new Error("boom");
    }
    return c.json({ run: runs }, 201);
  });
  const call = (key: string, idem: string | null, body = "{}") =>
    app.fetch(
      new Request("http://svc.test/test/idempotent", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(idem ? { "idempotency-key": idem } : {}) },
        body,
      }),
      testEnv,
      createExecutionContext(),
    );

  it("requires the header where the policy says so", async () => {
    const { key } = await createTenant();
    const res = await call(key, null);
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("svc.idempotency.key_required");
  });

  it("a request still in flight with the key answers 409 request_in_progress with Retry-After", async () => {
    const { key } = await createTenant();
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const first = call(key, "inflight-1");
    await new Promise((r) => setTimeout(r, 50));
    const second = await call(key, "inflight-1");
    expect(second.status).toBe(409);
    expect((await json(second)).code).toBe("svc.idempotency.request_in_progress");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await call(key, "inflight-1");
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(await done.json());
    gate = Promise.resolve();
  });

  it("a 5xx outcome releases the key so the retry runs the operation", async () => {
    const { key } = await createTenant();
    failNext = true;
    const failed = await call(key, "retry-after-500");
    expect(failed.status).toBe(500);
    const failedBody = await json(failed);
    expect(failedBody.code).toBe("svc.internal");
    expect(JSON.stringify(failedBody)).not.toContain("boom");
    const before = runs;
    const retried = await call(key, "retry-after-500");
    expect(retried.status).toBe(201);
    expect(runs).toBe(before + 1);
  });

  it("a lapsed lease (the holder's isolate died) is taken over", async () => {
    const { key, tenantId } = await createTenant();
    const db = database(testEnv.DB);
    const scope = { tenantId, operation: "POST /test/idempotent", key: "lapsed" };
    const past = Date.now() - IDEMPOTENCY_LEASE_MS - 1000;
    // Claim with the fingerprint a real request would have, as of a time whose lease has lapsed.
    // Keyed with the pepper (a stored fingerprint is no oracle for the body); canonical JSON of {} is {}.
    const { requestFingerprint } = await import("../../../src/platform/idempotency");
    const fingerprint = await requestFingerprint("POST", new URL("http://svc.test/test/idempotent"), utf8("{}"), testEnv.SVC_KEY_PEPPER!);
    expect((await claimIdempotencyKey(db, scope, fingerprint, past)).status).toBe("claimed");
    const res = await call(key, "lapsed");
    expect(res.status).toBe(201);
  });

  it("a holder whose lease was taken over can neither release nor complete the new holder's claim", async () => {
    const { tenantId } = await createTenant();
    const db = database(testEnv.DB);
    const scope = { tenantId, operation: "POST /test/idempotent", key: "taken-over" };
    const past = Date.now() - IDEMPOTENCY_LEASE_MS - 1000;
    const first = await claimIdempotencyKey(db, scope, "f".repeat(64), past);
    const second = await claimIdempotencyKey(db, scope, "f".repeat(64), Date.now());
    if (first.status !== "claimed" || second.status !== "claimed") throw new Error("both claims expected");
    expect(second.lease).not.toBe(first.lease);
    // The first holder wakes up late and fails: its release must not free the second holder's key...
    await releaseIdempotencyKey(db, scope, first.lease);
    expect((await claimIdempotencyKey(db, scope, "f".repeat(64), Date.now())).status).toBe("conflict");
    // ...nor may it complete it with its own response.
    await completeIdempotencyKey(db, scope, first.lease, { status: 200, contentType: "application/json", body: "{}", withhold: false });
    expect((await claimIdempotencyKey(db, scope, "f".repeat(64), Date.now())).status).toBe("conflict");
    await completeIdempotencyKey(db, scope, second.lease, {
      status: 201,
      contentType: "application/json",
      body: '{"ok":true}',
      withhold: false,
    });
    const replay = await claimIdempotencyKey(db, scope, "f".repeat(64), Date.now());
    expect(replay.status === "replay" && replay.row.responseStatus).toBe(201);
  });
});
