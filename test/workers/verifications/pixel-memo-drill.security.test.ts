import { describe, expect, it } from "vitest";
import { wipeTenant } from "../../../src/dev/restore-drill";
import { createTenant, fixture, testEnv } from "../support/helpers";
import { memoRows, publishedJpeg } from "../support/pixel-memo-helpers";

/*
 * Review of #19 (low, operator-only). The restore drill's wipe removes "every row of the tenant" with the triggers
 * dropped (restore-drill/repo.ts batchWithoutTriggers), and its derived-index list (restore-drill/index.ts DERIVED)
 * names pdq_bands, pdq_regions, chromaprint_frames and video_frames only. verify_pixel_memos has no tenant_id and its
 * cleanup is the soft_bindings trigger of migration 0040, which the wipe drops: the memo (the publication's PDQ/ISCC
 * hashes and watermark payload) outlives the wiped tenant. Passes once the wipe removes the tenant's memos too.
 */
describe("review #19: the restore drill's wipe leaves no pixel memo of the tenant", () => {
  it("after wipeTenant the publication's memo is gone", async () => {
    const { tenantId, key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    expect(await memoRows(published.publicationId)).toHaveLength(1);
    const wiped = await wipeTenant(testEnv, tenantId);
    expect(wiped.rows.soft_bindings).toBeGreaterThan(0);
    expect(await memoRows(published.publicationId)).toEqual([]);
  });
});
