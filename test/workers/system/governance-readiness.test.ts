import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { reconcileDerivedIndex } from "../../../src/derived-index/service";
import worker from "../../../src/index";
import { commercialAuthority, governanceAuthorities } from "../../../src/system/probes";
import { json, testEnv } from "../support/helpers";

const probe = (env: typeof testEnv) => worker.fetch(new Request("http://svc.test/readyz/governance"), env, createExecutionContext());

describe("GET /readyz/governance", () => {
  it("503 names each authority that is not ready: capture trust absent or malformed", async () => {
    await reconcileDerivedIndex(testEnv);
    expect((await probe(testEnv)).status).toBe(200);
    for (const trust of [undefined, "", "{not json"]) {
      const res = await probe({ ...testEnv, SVC_CAPTURE_TRUST: trust });
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({
        capture_authority: false,
        commercial_authority: true,
        derived_index_reconciler: true,
        status: "not_ready",
      });
    }
  });

  it("the commercial authority: no adapter composed is false; the development simulation counts", async () => {
    const res = await probe({ ...testEnv, SVC_PAYMENTS_MODE: "sandbox", SVC_STRIPE_SECRET_KEY: undefined });
    expect(res.status).toBe(503);
    expect((await json(res)).commercial_authority).toBe(false);
    expect(await commercialAuthority({ SVC_ENVIRONMENT: "development" })).toBe(true);
    // Simulation outside development composes nothing.
    expect(await commercialAuthority({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "simulation" })).toBe(false);
    expect(await commercialAuthority({ SVC_ENVIRONMENT: "production" })).toBe(false);
  });

  it("for Stripe, true only when Stripe answers an authenticated read; the answer is reused for a minute", async () => {
    const calls: { url: string; auth: string | null }[] = [];
    const stripe = (status: number) => async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(input), auth: new Headers(init?.headers).get("authorization") });
      return new Response("{}", { status });
    };
    const env = {
      SVC_ENVIRONMENT: "production" as const,
      SVC_PAYMENTS_MODE: "sandbox",
      SVC_STRIPE_SECRET_KEY: "sk_test_readinessok1",
      SVC_STRIPE_API_BASE: "http://stripe.test",
    };
    const now = Date.now();
    expect(await commercialAuthority(env, now, stripe(200))).toBe(true);
    expect(calls).toEqual([{ url: "http://stripe.test/v1/balance", auth: "Bearer sk_test_readinessok1" }]);
    expect(await commercialAuthority(env, now + 30_000, stripe(500))).toBe(true); // cached
    expect(calls).toHaveLength(1);
    expect(await commercialAuthority(env, now + 61_000, stripe(401))).toBe(false); // rejected key
    const unreachable = async () => {
      throw new TypeError("network down");
    };
    expect(await commercialAuthority({ ...env, SVC_STRIPE_SECRET_KEY: "sk_test_readinessdown" }, now, unreachable)).toBe(false);
  });

  it("governanceAuthorities is ready exactly when all three are", async () => {
    await reconcileDerivedIndex(testEnv);
    expect(await governanceAuthorities(testEnv)).toEqual({
      capture_authority: true,
      commercial_authority: true,
      derived_index_reconciler: true,
      ready: true,
    });
    expect((await governanceAuthorities(testEnv, Date.now() + 16 * 60_000)).ready).toBe(false);
  });
});
