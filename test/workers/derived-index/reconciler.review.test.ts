import { describe, expect, it } from "vitest";
import { reconcileDerivedIndex } from "../../../src/derived-index/service";
import { testEnv } from "../support/helpers";
import { chromaprintBinding, indexStatements, pdqBinding } from "../support/index-seed";

/*
 * Review of #20: the reconciler scans pdq_bands for bands whose pdq binding is gone (src/derived-index/repo.ts
 * scanBands) and removes them; chromaprint_frames, the other table cut from a binding, gets no such scan: frames
 * are removed only in the run that removes their binding, so frames left without a binding (by any path) stay in
 * the index for good, read by every lookup's pair budget.
 */
describe("review: the reconciler and stray Chromaprint frames", () => {
  it("removes Chromaprint frames that have no chromaprint binding, as it does stray PDQ bands", async () => {
    const db = testEnv.DB;
    const stray = `pub_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    // The bands and frames of bindings that were never written (the batch writes both or neither).
    await db.batch(
      indexStatements(db, stray, [pdqBinding(crypto.getRandomValues(new Uint8Array(32))), chromaprintBinding(Uint32Array.of(1, 2))]),
    );
    await reconcileDerivedIndex(testEnv);
    const count = async (table: string) =>
      (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE publication_id = ?`).bind(stray).first<{ n: number }>())!.n;
    expect(await count("pdq_bands")).toBe(0);
    expect(await count("chromaprint_frames")).toBe(0);
  });
});
