import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings as Env } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { indexMatches } from "../../../src/soft-bindings/repo";
import { exactPublicationsStateStatement, publishedAtOf } from "../../../src/verifications/repo";
import { ensureC2paEngineLazily } from "../../../src/verifications/verify-engines";
import { type RevocationCheck as Check, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { assetStatement, fingerprintBinding, publicationIds, publicationStatements } from "../support/index-seed";
import { observedD1 } from "../support/observed-d1";
import { signedCopy } from "../support/verify-helpers";

/*
 * Review of ddd7159: the related publications' state read in the index lookup's batch (exactPublicationsStateStatement)
 * against the read after the verdict (publishedAtOf), on the same database states. For every publication the exact
 * lookups return, the batch's state must answer for it (it was considered) and say what publishedAtOf says: present
 * or not, and the same time. States: published (with a time, without one), withdrawn, retention expired, processing,
 * an asset row deleted under its binding, and two asset rows sharing a publication id (one published, one not); ties
 * on created_at; lookups of limit 1, 2 and 10; several lookups in one batch (the same publication found twice);
 * publications of other tenants (the read is tenant-less in both).
 */

const db = (env as unknown as { DB: D1Database }).DB;

const STATES = ["published", "published-null-time", "withdrawn", "retention_expired", "processing", "asset-deleted", "twin"] as const;

/** A small deterministic generator (tests must not depend on Math.random's sequence). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function seed(run: string, bits: string[], random: () => number): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  let n = 0;
  for (const b of bits) {
    const count = 1 + Math.floor(random() * 6);
    for (let i = 0; i < count; i++) {
      n++;
      const ids = { publicationId: `pub_df${run}${n}`, assetId: `ast_df${run}${n}` };
      const tenantId = random() < 0.5 ? "ten_diffa000000000" : "ten_diffb000000000";
      const state = STATES[Math.floor(random() * STATES.length)]!;
      const status = state.startsWith("published") || state === "asset-deleted" ? "published" : state === "twin" ? "published" : state;
      const publishedAt = state === "published-null-time" ? null : 1700000000000 + n;
      const algorithm = random() < 0.5 ? "iscc-image" : "svc-image-watermark";
      // Ties on created_at are frequent: the order then falls back to the publication id.
      const createdAt = Math.floor(random() * 3);
      statements.push(
        ...publicationStatements(db, { ...ids, tenantId, status, publishedAt, createdAt }, [fingerprintBinding(algorithm, b)]),
      );
      if (state === "asset-deleted") statements.push(db.prepare("DELETE FROM assets WHERE id = ?").bind(ids.assetId));
      if (state === "twin")
        statements.push(
          assetStatement(db, { ...ids, assetId: `${ids.assetId}t`, tenantId, status: "withdrawn", publishedAt: 1600000000000 }),
        );
    }
  }
  await db.batch(statements);
}

describe("review ddd7159: the state in the lookup's batch against the read after the verdict", () => {
  it("answers for every publication the exact lookups return, as publishedAtOf does, on many database states", async () => {
    let compared = 0;
    for (let round = 0; round < 24; round++) {
      const random = rng(round + 1);
      const run = `${round}x${crypto.randomUUID().slice(0, 6)}`;
      const bits = Array.from({ length: 3 }, (_, i) => `${run}b${i}`.padEnd(32, "0"));
      await seed(run, bits, random);
      const exact = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        algorithm: random() < 0.5 ? "iscc-image" : "svc-image-watermark",
        bitsHex: bits[Math.floor(random() * bits.length)]!,
        limit: [1, 2, 10][Math.floor(random() * 3)]!,
      }));
      const state = exactPublicationsStateStatement(db, exact)!;
      const found = await indexMatches(db, { exact, also: [state.statement] });
      const known = state.read(found.also[0]);
      const ids = [...new Set(found.exact.flat().map((r) => r.publication_id))];
      if (ids.length === 0) continue;
      const after = await publishedAtOf(db, ids);
      for (const id of ids) {
        expect(known.considered.has(id), `round ${round}: ${id} considered`).toBe(true);
        expect(known.publishedAt.has(id), `round ${round}: ${id} published`).toBe(after.has(id));
        expect(known.publishedAt.get(id), `round ${round}: ${id} time`).toBe(after.get(id));
        compared++;
      }
      // Nothing it answers for is outside what the lookups returned (no other publication's state rides along).
      for (const id of known.considered) expect(ids, `round ${round}: ${id} was looked up`).toContain(id);
    }
    expect(compared).toBeGreaterThan(30);
  }, 240_000);
});

describe("review ddd7159: a verification with the answer in at once against one with the answer late", () => {
  it("shows the same related publications for a mix of states (the batch's state, and the read after the verdict)", async () => {
    const owner = await createTenant();
    const mine = await signedCopy(owner.key, fixture("photo-bridge.jpg"), "image/jpeg");
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };
    const subject = { bytes: mine.bytes, mediaType: "image/jpeg" };
    const now: Check = async () => ({ status: "unknown", warning: "test: no responder" });
    // Late: answered once the index lookup's batch has run (not after a fixed delay, which a loaded machine can
    // outlast before the lookup is even sent).
    let lookedUp: () => void = () => {};
    const late: Check = async () => {
      // Hang guard only: the lookup runs within seconds.
      await Promise.race([
        new Promise<void>((resolve) => {
          lookedUp = resolve;
        }),
        new Promise((resolve) => setTimeout(resolve, 60_000)),
      ]);
      return { status: "unknown", warning: "test: no responder" };
    };
    let iscc: string | null = null;
    const sent: string[] = [];
    const lookup = new WeakSet<object>();
    const d1 = observedD1(db, {
      onBind: (sql, binds, bound) => {
        sent.push(sql);
        if (binds[0] === "iscc-image" && typeof binds[1] === "string" && !sql.includes("pdq_") && !sql.includes("verify_pixel_memos")) {
          iscc ??= binds[1];
          lookup.add(bound);
        }
      },
      afterBatch: (batch) => {
        if (batch.some((s) => lookup.has(s))) lookedUp();
      },
    });
    const observed = { ...(env as unknown as Env), DB: d1 } as Env;
    await verifySubject(observed, { ...services, revocation: now }, subject);
    expect(iscc).not.toBeNull();
    const random = rng(7);
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < 9; i++) {
      const state = STATES[i % STATES.length]!;
      const ids = publicationIds("dv");
      const status = state === "withdrawn" || state === "retention_expired" || state === "processing" ? state : "published";
      const publishedAt = state === "published-null-time" ? null : 1700000000000 + i;
      const createdAt = Math.floor(random() * 2);
      statements.push(
        ...publicationStatements(db, { ...ids, tenantId: "ten_diffv000000000", status, publishedAt, createdAt }, [
          fingerprintBinding("iscc-image", iscc!),
        ]),
      );
      if (state === "asset-deleted") statements.push(db.prepare("DELETE FROM assets WHERE id = ?").bind(ids.assetId));
      if (state === "twin")
        statements.push(
          assetStatement(db, {
            ...ids,
            assetId: `${ids.assetId}t`,
            tenantId: "ten_diffv000000000",
            status: "withdrawn",
            publishedAt: 1600000000000,
          }),
        );
    }
    await db.batch(statements);

    sent.length = 0;
    const inAtOnce = await verifySubject(observed, { ...services, revocation: now }, subject);
    const readAfter = sent.filter((s) => s.includes("FROM assets WHERE status = 'published' AND publication_id IN")).length;
    sent.length = 0;
    const answeredLate = await verifySubject(observed, { ...services, revocation: late }, subject);
    expect(sent.filter((s) => s.includes("FROM assets WHERE status = 'published' AND publication_id IN")).length).toBe(1);
    expect(readAfter, "the answer in at once: no read after the verdict").toBe(0);
    expect(inAtOnce.related.length).toBeGreaterThan(3);
    expect(inAtOnce.related).toEqual(answeredLate.related);
    expect(inAtOnce.related_publications).toEqual(answeredLate.related_publications);
    // And both say what the database says now.
    const ids = [...new Set(inAtOnce.related.map((r) => r.publication_id))];
    const published = await publishedAtOf(db, ids);
    expect(inAtOnce.related_publications.length).toBe(published.size);
  }, 240_000);
});
