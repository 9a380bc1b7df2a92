import { describe, expect, it } from "vitest";
import { EXPRESS, probeSites, SIGN_ONLY, siteLabel, WATERMARK_THEN_SIGN } from "./faults-jobs.support";

describe("probe", () => {
  for (const c of [SIGN_ONLY, WATERMARK_THEN_SIGN, EXPRESS])
    it(c.name, async () => {
      const t0 = Date.now();
      const sites = await probeSites(c);
      console.log(c.name, Date.now() - t0, "ms");
      for (const s of sites) console.log(s.n, s.op, s.detail.slice(0, 100), "=>", siteLabel(s, sites));
      expect(sites.length).toBeGreaterThan(0);
    });
});
