import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexMatches, MAX_QUERY_WINDOWS } from "../../../src/soft-bindings/repo";
import { fingerprintBinding, pdqBinding, publicationIds, seedPublication } from "../support/index-seed";
import { recordingD1 } from "../support/observed-d1";
import { flip, random } from "../support/pdq-bits";

/*
 * #19: a verification reads PDQ (whole image and windows) only when its exact ISCC code found nothing, so its index
 * lookup asks D1 to skip both PDQ statements when the ISCC lookup has a row (indexMatches `pdqUnlessExact`). When
 * the exact lookup finds nothing (under the same filter), the PDQ answers are exactly those of an ungated lookup;
 * when it finds a row, D1 reads no PDQ candidate at all (a published scene republished hundreds of times made every
 * verification of one of its copies read and send thousands of window rows it then threw away).
 */

const db = (env as unknown as { DB: D1Database }).DB;

async function publish(n: number, opts: { tenant: string; status?: string; whole: Uint8Array; regions: Uint8Array[]; iscc: string }) {
  return seedPublication(
    db,
    { ...publicationIds("ue", n), tenantId: opts.tenant, status: opts.status, createdAt: n },
    [pdqBinding(opts.whole), fingerprintBinding("iscc-image", opts.iscc)],
    opts.regions,
  );
}

const recording = () => recordingD1(db);

describe("indexMatches: PDQ lookups only when the exact lookup named by pdqUnlessExact finds nothing", () => {
  it("equal to the ungated lookup when the exact code is absent (or filtered out), empty and unread when present", async () => {
    // One scene published 60 times (as the keyed bench and a popular photograph do): its whole hash and 30 windows
    // land near each other, so every PDQ probe of a copy meets hundreds of rows.
    const scene = random();
    const sceneWindows = Array.from({ length: 30 }, random);
    const pubs: string[] = [];
    for (let i = 0; i < 60; i++)
      pubs.push(
        await publish(i, {
          tenant: i % 4 === 0 ? "ten_unlessother0000" : "ten_unlessexact0000",
          status: i === 7 ? "expired" : "published",
          whole: flip(scene, i % 9, i),
          regions: sceneWindows.map((w, k) => flip(w, (i + k) % 7, i + k)),
          iscc: i % 4 === 0 ? "00000000000000f0" : "00000000000000f1",
        }),
      );
    const windows = sceneWindows.slice(0, MAX_QUERY_WINDOWS).map((w, k) => flip(w, k % 5, 100 + k));
    const query = { bits: flip(scene, 3, 77), limit: 10 };
    const filters = [{}, { tenantId: "ten_unlessexact0000" }, { tenantId: "ten_unlessother0000" }, { resolvableOnly: true }];
    for (const filter of filters)
      for (const code of ["00000000000000f0", "00000000000000f1", "00000000000000ff"]) {
        const exact = [
          { algorithm: "svc-wm-tiledss-1", bitsHex: "0102030405060708", limit: 1 },
          { algorithm: "iscc-image", bitsHex: code, limit: 10 },
        ];
        const lookups = { exact, pdq: query, pdqRegions: { ...query, windows } };
        const ungated = await indexMatches(db, lookups, filter);
        expect(ungated.pdq.length).toBeGreaterThan(0);
        expect(ungated.pdqRegions.length).toBeGreaterThan(0);
        const { d1, statements } = recording();
        const gated = await indexMatches(d1, { ...lookups, pdqUnlessExact: 1 }, filter);
        expect(gated.exact).toEqual(ungated.exact);
        if (ungated.exact[1]!.length > 0) {
          expect(gated.pdq).toEqual([]);
          expect(gated.pdqRegions).toEqual([]);
          // D1 read no candidate: the statements' rows read are the exact lookup's own few, not the probes'.
          for (const st of statements.slice(2)) {
            const gatedRead = (
              await db
                .prepare(st.sql)
                .bind(...st.binds)
                .all()
            ).meta.rows_read;
            expect(gatedRead).toBeLessThan(20);
          }
        } else {
          expect(gated.pdq).toEqual(ungated.pdq);
          expect(gated.pdqRegions).toEqual(ungated.pdqRegions);
        }
      }
    // The ungated statements do read the candidates (the figure above is not trivially small).
    const { d1, statements } = recording();
    await indexMatches(d1, { exact: [], pdq: query, pdqRegions: { ...query, windows } });
    for (const st of statements)
      expect(
        (
          await db
            .prepare(st.sql)
            .bind(...st.binds)
            .all()
        ).meta.rows_read,
      ).toBeGreaterThan(100);
    // Either tenant's code is found unfiltered; a tenant filter that excludes the code's publications leaves PDQ on.
    const otherOnly = await indexMatches(
      db,
      { exact: [{ algorithm: "iscc-image", bitsHex: "00000000000000f0", limit: 10 }], pdq: query, pdqUnlessExact: 0 },
      { tenantId: "ten_unlessexact0000" },
    );
    expect(otherOnly.exact[0]).toEqual([]);
    expect(otherOnly.pdq.length).toBeGreaterThan(0);
  });
});
