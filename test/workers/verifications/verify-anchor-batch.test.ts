import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { anchorEntriesStatement, anchorMatch, sealPending } from "../../../src/anchoring/log";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { hex } from "../../../src/platform/bytes";
import { ensureC2paEngineLazily } from "../../../src/verifications/verify-engines";
import { verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture, testEnv } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * #19: the anchor log's first read (the manifest store's entries) rides in the D1 batch of the index lookup, one
 * round trip fewer. anchorMatch must answer the same with the entries read that way as reading them itself, and a
 * verification whose pixels make no lookup must still read them (on its own).
 */

/** env with a D1 that counts how the anchor_entries read reached it: in a batch, or alone. */
function counting(): { env: Bindings; anchorReads: { batched: number; alone: number } } {
  const anchorReads = { batched: 0, alone: 0 };
  const anchorStatements = new WeakSet<object>();
  const db = testEnv.DB;
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const isAnchor = /from "anchor_entries"/.test(sql);
    const wrapped = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrap(value.apply(target, args), sql);
        if (isAnchor && ["all", "first", "raw", "run"].includes(String(prop)))
          return (...args: unknown[]) => {
            anchorReads.alone++;
            return value.apply(target, args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    if (isAnchor) anchorStatements.add(wrapped);
    return wrapped;
  };
  const d1 = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          anchorReads.batched += statements.filter((s) => anchorStatements.has(s)).length;
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...(env as unknown as Bindings), DB: d1 }, anchorReads };
}

const storeHash = async (bytes: Uint8Array) => {
  const found = extractManifestStore(bytes, "image/jpeg");
  if (found.status !== "ok") throw new Error("no store");
  return hex(await crypto.subtle.digest("SHA-256", found.store));
};

describe("verify: the anchor read rides with the index lookup (#19)", () => {
  it("anchorMatch answers the same from entries read in a batch as from its own read (pending, matched, not found)", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample-1mp.jpg"), "image/jpeg");
    const hash = await storeHash(bytes);
    const unknown = "ab".repeat(32);
    const viaBatch = async (h: string) => {
      const read = anchorEntriesStatement(testEnv, h)!;
      const [result] = await testEnv.DB.batch([read.statement]);
      return anchorMatch(testEnv, h, read.read(result));
    };
    expect(await viaBatch(hash)).toEqual(await anchorMatch(testEnv, hash));
    expect((await anchorMatch(testEnv, hash)).status).toBe("pending");
    await sealPending(testEnv);
    expect(await anchorMatch(testEnv, hash)).toMatchObject({ status: "matched" });
    expect(await viaBatch(hash)).toEqual(await anchorMatch(testEnv, hash));
    expect(await viaBatch(unknown)).toEqual({ status: "not_found" });
    // Entries read for another store are not taken for this one.
    const other = anchorEntriesStatement(testEnv, unknown)!;
    const [otherResult] = await testEnv.DB.batch([other.statement]);
    expect(await anchorMatch(testEnv, hash, other.read(otherResult))).toMatchObject({ status: "matched" });
  });

  it("a verification reads the entries in the lookup's batch, or alone when its pixels make no lookup; the signal is the same", async () => {
    const { key } = await createTenant();
    const photo = await signedCopy(key, fixture("sample-1mp.jpg"), "image/jpeg");
    const tiny = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    await sealPending(testEnv);
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices(), revocation: null };

    const batched = counting();
    const withLookup = await verifySubject(batched.env, services, { bytes: photo.bytes, mediaType: "image/jpeg" });
    expect(withLookup.signals.anchor_match, JSON.stringify(withLookup.warnings)).toBe(true);
    expect(batched.anchorReads).toEqual({ batched: 1, alone: 0 });

    // Without image services no lookup is made: anchorMatch reads the entries itself, with the same answer.
    const alone = counting();
    const withoutPixels = await verifySubject(alone.env, { ...services, image: null }, { bytes: photo.bytes, mediaType: "image/jpeg" });
    expect(withoutPixels.signals.anchor_match).toBe(true);
    expect(alone.anchorReads).toEqual({ batched: 0, alone: 1 });

    const small = counting();
    const tinyOutcome = await verifySubject(small.env, services, { bytes: tiny.bytes, mediaType: "image/jpeg" });
    expect(tinyOutcome.signals.anchor_match, JSON.stringify(tinyOutcome.warnings)).toBe(true);
    expect(small.anchorReads.batched + small.anchorReads.alone).toBe(1);
  });
});
