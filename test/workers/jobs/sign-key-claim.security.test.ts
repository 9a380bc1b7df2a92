import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { claimIdempotencyKey, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "../../../src/platform/idempotency";
import { api, json, testEnv } from "../support/helpers";
import { count, keyRow, sign, uploaded } from "./sign-key-claim.helpers";

/*
 * #19: POST /v1/sign claims its Idempotency-Key in admission's first read (one D1 batch) instead of a round trip of
 * its own before the route. What a key means is unchanged: a key another request holds or completed, or one reused
 * with another body, is answered as before and nothing is written; a key freed meanwhile is claimed and the request
 * runs once.
 */

/** The SQL of every D1 call the app makes: one entry per round trip (a batch's statements joined). */
function recordedEnv(hooks: { batch?: (sql: string, run: () => Promise<D1Result[]>) => Promise<D1Result[]> } = {}) {
  const calls: string[] = [];
  const real = testEnv.DB;
  const sqlOf = (s: D1PreparedStatement) => String((s as unknown as { statement?: string }).statement ?? "");
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === "bind") return (...args: unknown[]) => wrap((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args));
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw")
          return (...args: unknown[]) => {
            calls.push(sqlOf(target));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const DB = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          // The real statements (unwrapped by the proxy's target), as D1 needs them.
          const sql = statements.map(sqlOf).join(";\n");
          calls.push(sql);
          const run = () => Reflect.apply(value, target, [statements]) as Promise<D1Result[]>;
          return hooks.batch ? hooks.batch(sql, run) : run();
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...testEnv, DB } as Bindings, calls };
}

async function nothingWritten(tenant: { tenantId: string; key: string }, assetId: string) {
  expect(await count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenant.tenantId)).toBe(0);
  expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("uploaded");
}

describe("POST /v1/sign: the Idempotency-Key claimed in admission's read (#19)", () => {
  it("takes no round trip of its own: the claim rides in the batch that reads the asset, and the key is completed", async () => {
    const { tenant, body, key, scope } = await uploaded();
    const { env, calls } = recordedEnv();
    const res = await sign(env, tenant.key, key, body);
    expect(res.status, await res.clone().text()).toBe(202);
    const claims = calls.filter((sql) => /insert into "?idempotency_records"?/i.test(sql));
    expect(claims, calls.join("\n---\n")).toHaveLength(1);
    // the one claim is in the admission read's batch (with the asset's read), not a call of its own
    expect(claims[0]).toMatch(/from "?assets"?/i);
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 202 });
    // and the retry is answered the stored answer, no second job
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(again)).job_id).toBe((await json(res)).job_id);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenant.tenantId)).toBe(1);
  });

  it("a key another request holds (live lease): 409 request_in_progress with Retry-After, nothing written", async () => {
    const { tenant, assetId, body, key, scope, fingerprint } = await uploaded();
    const held = await claimIdempotencyKey(database(testEnv.DB), scope, fingerprint, Date.now());
    expect(held.status).toBe("claimed");
    const res = await sign(testEnv, tenant.key, key, body);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.idempotency.request_in_progress");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await nothingWritten(tenant, assetId);
    // the holder's claim is untouched
    expect(await keyRow(scope)).toMatchObject({ state: "in_flight", locked_until: held.status === "claimed" ? held.lease : -1 });
  });

  it("the same key with another body: 409 key_reused, nothing written", async () => {
    const { tenant, assetId, body, key } = await uploaded();
    // the key's first use: a malformed asset id, refused (422) and stored under the key
    const first = await sign(testEnv, tenant.key, key, { ...body, asset_id: "nope" });
    expect(first.status).toBe(422);
    const res = await sign(testEnv, tenant.key, key, body);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.idempotency.key_reused");
    await nothingWritten(tenant, assetId);
  });

  it("a key taken by a retry just before the read's batch: the batch writes no claim, the request answers 409", async () => {
    const { tenant, assetId, body, key, scope, fingerprint } = await uploaded();
    const { env } = recordedEnv({
      batch: async (sql, run) => {
        if (/INSERT INTO idempotency_records/.test(sql)) await claimIdempotencyKey(database(testEnv.DB), scope, fingerprint, Date.now());
        return run();
      },
    });
    const res = await sign(env, tenant.key, key, body);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.idempotency.request_in_progress");
    await nothingWritten(tenant, assetId);
  });

  it("a key freed between the failed batch and the claim after it: claimed then, the request runs once", async () => {
    const { tenant, body, key, scope, fingerprint } = await uploaded();
    let failedOnce = false;
    const { env, calls } = recordedEnv({
      batch: async (sql, run) => {
        if (failedOnce || !/INSERT INTO idempotency_records/.test(sql)) return run();
        failedOnce = true;
        // another request holds the key when the batch runs, and releases it right after
        const held = await claimIdempotencyKey(database(testEnv.DB), scope, fingerprint, Date.now());
        try {
          return await run();
        } finally {
          if (held.status === "claimed")
            await testEnv.DB.prepare("DELETE FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ? AND locked_until = ?")
              .bind(scope.tenantId, key, held.lease)
              .run();
        }
      },
    });
    const res = await sign(env, tenant.key, key, body);
    expect(res.status, await res.clone().text()).toBe(202);
    expect(failedOnce).toBe(true);
    // the read ran again without a claim in it, after the claim of its own
    expect(calls.filter((sql) => /from "?assets"?/i.test(sql) && /from "?wallets"?/i.test(sql)).length).toBe(2);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenant.tenantId)).toBe(1);
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 202 });
  });

  it("an expired completed key is claimed afresh in the batch: the request runs", async () => {
    const { tenant, body, key, scope, fingerprint } = await uploaded();
    const past = Date.now() - IDEMPOTENCY_TTL_MS - IDEMPOTENCY_LEASE_MS;
    await testEnv.DB.prepare(
      `INSERT INTO idempotency_records (tenant_id, operation, idempotency_key, request_sha256, state, locked_until, response_status, response_content_type, response_body, secret_withheld, created_at, expires_at)
       VALUES (?, 'POST /v1/sign', ?, ?, 'completed', ?, 404, 'application/json', '{}', 0, ?, ?)`,
    )
      .bind(scope.tenantId, key, fingerprint, past, past, past + IDEMPOTENCY_TTL_MS)
      .run();
    const res = await sign(testEnv, tenant.key, key, body);
    expect(res.status, await res.clone().text()).toBe(202);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 202 });
  });

  it("a request refused before admission's read (an invalid body) still stores its answer under the key", async () => {
    const { tenant, key } = await uploaded();
    const bad = { recipe_id: "rcp_system_express_watermark_then_sign", mode: "standard" };
    const first = await sign(testEnv, tenant.key, key, bad);
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).toBeLessThan(500);
    const again = await sign(testEnv, tenant.key, key, bad);
    expect(again.status).toBe(first.status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});
