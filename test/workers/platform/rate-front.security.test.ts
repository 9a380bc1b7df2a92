import { describe, expect, it } from "vitest";
import { FRONT, type FrontGrant, shardOf } from "../../../src/platform/rate-lease";
import { env, type Limiter, shard as newShard, run } from "./rate-front-support";

/*
 * #19, the anonymous rate front on the real RateLimiter object (platform/rate-lease.ts FRONT): a grant lists the
 * buckets the object knows are full, at most FRONT.grantsPerObject grants are out, a settle charges what a grant
 * admitted whatever the level, and a restart (the object evicted, or killed) keeps both the grants out and the full
 * list, so it never hands out more grants or forgets a full bucket.
 */

const shard = () => newShard("rate-front-test");

async function restart(stub: DurableObjectStub): Promise<void> {
  await expect(run(stub, (_instance, state) => state.abort("front drill: restart"))).rejects.toThrow(/restart/);
}

describe("#19 anonymous rate front: the RateLimiter object", () => {
  it("a grant lists a full bucket; a settle charges past the limit; at most grantsPerObject are out, across a restart", async () => {
    const { stub, fresh, bucket } = shard();
    const full = bucket();
    for (let i = 0; i < 10; i++) expect((await stub.take(full, 10, 60, 1, 0)).allowed).toBe(true);
    const refused = await stub.take(full, 10, 60, 1, 0, 0, 0, true);
    expect(refused.allowed).toBe(false);
    const first = refused.grant as FrontGrant;
    expect(first.units).toBe(FRONT.grantUnits);
    expect(first.full.map((f) => f.name)).toContain(full);
    // A unit a grant admitted for another bucket that then filled: charged whatever the level.
    const other = bucket();
    for (let i = 0; i < 10; i++) await stub.take(other, 10, 60, 1, 0);
    await stub.settle(first.id, [[other, 10]], 60);
    const after = await stub.take(other, 10, 60, 1, 0);
    expect(after.allowed).toBe(false);
    expect(after.retryAfterMs, "11 units in a bucket of 10: two units must drain").toBeGreaterThan(6_000);
    // Fill the grants, restart, and ask again: still none, and the full list is still there.
    const given: FrontGrant[] = [];
    for (let i = 0; i < FRONT.grantsPerObject + 2; i++) {
      const d = await stub.take(bucket(), 10, 60, 1, 0, 0, 0, true);
      if (d.grant) given.push(d.grant);
    }
    expect(given).toHaveLength(FRONT.grantsPerObject);
    await restart(stub);
    const restarted = fresh();
    expect((await restarted.take(bucket(), 10, 60, 1, 0, 0, 0, true)).grant, "grants out survive the restart").toBeUndefined();
    await restarted.settle(given[0]!.id, [], 60);
    const again = await restarted.take(bucket(), 10, 60, 1, 0, 0, 0, true);
    expect(again.grant?.full.map((f) => f.name)).toEqual(expect.arrayContaining([full, other]));
  });

  it("a take's `admitted` unit is charged before the request is decided (one isolate alone stays exact)", async () => {
    const { stub, bucket } = shard();
    const name = bucket();
    for (let i = 0; i < 9; i++) await stub.take(name, 10, 60, 1, 0);
    // The isolate's grant admitted the 10th unit; its next request carries it and is refused.
    const next = await stub.take(name, 10, 60, 1, 0, 0, 1);
    expect(next.allowed).toBe(false);
  });

  it("keyed buckets get no grant (the front is only for anonymous buckets too small for a lease)", async () => {
    const keyed = `api_key:front-${crypto.randomUUID().slice(0, 8)}`;
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(shardOf(keyed))) as unknown as Limiter;
    expect((await stub.take(keyed, 10, 60, 1, 0, 0, 0, true)).grant).toBeUndefined();
  });
});
