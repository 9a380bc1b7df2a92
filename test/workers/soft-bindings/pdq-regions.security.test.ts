import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AdmittedRequest } from "../../../src/jobs/admission";
import { fingerprintStep } from "../../../src/jobs/steps/fingerprint";
import { imageServices } from "../../../src/media";
import { type PdqFingerprinter, pdqRegionHashes } from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { indexMatches, PDQ_MIN_QUALITY, pdqBandValues } from "../../../src/soft-bindings/repo";
import { pdqBinding, publicationIds, publicationStatements } from "../support/index-seed";

/*
 * #20, review-minded: the published windows (pdq_regions) must not let a crafted or featureless query match
 * everything. Windows of little texture are never indexed (the quality gate, per window); a query sharing band values
 * with many windows only gets candidates, each confirmed by its whole 256-bit distance, and a bounded number of them.
 */

const db = (env as unknown as { DB: D1Database }).DB;

describe("pdq_regions: crafted and featureless queries", () => {
  it("a window with too little texture is not indexed: a flat image with one textured border strip indexes only the windows with enough of it", async () => {
    const services = await imageServices();
    const w = 640;
    const h = 480;
    const data = new Uint8Array(w * h * 4).fill(200);
    // 12 px blocks of hashed grey levels (fine noise would average out in PDQ's 64 x 64 and rate low)
    for (let y = 0; y < h; y++)
      for (let x = Math.floor(w * 0.92); x < w; x++) {
        const v = (Math.imul(((x / 12) | 0) * 7919 + ((y / 12) | 0) * 104729, 2654435761) >>> 24) & 0xff;
        data.set([v, v, v, 255], (y * w + x) * 4);
      }
    const image: RgbaImage = { width: w, height: h, data };
    const admitted = { fingerprint_algorithms: ["pdq"] } as unknown as AdmittedRequest;
    const out = fingerprintStep(services, admitted, {
      full: image,
      plane: { image, factor: 1, opaque: true, sourceWidth: w, sourceHeight: h },
    });
    const whole = out.fingerprints.find((f) => f.algorithm === "pdq")!;
    expect(whole.quality).toBeGreaterThanOrEqual(PDQ_MIN_QUALITY);
    // every window, computed directly: those under the quality gate are absent from what publication indexes
    const pdq = services.fingerprinters.get("pdq") as PdqFingerprinter;
    const all = pdqRegionHashes(pdq, image);
    if (all.status !== "computed") throw new Error("regions");
    const textured = all.regions.filter((r) => r.quality >= PDQ_MIN_QUALITY).map((r) => r.region);
    const featureless = all.regions.filter((r) => r.quality < PDQ_MIN_QUALITY).map((r) => r.region);
    // the windows that end before the strip (at 80 % or 90 % of the width) are flat: under the gate
    expect(featureless).toEqual(expect.arrayContaining([0, 2, 5, 7, 9, 11, 15]));
    expect(textured.length).toBeGreaterThan(0);
    expect((out.pdq_regions ?? []).map((r) => r.region)).toEqual(textured);
    expect((out.pdq_regions ?? []).every((r) => r.quality >= PDQ_MIN_QUALITY)).toBe(true);
    // a flat image: no whole-image hash worth indexing, so no windows at all
    const flat: RgbaImage = { width: w, height: h, data: new Uint8Array(w * h * 4).fill(90) };
    const none = fingerprintStep(services, admitted, {
      full: flat,
      plane: { image: flat, factor: 1, opaque: true, sourceWidth: w, sourceHeight: h },
    });
    expect(none.pdq_regions).toBeUndefined();
  });

  it("a query sharing a band value with 400 windows gets no match: every candidate is confirmed by its whole 256-bit distance", async () => {
    // 400 windows, all with band 0 = 0x1234 and random other bands (a crafted crowd on one band value)
    const crowd = () => {
      const bits = crypto.getRandomValues(new Uint8Array(32));
      bits[0] = 0x12;
      bits[1] = 0x34;
      return bits;
    };
    const statements: D1PreparedStatement[] = [];
    for (let p = 0; p < 25; p++)
      statements.push(
        ...publicationStatements(
          db,
          { ...publicationIds("cr", p), tenantId: "ten_crowdcrowdcrowd" },
          [pdqBinding(new Uint8Array(32))],
          Array.from({ length: 16 }, crowd),
        ),
      );
    await db.batch(statements);
    const n = await db.prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE b0 = ?").bind(0x1234).first<{ n: number }>();
    expect(n!.n).toBe(400);
    const query = crypto.getRandomValues(new Uint8Array(32));
    query[0] = 0x12;
    query[1] = 0x34;
    expect(pdqBandValues(query)[0]).toBe(0x1234);
    const found = await indexMatches(db, { exact: [], pdqRegions: { bits: query, limit: 100 } });
    expect(found.pdqRegions).toEqual([]);
  });
});
