import { describe, expect, it } from "vitest";
import type { FrontGrant } from "../../../src/platform/rate-lease";
import { type Limiter, shard as newShard, run } from "./rate-front-support";

/*
 * Hostile review of the #19 anonymous rate front, on the real RateLimiter object. Each test is a finding: it fails on
 * the reviewed code (h38-tiny) and passes once fixed.
 */

const shard = () => newShard("rate-front-review");

describe("#19 rate front review: the RateLimiter object", () => {
  it("review: a settle that fails on its storage read closes the grant anyway — its units are never charged and no pause follows", async () => {
    // settle() calls front.settled(id) (grant closed, its key deleted) and only then awaits the read of the buckets it
    // charges. If that read fails (or the object is reset while it waits), the settle rejects, the isolate never
    // re-sends it (by design), and the grant is gone from the ledger: it never lapses, so the lost-grant pause that
    // bounds uncharged units (FRONT: at most grantsPerObject a minute) never comes. Each such settle loses up to 64
    // admitted units, one per address, with nothing to stop the next grant.
    const { stub, bucket } = shard();
    const grant = (await stub.take(bucket(), 10, 60, 1, 0, 0, 0, true)).grant as FrontGrant;
    expect(grant).toBeDefined();
    const admitted = bucket(); // a bucket the object has never read (so settle must read it from storage)
    const failed = await run(stub, async (instance) => {
      const storage = (instance as { ctx: DurableObjectState }).ctx.storage;
      const realGet = storage.get.bind(storage);
      let failOnce = true;
      (storage as { get: unknown }).get = (...args: unknown[]) => {
        if (failOnce) {
          failOnce = false;
          return Promise.reject(new Error("storage read failed (drill)"));
        }
        return (realGet as (...a: unknown[]) => Promise<unknown>)(...args);
      };
      try {
        await (instance as Limiter).settle(grant.id, [[admitted, 10]], 60);
        return false;
      } catch {
        return true;
      } finally {
        (storage as { get: unknown }).get = realGet;
      }
    });
    expect(failed, "the drill made the settle fail").toBe(true);
    const ledgerStillHoldsGrant = await run(stub, (instance) =>
      (instance as { front: { grants: Map<string, number> } }).front.grants.has(grant.id),
    );
    // Once fixed, either the unit is charged or the grant is still out (it will lapse and pause the shard's grants).
    let allowed = 0;
    for (let i = 0; i < 10; i++) if ((await stub.take(admitted, 10, 60, 1, 0)).allowed) allowed++;
    const charged = allowed < 10;
    expect(charged || ledgerStillHoldsGrant, "the admitted unit is charged, or the grant still counts as out").toBe(true);
  });
});
