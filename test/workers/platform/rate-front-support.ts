import { runInDurableObject } from "cloudflare:test";
import { env as rawEnv } from "cloudflare:workers";
import type { Bindings } from "../../../src/env";
import type { LeasingNamespace } from "../../../src/platform/rate-lease";

/* What the #19 rate front's Workers tests (rate-front.security, rate-front.review) share: the RateLimiter's RPC face. */

export const env = rawEnv as unknown as Bindings;
type LeasingStub = ReturnType<LeasingNamespace["get"]>;
/** The RateLimiter stub as the lease calls it, with the front's settle. */
export type Limiter = DurableObjectStub & Pick<LeasingStub, "take"> & Required<Pick<LeasingStub, "settle">>;

/** A fresh shard name of its own per test (objects persist across tests of a file), and buckets that map to it. */
export function shard(prefix: string) {
  const tag = crypto.randomUUID().slice(0, 8);
  const fresh = () => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`${prefix}:${tag}`)) as unknown as Limiter;
  let n = 0;
  return { stub: fresh(), fresh, bucket: () => `verify_public:${tag}-${++n}` };
}

export type Run = <T>(s: unknown, fn: (instance: unknown, state: DurableObjectState) => Promise<T> | T) => Promise<T>;
/** runInDurableObject, typed for a stub of any shape. */
export const run = runInDurableObject as unknown as Run;
