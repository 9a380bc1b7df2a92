import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PUBLIC_VERIFY_PER_MINUTE } from "../../../src/catalog/limits";
import type { Bindings } from "../../../src/env";
import { api } from "../support/helpers";

/*
 * #19: the RateLimiter's side of the anonymous front (rate-lease.ts): units an isolate already admitted are recorded
 * whatever the level (none lost, an excess repaid by refusing longer), and every answer says when one more unit fits.
 */

const env = rawEnv as unknown as Bindings;
const shard = (name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

describe("#19 RateLimiter: reports of units admitted by the anonymous front", () => {
  it("a report charges every unit, past the limit too, and answers when one more fits; the next decision sees them", async () => {
    const stub = shard("rate-shard:test-front-report");
    const [a, b] = [`verify_public:front-${crypto.randomUUID()}`, `verify_public:front-${crypto.randomUUID()}`];
    // a: 9 of 10, one still fits; b: 12 of 10 (three isolates' units reported late), two units over.
    const answers = await stub.report(
      [
        [a, 10, 9],
        [b, 10, 12],
      ],
      60,
    );
    expect(answers[0]).toBe(0);
    expect(answers[1]).toBeGreaterThan(2 * 6_000); // 12 → 9 at 10 a minute: three units' drain
    expect(answers[1]).toBeLessThanOrEqual(3 * 6_000);
    const takeA = await stub.take(a, 10, 60, 1, 0);
    expect(takeA.allowed).toBe(true);
    expect(takeA.fullForMs).toBeGreaterThan(5_000); // now full: the isolate caches it
    const takeB = await stub.take(b, 10, 60, 1, 0);
    expect(takeB.allowed).toBe(false);
    expect(takeB.retryAfterMs).toBeGreaterThan(2 * 6_000);
  });

  it("units carried by a decision (`admitted`) are charged before it, even when it is refused", async () => {
    const stub = shard("rate-shard:test-front-admitted");
    const name = `verify_public:front-${crypto.randomUUID()}`;
    expect((await stub.report([[name, 10, 9]], 60))[0]).toBe(0);
    const refused = await stub.take(name, 10, 60, 1, 0, 0, 1); // the isolate's unreported unit fills it: refused
    expect(refused.allowed).toBe(false);
    const again = await stub.take(name, 10, 60, 1, 0);
    expect(again.allowed).toBe(false); // the carried unit stayed charged
  });
});

describe("#19 public verify through the front", () => {
  const publicVerify = (headers: Record<string, string>) => api("/v1/verify", { method: "POST", body: {}, headers });

  it("one address is refused at exactly the limit, sequentially and with its requests in flight at once, with Retry-After and RateLimit-Policy", async () => {
    const sequential = `198.51.100.${10 + Math.floor(Math.random() * 200)}`;
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_VERIFY_PER_MINUTE + 3; i++) statuses.push((await publicVerify({ "cf-connecting-ip": sequential })).status);
    expect(statuses.slice(0, PUBLIC_VERIFY_PER_MINUTE).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(PUBLIC_VERIFY_PER_MINUTE)).toEqual([429, 429, 429]);
    const burst = `2001:db8:f00:${Math.floor(Math.random() * 9000).toString(16)}::1`;
    const answers = await Promise.all(
      Array.from({ length: 3 * PUBLIC_VERIFY_PER_MINUTE }, () => publicVerify({ "cf-connecting-ip": burst })),
    );
    expect(answers.filter((r) => r.status !== 429)).toHaveLength(PUBLIC_VERIFY_PER_MINUTE);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toBe(`"verify";q=${PUBLIC_VERIFY_PER_MINUTE};w=60`);
    expect(((await refused.json()) as { code: string }).code).toBe("svc.ratelimit.exceeded");
  });

  it("a spoofed X-Forwarded-For or a second CF-Connecting-IP spelling buys no fresh bucket", async () => {
    const address = `203.0.113.${10 + Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < PUBLIC_VERIFY_PER_MINUTE; i++) expect((await publicVerify({ "cf-connecting-ip": address })).status).not.toBe(429);
    for (let i = 0; i < 5; i++) {
      const spoofed = {
        "cf-connecting-ip": address,
        "x-forwarded-for": `192.0.2.${i}`,
        "x-real-ip": `192.0.2.${i}`,
        "true-client-ip": `192.0.2.${i}`,
      };
      expect((await publicVerify(spoofed)).status).toBe(429);
    }
  });
});
