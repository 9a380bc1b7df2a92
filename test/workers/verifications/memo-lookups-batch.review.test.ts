import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily, revocationCheck } from "../../../src/verifications/verify-engines";
import { type RevocationCheck, type VerifyServices, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { fingerprintBinding, publicationIds, seedPublication } from "../support/index-seed";
import { INDEX_EXACT, memoRows, publishedJpeg, watchedD1 } from "../support/pixel-memo-helpers";

/*
 * Review of df135de (the exact lookups in the pixel-memo read's batch, values read from the memo row by D1): inputs
 * where the new path must answer what the old one (the memo read, then the index lookups) answered.
 */

const db = (env as unknown as { DB: D1Database }).DB;

const withD1 = (d1: D1Database) => ({ ...(env as unknown as Bindings), DB: d1 }) as Bindings;

/** Another tenant's publication indexed under (algorithm, bits), in `status`, created at `createdAt`. */
async function other(algorithm: string, bits: string, status: string, createdAt: number, publishedAt: number | null): Promise<string> {
  return seedPublication(db, { ...publicationIds("mr"), tenantId: "ten_memoreview0000", status, publishedAt, createdAt }, [
    fingerprintBinding(algorithm, bits),
  ]);
}

async function services(): Promise<VerifyServices> {
  const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test: no responder" });
  return { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices(), revocation: quiet };
}

describe("review df135de: the memo batch's speculative lookups", () => {
  it("a memo row whose facts are not JSON is refused (measured now), not a failed verification", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    expect(await memoRows(published.publicationId)).toHaveLength(1);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    // The old code parsed the facts in JS and refused a memo it could not parse (pixel-memo.ts memoOf): the
    // verification then measured the pixels. SQLite's `->>` raises on malformed JSON, failing the whole batch.
    await db
      .prepare("UPDATE verify_pixel_memos SET facts = ? WHERE publication_id = ?")
      .bind('{"status":"decoded","watermark":{"status":"detected"', published.publicationId)
      .run();
    const corrupt = await verifySubject(env as unknown as Bindings, base, subject);
    await db.prepare("DELETE FROM verify_pixel_memos WHERE publication_id = ?").bind(published.publicationId).run();
    const measured = await verifySubject(env as unknown as Bindings, base, subject);
    expect(corrupt.status).toBe("verified_manifest_and_watermark_match");
    expect(corrupt).toEqual(measured);
  }, 300_000);

  it("differential: the same answer as the lookups after the memo read, over memo, index and publication states", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    const pubId = published.publicationId;
    const [row] = await memoRows(pubId);
    const facts = JSON.parse(row!.facts) as { watermark: { status: string; payload: string }; iscc: { bits: string } };
    expect(facts.watermark.status).toBe("detected");
    const payload = facts.watermark.payload;
    const iscc = facts.iscc.bits;
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    const setFacts = (path: string, value: unknown) =>
      db
        .prepare(`UPDATE verify_pixel_memos SET facts = json_set(facts, '${path}', json(?)) WHERE publication_id = ?`)
        .bind(JSON.stringify(value), pubId)
        .run();
    const setBits = (algorithm: string, bits: string) =>
      db.prepare("UPDATE soft_bindings SET bits = ? WHERE publication_id = ? AND algorithm = ?").bind(bits, pubId, algorithm).run();
    const setStatus = (pub: string, status: string) =>
      db.prepare("UPDATE assets SET status = ? WHERE publication_id = ?").bind(status, pub).run();
    let foreignMark = "";
    /** `speculative`: whether the new path answers from the memo batch's lookups; null: both ways fail alike. */
    const scenarios: { name: string; apply: () => Promise<unknown>; speculative: boolean | null }[] = [
      { name: "as published", apply: async () => {}, speculative: true },
      {
        name: "other tenants' publications of the same ISCC code, every state",
        apply: async () => {
          await other("iscc-image", iscc, "published", 0, 1700000000000);
          await other("iscc-image", iscc, "published", 5, null);
          await other("iscc-image", iscc, "withdrawn", 0, 1700000001000);
          await other("iscc-image", iscc, "retention_expired", 3, 1700000002000);
          await other("iscc-image", iscc, "processing", 0, null);
        },
        speculative: true,
      },
      {
        name: "another tenant's earlier publication under the same watermark payload",
        apply: async () => {
          foreignMark = await other(SVC_IMAGE_WATERMARK, payload, "published", 0, 1700000003000);
        },
        speculative: true,
      },
      { name: "that publication withdrawn", apply: () => setStatus(foreignMark, "withdrawn"), speculative: true },
      { name: "this publication withdrawn", apply: () => setStatus(pubId, "withdrawn"), speculative: true },
      { name: "this publication retention-expired", apply: () => setStatus(pubId, "retention_expired"), speculative: true },
      { name: "published again", apply: () => setStatus(pubId, "published"), speculative: true },
      {
        name: "the watermark payload found nowhere",
        apply: async () => {
          await setBits(SVC_IMAGE_WATERMARK, "11".repeat(8));
          await setStatus(foreignMark, "processing");
          await db.prepare("UPDATE soft_bindings SET bits = ? WHERE publication_id = ?").bind("22".repeat(8), foreignMark).run();
        },
        speculative: true,
      },
      {
        // Every publication of this code (other tenants', and the other test's of the same photo) under another one.
        name: "the ISCC code found nowhere either (PDQ)",
        apply: () =>
          db.prepare("UPDATE soft_bindings SET bits = ? WHERE algorithm = 'iscc-image' AND bits = ?").bind("00".repeat(32), iscc).run(),
        speculative: false,
      },
      {
        name: "both found again",
        apply: () => Promise.all([setBits("iscc-image", iscc), setBits(SVC_IMAGE_WATERMARK, payload)]),
        speculative: true,
      },
      // Facts no measurement writes (the pixel stage writes lowercase hex): both ways refuse them alike (fromHex).
      { name: "the memo's ISCC code in capitals", apply: () => setFacts("$.iscc.bits", iscc.toUpperCase()), speculative: null },
      {
        name: "the memo's ISCC code not computed",
        apply: () => setFacts("$.iscc", { status: "failed", message: "review" }),
        speculative: false,
      },
      { name: "the memo's ISCC code absent (featureless)", apply: () => setFacts("$.iscc", null), speculative: false },
      {
        name: "the memo's ISCC restored, watermark not detected",
        apply: async () => {
          await setFacts("$.iscc", facts.iscc);
          await setFacts("$.watermark", { status: "not_detected" });
        },
        speculative: true,
      },
      { name: "the memo's watermark too small", apply: () => setFacts("$.watermark", { status: "small" }), speculative: true },
      {
        name: "the memo's watermark restored, PDQ featureless",
        apply: async () => {
          await setFacts("$.watermark", facts.watermark);
          await setFacts("$.pdq.quality", 0);
        },
        speculative: false,
      },
      {
        name: "the memo's payload a JSON number",
        apply: async () => {
          await setFacts("$.pdq", (facts as unknown as { pdq: unknown }).pdq);
          await setFacts("$.watermark.payload", 12345);
        },
        speculative: null,
      },
      {
        name: "the memo of another version",
        apply: async () => {
          await setFacts("$.watermark", facts.watermark);
          await db.prepare("UPDATE verify_pixel_memos SET version = version + 100 WHERE publication_id = ?").bind(pubId).run();
        },
        speculative: false,
      },
      {
        name: "the memo of other pixels",
        apply: async () => {
          await db
            .prepare("UPDATE verify_pixel_memos SET version = version - 100, pixels_sha256 = 'x' || pixels_sha256 WHERE publication_id = ?")
            .bind(pubId)
            .run();
        },
        speculative: false,
      },
      {
        name: "no memo",
        apply: () => db.prepare("DELETE FROM verify_pixel_memos WHERE publication_id = ?").bind(pubId).run(),
        speculative: false,
      },
    ];
    for (const scenario of scenarios) {
      await scenario.apply();
      const run = async (old: boolean) => {
        const watched = watchedD1({ hideSpeculated: old });
        const outcome = await verifySubject(withD1(watched.d1), base, subject).catch((e: unknown) => ({ failed: String(e) }));
        return { outcome, lookedUpAfter: watched.batches.flat().some((s) => s.includes(INDEX_EXACT)) };
      };
      // The anchor may be sealed meanwhile: the new answer must be one of the old answers just before and after it.
      const before = await run(true);
      const now = await run(false);
      const after = await run(true);
      if (scenario.speculative !== null) {
        expect(before.lookedUpAfter, scenario.name).toBe(true);
        expect(now.lookedUpAfter, scenario.name).toBe(!scenario.speculative);
      } else expect(now.outcome, scenario.name).toHaveProperty("failed");
      expect([before.outcome, after.outcome], scenario.name).toContainEqual(now.outcome);
    }
  }, 600_000);

  it("the real revocation check asking the dev responder: a publication withdrawn after the memo batch is not shown", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    const [row] = await memoRows(published.publicationId);
    const iscc = (JSON.parse(row!.facts) as { iscc: { bits: string } }).iscc.bits;
    const theirs = await other("iscc-image", iscc, "published", 0, 1700000000000);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    for (let round = 0; round < 3; round++) {
      await db.prepare("UPDATE assets SET status = 'published' WHERE publication_id = ?").bind(theirs).run();
      // Another serial revoked: the revocation list's version changes, so no cached answer holds and the responder
      // is asked once the memo's batch (which the version read rides in) has come back.
      await db
        .prepare("INSERT INTO dev_ocsp_revocations (serial_hex, revoked_at, reason) VALUES (?, ?, NULL)")
        .bind(crypto.randomUUID().replace(/-/g, ""), Date.now())
        .run();
      let withdrawn = false;
      const watched = watchedD1({
        afterMemoBatch: async () => {
          await db.prepare("UPDATE assets SET status = 'withdrawn' WHERE publication_id = ?").bind(theirs).run();
          withdrawn = true;
        },
      });
      const check = revocationCheck(withD1(watched.d1));
      const outcome = await verifySubject(withD1(watched.d1), { ...base, revocation: check }, subject);
      expect(withdrawn).toBe(true);
      expect(watched.batches.flat().some((s) => s.includes(INDEX_EXACT))).toBe(false);
      expect(outcome.related.map((r) => r.publication_id)).toContain(theirs);
      expect(
        outcome.related_publications.map((r) => r.manifest_id),
        `round ${round}`,
      ).not.toContain(`urn:c2pa:${theirs}`);
    }
  }, 300_000);
});
