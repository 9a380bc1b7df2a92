import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { type RevocationCheck, type VerifyServices, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { fingerprintBinding, publicationIds, seedPublication } from "../support/index-seed";
import { INDEX_EXACT, MEMO_READ, memoRows, publishedJpeg, watchedD1 } from "../support/pixel-memo-helpers";

/*
 * #19: a verification of a file this service published sends the exact lookups its pixel memo calls for (watermark
 * payload, ISCC code), their related publications' state and the anchor entries in the memo read's own D1 batch, the
 * lookups' values read from the memo row by D1 (verifications/repo.ts speculativeExactLookups). Differential: every
 * answer is compared with the same verification made the way it was before (the memo read, then the index lookup
 * batch), forced by a D1 that hides the values the speculative lookups used, so that they cannot be taken.
 */

const db = (env as unknown as { DB: D1Database }).DB;
const STATE_READ = "FROM assets WHERE status = 'published' AND publication_id IN";

/** Another tenant's publication with the same ISCC code, in `status`. */
async function sameContent(iscc: string, status: string, publishedAt: number | null): Promise<string> {
  return seedPublication(db, { ...publicationIds("ml"), tenantId: "ten_memolookups000", status, publishedAt, createdAt: 1 }, [
    fingerprintBinding("iscc-image", iscc),
  ]);
}

async function services(): Promise<Omit<VerifyServices, "revocation">> {
  return { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };
}

const withD1 = (d1: D1Database) => ({ ...(env as unknown as Bindings), DB: d1 }) as Bindings;

describe("verify: the exact lookups in the pixel-memo read's batch (#19)", () => {
  it("a published JPEG: one batch before the verdict, and the very answer of the lookups made after the memo read", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    const [row] = await memoRows(published.publicationId);
    const iscc = (JSON.parse(row!.facts) as { iscc: { bits: string } }).iscc.bits;
    // Other publications of the same content in every state the related publications' rule tells apart.
    const shown = await sameContent(iscc, "published", 1700000000000);
    const untimed = await sameContent(iscc, "published", null);
    const withdrawn = await sameContent(iscc, "withdrawn", 1700000001000);
    const expired = await sameContent(iscc, "retention_expired", 1700000002000);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();

    for (const revocation of ["dev responder", "answer in at once"] as const) {
      const run = async (hideSpeculated: boolean) => {
        const watched = watchedD1({ hideSpeculated });
        const check: RevocationCheck =
          revocation === "dev responder" ? revocationCheck(withD1(watched.d1)) : async () => ({ status: "unknown", warning: "test" });
        return { outcome: await verifySubject(withD1(watched.d1), { ...base, revocation: check }, subject), ...watched };
      };
      await run(false); // the dev responder's answer cached (a first answer asks it)
      const now = await run(false);
      const before = await run(true);
      expect(now.outcome, revocation).toEqual(before.outcome);
      expect(now.outcome.status).toBe("verified_manifest_and_watermark_match");
      const related = now.outcome.related.map((r) => r.publication_id);
      for (const pub of [shown, untimed, withdrawn, expired]) expect(related, revocation).toContain(pub);
      expect(now.outcome.related_publications.map((r) => r.manifest_id).sort()).toEqual(
        [`urn:c2pa:${shown}`, `urn:c2pa:${untimed}`].sort(),
      );

      // New: the memo's batch carries the lookups, nothing is looked up after it, no state is read after the verdict.
      const memoBatch = now.batches.find((b) => b[0]?.includes(MEMO_READ));
      expect(memoBatch, JSON.stringify(now.batches)).toBeDefined();
      expect(memoBatch!.filter((s) => s.includes("sb.bits = (SELECT")).length).toBeGreaterThanOrEqual(2);
      expect(now.batches.flat().filter((s) => s.includes(INDEX_EXACT) || s.includes("pdq_bands"))).toEqual([]);
      expect([...now.alone, ...now.batches.flat()].filter((s) => s.includes(STATE_READ))).toEqual([]);
      // Before: the index lookup had a batch of its own after the memo read.
      expect(before.batches.flat().some((s) => s.includes(INDEX_EXACT))).toBe(true);
    }
  }, 300_000);

  it("a related publication withdrawn while the OCSP answer is awaited is not shown (the state is read after it)", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    const [row] = await memoRows(published.publicationId);
    const theirs = await sameContent((JSON.parse(row!.facts) as { iscc: { bits: string } }).iscc.bits, "published", 1700000000000);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test: no responder" });
    const control = await verifySubject(env as unknown as Bindings, { ...base, revocation: quiet }, subject);
    expect(control.related_publications.map((r) => r.manifest_id)).toContain(`urn:c2pa:${theirs}`);

    // The answer comes after the memo's batch (which read the state), and the publication is withdrawn meanwhile:
    // an answer that says nothing of a responder, and one that says it asked one.
    for (const asked of [undefined, false]) {
      await db.prepare("UPDATE assets SET status = 'published' WHERE publication_id = ?").bind(theirs).run();
      let memoBatchRan!: () => void;
      const ran = new Promise<void>((resolve) => {
        memoBatchRan = resolve;
      });
      const watched = watchedD1({ afterMemoBatch: async () => memoBatchRan() });
      const slow: RevocationCheck = async () => {
        // Hang guard only: the memo's batch runs within seconds.
        await Promise.race([ran, new Promise((resolve) => setTimeout(resolve, 60_000))]);
        await db.prepare("UPDATE assets SET status = 'withdrawn' WHERE publication_id = ?").bind(theirs).run();
        return { status: "unknown", warning: "test: a responder asked", ...(asked === false ? { withoutResponder: false } : {}) };
      };
      const outcome = await verifySubject(withD1(watched.d1), { ...base, revocation: slow }, subject);
      expect(watched.batches.some((b) => b[0]?.includes(MEMO_READ) && b.some((s) => s.includes("sb.bits = (SELECT")))).toBe(true);
      expect(outcome.related.map((r) => r.publication_id)).toContain(theirs);
      expect(outcome.related_publications.map((r) => r.manifest_id)).not.toContain(`urn:c2pa:${theirs}`);
    }
  }, 300_000);

  it("the exact ISCC lookup finds nothing: PDQ is looked up after the memo read, as before, with the same answer", async () => {
    const { key } = await createTenant();
    // Content no other test of this file publishes: its ISCC code is then the publication's own only.
    const published = await publishedJpeg(key, fixture("photo-bridge.jpg"));
    // The publication's ISCC binding no longer holds the code (an index rebuilt, another version): PDQ must answer.
    await db
      .prepare("UPDATE soft_bindings SET bits = ?, value = ? WHERE publication_id = ? AND algorithm = 'iscc-image'")
      .bind("00".repeat(32), "00".repeat(32), published.publicationId)
      .run();
    expect(await memoRows(published.publicationId)).toHaveLength(1);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test" });
    const now = watchedD1();
    const before = watchedD1({ hideSpeculated: true });
    const a = await verifySubject(withD1(now.d1), { ...base, revocation: quiet }, subject);
    const b = await verifySubject(withD1(before.d1), { ...base, revocation: quiet }, subject);
    expect(a).toEqual(b);
    expect(now.batches.flat().some((s) => s.includes("pdq_bands"))).toBe(true);
  }, 300_000);
});
