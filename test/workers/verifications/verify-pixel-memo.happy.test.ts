import { describe, expect, it } from "vitest";
import { PIXEL_FACTS_VERSION } from "../../../src/verifications/pixel-facts";
import { createTenant, fixture, json, testEnv } from "../support/helpers";
import { memoRows, publishedJpeg } from "../support/pixel-memo-helpers";
import { verifyFile } from "../support/verify-helpers";

/*
 * #19: a verification of a file this service published reuses the pixel facts measured at publication
 * (src/verifications/pixel-memo.ts): the same answer as measuring them now, said in the developer explanation.
 */

const NOTE = /measured by this service at publication \(\d{4}-\d\d-\d\dT[\d:.]+Z\) on bytes identical to these outside the manifest store/;

/** The parts of an answer that depend on the pixel facts (everything but ids and the explanation's memo note). */
const facts = (r: any) => ({
  status: r.status,
  confidence: r.confidence,
  signals: r.signals,
  matches: r.matches,
  related_publications: r.related_publications,
  warnings: r.warnings,
  manifest_id: r.manifest_id,
});

describe("verify pixel memo (#19)", () => {
  it("a published JPEG: the memo is filled at publication and gives the very answer measuring now gives", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    const [row, ...more] = await memoRows(published.publicationId);
    expect(more).toEqual([]);
    expect(row!.version).toBe(PIXEL_FACTS_VERSION);
    expect(JSON.parse(row!.facts)).toMatchObject({ status: "decoded", watermark: { status: "detected" } });

    const memoized = await json(await verifyFile(published.bytes, { key }));
    expect(memoized.developer_explanation).toMatch(NOTE);
    expect(memoized.signals).toMatchObject({ c2pa_manifest_present: true, watermark_present: true });
    expect(memoized.status).toBe("verified_manifest_and_watermark_match");
    expect(memoized.matches.some((m: any) => m.kind === "watermark" && m.manifest_id === memoized.manifest_id)).toBe(true);

    // Without the memo the pixels are measured in the request: the same answer, without the note.
    await testEnv.DB.prepare("DELETE FROM verify_pixel_memos WHERE publication_id = ?").bind(published.publicationId).run();
    const measured = await json(await verifyFile(published.bytes, { key }));
    expect(measured.developer_explanation).not.toMatch(NOTE);
    expect(facts(memoized)).toEqual(facts(measured));
  });

  it("the memo goes with the publication's soft bindings (asset deletion, the reconciler)", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    expect(await memoRows(published.publicationId)).toHaveLength(1);
    await testEnv.DB.prepare("DELETE FROM soft_bindings WHERE publication_id = ?").bind(published.publicationId).run();
    expect(await memoRows(published.publicationId)).toEqual([]);
  });
});
