import { describe, expect, it } from "vitest";
import { faultyEnv } from "../support/faults";
import { createTenant, fixture, testEnv } from "../support/helpers";
import { createEndpoint } from "../support/webhooks.helpers";
import { addressOnOwnShard, count, expectClean, request, send, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults at the Durable Object calls of the request paths: the rate limiter (a key's limit, a public
 * verification's per-address limit) and the audit chain. A call that fails (the object unreachable, reset or
 * overloaded) answers 503 `svc.dependency.unavailable` (retryable, Retry-After), never a 500. The rate limiter
 * fails closed: a request whose limit could not be charged is refused with that 503, never let through unlimited.
 */

/** A tenant whose key has a per-minute limit (so every request charges the RateLimiter object). */
async function limitedTenant(perMinute: number) {
  const tenant = await createTenant();
  const restrictions = { version: 1, ip_allowlist: [], rate_limit_per_minute: perMinute, updated_at: new Date().toISOString() };
  await testEnv.DB.prepare("UPDATE api_keys SET restrictions = ? WHERE id = ?").bind(JSON.stringify(restrictions), tenant.keyId).run();
  return tenant;
}

describe("faults at Durable Object calls over HTTP", () => {
  it("a key's rate limiter that cannot answer fails closed: 503, never the request let through", async () => {
    const limiterAnswers: string[] = [];
    const result = await sweep({
      name: "GET /v1/me (rate-limited key)",
      setup: () => limitedTenant(1000),
      request: (s) => request("/v1/me", { key: s.key }),
      success: [200],
      check: async (_s, retried, faulted, site, mode) => {
        expect(retried.body.tenant?.tenant_id ?? retried.body.tenant_id ?? retried.text).toBeTruthy();
        if (site.detail !== "RATE_LIMITER.take") return;
        limiterAnswers.push(`${mode} ${faulted.status}`);
        // The limiter's decision was lost (not made, or made and not heard): the request is refused, retryably.
        expect(faulted.status, `${mode}: ${faulted.text.slice(0, 200)}`).toBe(503);
        expect(faulted.body.code).toBe("svc.dependency.unavailable");
      },
    });
    console.log(table("GET /v1/me (rate-limited key)", result));
    expect(
      result.sites.some((s) => s.detail === "RATE_LIMITER.take"),
      "the probe charged the limiter",
    ).toBe(true);
    expect(limiterAnswers).toEqual(["error 503", "crash-after 503"]);
  });

  it("a public verification whose per-address limiter fails answers 503 with Retry-After and verifies nothing", async () => {
    const bytes = fixture("sample.jpg");
    const form = () => {
      const f = new FormData();
      f.append("file", new File([bytes as Uint8Array<ArrayBuffer>], "photo.jpg"));
      return f;
    };
    // An address of its own per trial (its own /64: an IPv6 caller's bucket is its /64), on a rate shard of its own:
    // a lease or front grant this isolate holds for a reused one would skip the limiter call. So the trials run at
    // once (each public verify's waitUntil keeps its front grant's 10 s timer and the settle after it).
    const shards = new Set<string>();
    const hex = () => crypto.randomUUID().slice(0, 4);
    const result = await sweep(
      {
        name: "POST /v1/verify (public)",
        setup: async () => ({ address: await addressOnOwnShard(shards, () => `2001:db8:${hex()}:${hex()}::${hex()}`) }),
        request: (s) => request("/v1/verify", { method: "POST", form, headers: { "cf-connecting-ip": s.address } }),
        success: [200],
        check: async (_s, retried, faulted, site) => {
          expect(retried.body.status).toBeTypeOf("string");
          if (site.detail === "RATE_LIMITER.take") expect(faulted.status, faulted.text.slice(0, 200)).toBe(503);
        },
      },
      { parallel: 8 },
    );
    console.log(table("POST /v1/verify (public)", result));
    expect(
      result.sites.some((s) => s.detail === "RATE_LIMITER.take"),
      "the probe charged the limiter",
    ).toBe(true);
  });

  it("a webhook test event whose per-endpoint allowance cannot be charged is refused (503) and queues nothing", async () => {
    const result = await sweep(
      {
        name: "POST /v1/webhook-endpoints/{id}/test",
        setup: async () => {
          const tenant = await createTenant();
          return { ...tenant, endpointId: (await createEndpoint(tenant.key)).id };
        },
        request: (s) => request(`/v1/webhook-endpoints/${s.endpointId}/test`, { method: "POST", key: s.key }),
        success: [202],
        check: async (s, retried, faulted) => {
          expect(faulted.status, faulted.text.slice(0, 200)).toBe(503);
          expect(faulted.body.code).toBe("svc.dependency.unavailable");
          // The refused request made no event: the one there is, is the retry's.
          expect(await count("webhook_events", "tenant_id = ?", s.tenantId), "one test event").toBe(1);
          expect(retried.body.event_id).toBeTruthy();
        },
      },
      // Only the limiter's sites: the test event's own writes are the webhooks area's (not keyed, so not convergent).
      { only: (site) => site.detail === "RATE_LIMITER.limit" },
    );
    console.log(table("POST /v1/webhook-endpoints/{id}/test", result));
    expect(result.outcomes.length, "both faults at the limiter ran").toBe(2);
  });

  it("GET /v1/governance/audit?verify=true: an audit chain object that cannot give its witness answers 503", async () => {
    const result = await sweep({
      name: "GET /v1/governance/audit?verify=true",
      setup: () => createTenant(),
      request: (s) => request("/v1/governance/audit?verify=true", { key: s.key }),
      success: [200],
      check: async (_s, retried, faulted, site) => {
        expect(retried.body.verification, retried.text.slice(0, 200)).toBeTruthy();
        if (site.detail === "AUDIT_CHAIN.witness") expect(faulted.status, faulted.text.slice(0, 200)).toBe(503);
      },
    });
    console.log(table("GET /v1/governance/audit?verify=true", result));
    expect(
      result.sites.some((s) => s.detail === "AUDIT_CHAIN.witness"),
      "the probe asked for the witness",
    ).toBe(true);
  });

  it("an audit chain that cannot append: a key's one-time secret is withheld (503), the retry issues a working one, audited once", async () => {
    // Every site of the key creation (the audit append among them) was swept in faults-http-keys; here the append
    // is faulted alone, with the stale answer's secret checked: never shown, and the retry's key works.
    const tenant = await createTenant();
    const idem = crypto.randomUUID();
    const create = () =>
      request("/v1/api-keys", {
        method: "POST",
        key: tenant.key,
        body: { name: "audited", scopes: ["identity:read"] },
        headers: { "idempotency-key": idem },
      });
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const faulted = await send(faulty.env, create());
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    expectClean(faulted, "audit append failed");
    expect(faulted.status).toBe(503);
    expect(faulted.text).not.toMatch(/svc_live_/);
    const retried = await send(testEnv, create());
    expect(retried.status, retried.text).toBe(201);
    expect((await send(testEnv, request("/v1/me", { key: retried.body.secret }))).status).toBe(200);
    expect(await count("api_keys", "tenant_id = ? AND name = 'audited'", tenant.tenantId)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'POST /v1/api-keys'", tenant.tenantId)).toBe(1);
  });
});
