import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import worker from "../../../src/index";
import { anonymousRateBuckets, chargeRateBuckets, clientAddress, UNATTRIBUTED_POOL_FACTOR } from "../../../src/platform/client-address";

/** Charges an anonymous call of `family`, as the public routes do. */
const chargeAnonymousCaller = async (env: typeof devEnv, headers: Headers, family: string, perMinute: number) =>
  chargeRateBuckets(env.RATE_LIMITER, await anonymousRateBuckets(headers, env, family, perMinute));

import { PUBLIC_VERIFY_PER_MINUTE } from "../../../src/catalog/limits";
import { api, createTenant, json } from "../support/helpers";

/*
 * Issue #13.15: client addresses. CF-Connecting-IP is the client's address only where SVC_TRUST_CF_CONNECTING_IP
 * says the Worker runs behind something that sets it (Cloudflare's edge in production, wrangler dev locally);
 * callers without a known address never share one global public bucket.
 */

const devEnv = rawEnv as unknown as Bindings;

async function fetchWith(env: Bindings, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch!(new Request(`http://svc.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** An anonymous POST /v1/verify that is charged and then refused cheaply (nothing to verify: 400). */
const publicVerify = (headers: Record<string, string>) => api("/v1/verify", { method: "POST", body: {}, headers: { ...headers } });

describe("#13.15 client addresses", () => {
  it("#13.15 CF-Connecting-IP is the address only when SVC_TRUST_CF_CONNECTING_IP is true; malformed or absent is unknown", () => {
    const headers = new Headers({ "cf-connecting-ip": "198.51.100.7" });
    expect(clientAddress(headers, { SVC_TRUST_CF_CONNECTING_IP: "true" })).toMatchObject({ known: true, address: "198.51.100.7" });
    for (const trust of [undefined, "false", "TRUE", "1"]) {
      expect(clientAddress(headers, { SVC_TRUST_CF_CONNECTING_IP: trust }), String(trust)).toEqual({ known: false, reason: "untrusted" });
    }
    expect(clientAddress(new Headers(), { SVC_TRUST_CF_CONNECTING_IP: "true" })).toEqual({ known: false, reason: "absent" });
    expect(clientAddress(new Headers({ "cf-connecting-ip": "unknown" }), { SVC_TRUST_CF_CONNECTING_IP: "true" })).toEqual({
      known: false,
      reason: "malformed",
    });
    expect(clientAddress(new Headers({ "cf-connecting-ip": "198.51.100.7, 10.0.0.1" }), { SVC_TRUST_CF_CONNECTING_IP: "true" })).toEqual({
      known: false,
      reason: "malformed",
    });
    // The local default: [env.dev] trusts what wrangler dev sets (the TCP peer, or what a local caller sent).
    expect(devEnv.SVC_TRUST_CF_CONNECTING_IP).toBe("true");
  });

  it("#13.15 an IP allowlist is checked against a trusted address only: untrusted, the header admits nobody", async () => {
    const admin = await createTenant();
    const issued = await json(
      await api("/v1/api-keys", { method: "POST", key: admin.key, body: { name: "allowlisted", scopes: ["identity:read"] } }),
    );
    const key = issued.secret as string;
    const set = await api(`/v1/api-keys/${issued.api_key.api_key_id}/restrictions`, {
      method: "PUT",
      key: admin.key,
      body: { ip_allowlist: ["198.51.100.0/24"], rate_limit_per_minute: null },
    });
    expect(set.status, await set.clone().text()).toBe(200);
    const me = (env: Bindings, ip?: string) =>
      fetchWith(env, "/v1/me", { headers: { authorization: `Bearer ${key}`, ...(ip ? { "cf-connecting-ip": ip } : {}) } });
    expect((await me(devEnv, "198.51.100.7")).status).toBe(200);
    expect((await me(devEnv, "203.0.113.9")).status).toBe(403);
    const untrusting = { ...devEnv, SVC_TRUST_CF_CONNECTING_IP: "false" } as unknown as Bindings;
    const refused = await me(untrusting, "198.51.100.7");
    expect(refused.status).toBe(403);
    expect((await json(refused)).code).toBe("API_KEY_IP_NOT_ALLOWED");
    expect((await me(devEnv)).status).toBe(403);
  });

  it("#13.15 callers without a known address do not share one public bucket: one of them exhausting its limit leaves the others served", async () => {
    const attacker = { "user-agent": "flood/1.0" };
    for (let i = 0; i < PUBLIC_VERIFY_PER_MINUTE; i++) expect((await publicVerify(attacker)).status).not.toBe(429);
    const limited = await publicVerify(attacker);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another caller without an address, and callers with one, are still served.
    expect((await publicVerify({ "user-agent": "Mozilla/5.0 (a reader)", "accept-language": "fr" })).status).not.toBe(429);
    expect((await publicVerify({ "cf-connecting-ip": "192.0.2.200" })).status).not.toBe(429);
  });

  it("#13.15 calls from Cloudflare Workers (one shared egress address) are not charged to that address's bucket", async () => {
    const family = `test_egress_${crypto.randomUUID()}`;
    const perMinute = 2;
    const charge = (ua: string) =>
      chargeAnonymousCaller(devEnv, new Headers({ "user-agent": ua, "cf-connecting-ip": "2a06:98c0:3600::103" }), family, perMinute);
    // One Worker exhausting its limit...
    for (let i = 0; i < perMinute; i++) expect((await charge("hostile-worker")).decision.allowed).toBe(true);
    expect((await charge("hostile-worker")).decision.allowed).toBe(false);
    // ...leaves another integrator's Worker served.
    expect((await charge("integrator-worker")).decision.allowed).toBe(true);
  });

  it("#13.15 rotating request fingerprints without an address is bounded by the unattributed pool", async () => {
    const family = `test_pool_${crypto.randomUUID()}`;
    const perMinute = 2;
    const charge = (ua: string, ip?: string) =>
      chargeAnonymousCaller(devEnv, new Headers({ "user-agent": ua, ...(ip ? { "cf-connecting-ip": ip } : {}) }), family, perMinute);
    for (let i = 0; i < perMinute * UNATTRIBUTED_POOL_FACTOR; i++)
      expect((await charge(`rotating-${i}`)).decision.allowed, String(i)).toBe(true);
    const refused = await charge("rotating-fresh");
    expect(refused.decision.allowed).toBe(false);
    expect(refused.perMinute).toBe(perMinute * UNATTRIBUTED_POOL_FACTOR);
    // A caller with a known address never shares the pool.
    expect((await charge("rotating-fresh", "192.0.2.9")).decision.allowed).toBe(true);
    // And one fingerprint alone stops at its own limit, well before the pool.
    const other = `test_pool_${crypto.randomUUID()}`;
    const one = () => chargeAnonymousCaller(devEnv, new Headers({ "user-agent": "same" }), other, perMinute);
    expect((await one()).decision.allowed).toBe(true);
    expect((await one()).decision.allowed).toBe(true);
    const own = await one();
    expect(own).toMatchObject({ decision: { allowed: false }, perMinute });
  });

  it("#13.15 an IPv6 caller is one bucket per /64, so it cannot spread over its subnet's addresses", async () => {
    const a = await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "2001:db8:1:2::1" }), devEnv, "f", 10);
    const b = await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "2001:db8:1:2:ffff:ffff:ffff:fffe" }), devEnv, "f", 10);
    const c = await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "2001:db8:1:3::1" }), devEnv, "f", 10);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    // IPv4 (and IPv4-mapped IPv6) per address; names never carry the address.
    const v4 = await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "192.0.2.1" }), devEnv, "f", 10);
    expect(await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "::ffff:192.0.2.1" }), devEnv, "f", 10)).toEqual(v4);
    expect(await anonymousRateBuckets(new Headers({ "cf-connecting-ip": "192.0.2.2" }), devEnv, "f", 10)).not.toEqual(v4);
    expect(JSON.stringify([a, v4])).not.toMatch(/192\.0\.2|2001:db8/);
    // Through the route: one /64 shares the public verify limit.
    for (let i = 0; i < PUBLIC_VERIFY_PER_MINUTE; i++)
      expect((await publicVerify({ "cf-connecting-ip": `2001:db8:77:1::${i + 1}` })).status).not.toBe(429);
    expect((await publicVerify({ "cf-connecting-ip": "2001:db8:77:1::abcd" })).status).toBe(429);
    expect((await publicVerify({ "cf-connecting-ip": "2001:db8:77:2::1" })).status).not.toBe(429);
  });
});
