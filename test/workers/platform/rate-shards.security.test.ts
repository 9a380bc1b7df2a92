import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PUBLIC_VERIFY_PER_MINUTE } from "../../../src/catalog/limits";
import type { Bindings } from "../../../src/env";
import { anonymousRateBuckets } from "../../../src/platform/client-address";
import { ANON_SHARDS, KEY_SHARDS, shardOf } from "../../../src/platform/rate-lease";
import { api } from "../support/helpers";

/*
 * #19: anonymous rate buckets (one per network address) share ANON_SHARDS RateLimiter objects, fewer than the keyed
 * set, so a public call finds its object running. Sharing an object must never merge buckets: each address is still
 * limited exactly, under concurrency, whatever else its shard holds.
 */

const env = rawEnv as unknown as Bindings;

/** An anonymous POST /v1/verify that is charged and then refused cheaply (nothing to verify: 400). */
const publicVerify = (address: string) => api("/v1/verify", { method: "POST", body: {}, headers: { "cf-connecting-ip": address } });

const bucketOf = async (address: string) =>
  (await anonymousRateBuckets(new Headers({ "cf-connecting-ip": address }), env, "verify_public", PUBLIC_VERIFY_PER_MINUTE))[0]!.name;

describe("#19 rate limiter shards", () => {
  it("#19 anonymous buckets spread over all ANON_SHARDS anonymous objects, keys and tenants over KEY_SHARDS others", () => {
    const anon = new Set<string>();
    const keyed = new Set<string>();
    for (let i = 0; i < 4_000; i++) {
      anon.add(shardOf(`verify_public:${i.toString(36)}`));
      keyed.add(shardOf(`api_key:key_${i}`));
      keyed.add(shardOf(`verify_tenant:ten_${i}`));
    }
    expect(ANON_SHARDS).toBeLessThan(KEY_SHARDS);
    expect(anon.size).toBe(ANON_SHARDS);
    expect(keyed.size).toBe(KEY_SHARDS);
    for (const shard of anon) expect(shard).toMatch(/^rate-shard:anon:\d+$/);
    for (const shard of keyed) expect(shard).toMatch(/^rate-shard:key:\d+$/);
  });

  it("#19 two addresses in one anonymous shard are limited apart and exactly, with their requests all in flight at once", async () => {
    // Two fresh addresses whose buckets live in the same object.
    const first = `198.18.${Math.floor(Math.random() * 200)}.1`;
    const shard = shardOf(await bucketOf(first));
    let second = "";
    for (let i = 2; i < 255 && !second; i++) {
      const candidate = first.replace(/\.1$/, `.${i}`);
      if (shardOf(await bucketOf(candidate)) === shard) second = candidate;
    }
    expect(second, "no second address in the same shard").not.toBe("");
    const burst = (address: string) => Array.from({ length: PUBLIC_VERIFY_PER_MINUTE * 2 }, () => publicVerify(address));
    const answers = await Promise.all([...burst(first), ...burst(second)]);
    const statuses = (from: number) => answers.slice(from, from + PUBLIC_VERIFY_PER_MINUTE * 2).map((r) => r.status);
    for (const own of [statuses(0), statuses(PUBLIC_VERIFY_PER_MINUTE * 2)]) {
      expect(own.filter((s) => s !== 429)).toHaveLength(PUBLIC_VERIFY_PER_MINUTE);
      expect(own.filter((s) => s === 429)).toHaveLength(PUBLIC_VERIFY_PER_MINUTE);
    }
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(((await refused.json()) as { code: string }).code).toBe("svc.ratelimit.exceeded");
  });
});
