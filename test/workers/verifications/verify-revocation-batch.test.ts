import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { insertRevocation, revocationsVersion, revocationsVersionRead } from "../../../src/dev/repo";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture, testEnv } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * #19: in development the OCSP answer of the dev responder is cached under the version of its revocation list, read
 * once per verification. That read rides in the D1 batch of the index lookup (one round trip fewer); it must give
 * the same version as its own read, and a verification whose pixels make no lookup must still read it (alone).
 */

/**
 * env with a D1 that counts how reads of the dev revocation list's version (the list in order; the responder's own
 * read of the list, on a cache miss, is not one) reached it: in a batch, or alone.
 */
function counting(): { env: Bindings; reads: { batched: number; alone: number } } {
  const reads = { batched: 0, alone: 0 };
  const listStatements = new WeakSet<object>();
  const db = testEnv.DB;
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const isList = /dev_ocsp_revocations.*order by/is.test(sql);
    const wrapped = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrap(value.apply(target, args), sql);
        if (isList && ["all", "first", "raw", "run"].includes(String(prop)))
          return (...args: unknown[]) => {
            reads.alone++;
            return value.apply(target, args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    if (isList) listStatements.add(wrapped);
    return wrapped;
  };
  const d1 = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          const listed = statements.filter((s) => listStatements.has(s)).length;
          // A batch of the list's read alone is a read of its own (no other statement rode with it).
          if (statements.length === 1 && listed === 1) reads.alone++;
          else reads.batched += listed;
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...(env as unknown as Bindings), DB: d1 }, reads };
}

const batchedVersion = async () => {
  const { statement, read } = revocationsVersionRead(testEnv.DB);
  const [result] = await testEnv.DB.batch([statement]);
  return read(result!);
};

describe("verify: the dev revocation list rides with the index lookup (#19)", () => {
  it("the version read for a batch is the version read alone: empty, then with revocations (with and without reason)", async () => {
    const db = database(testEnv.DB);
    expect(await batchedVersion()).toBe(await revocationsVersion(db));
    await insertRevocation(db, "7e57ab01", null);
    await insertRevocation(db, "7e57aa02", 4);
    const version = await revocationsVersion(db);
    expect(version).toMatch(/7e57aa02@\d+\/4,.*7e57ab01@\d+\/$/);
    expect(await batchedVersion()).toBe(version);
  });

  it("a verification reads the list in the lookup's batch, or alone when its pixels make no lookup; OCSP answers the same", async () => {
    const { key } = await createTenant();
    const photo = await signedCopy(key, fixture("sample-1mp.jpg"), "image/jpeg");
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };

    const batched = counting();
    const withLookup = await verifySubject(
      batched.env,
      { ...services, revocation: revocationCheck(batched.env) },
      { bytes: photo.bytes, mediaType: "image/jpeg" },
    );
    expect(withLookup.signals.ocsp_status, JSON.stringify(withLookup.warnings)).toBe("good");
    expect(batched.reads).toEqual({ batched: 1, alone: 0 });

    // Without image services no lookup is made: the list is read on its own, with the same answer.
    const alone = counting();
    const withoutPixels = await verifySubject(
      alone.env,
      { ...services, image: null, revocation: revocationCheck(alone.env) },
      { bytes: photo.bytes, mediaType: "image/jpeg" },
    );
    expect(withoutPixels.signals.ocsp_status, JSON.stringify(withoutPixels.warnings)).toBe("good");
    expect(alone.reads).toEqual({ batched: 0, alone: 1 });
    expect(withoutPixels.status).toBe(withLookup.status);
  });
});
