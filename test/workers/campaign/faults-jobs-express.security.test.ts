import { describe, expect, it } from "vitest";
import { EXPRESS, MODES, probeSites, runUnderFault, sameSite, siteLabel, sitesFor } from "./faults-jobs.support";

/*
 * #22 faults, express path: admission (its read, the asset's claim, the insert that also takes the job and makes
 * its first move) and the run in the request (runJobForAnswer), killed or failed at each of their I/O calls; the
 * queue's safety net and the sweep then finish the job: exactly one publication. Every site under crash-after; a
 * seeded sample under crash-before and error (every site with CAMPAIGN_FAULTS=all, `npm run campaign`).
 */
const sites = await probeSites(EXPRESS);

describe(`faults in the ${EXPRESS.name} job (${sites.length} I/O sites)`, () => {
  it("the probe saw the sites the issue names", () => {
    const labels = sites.map((s) => siteLabel(s, sites));
    for (const named of [
      "after watermark",
      "after R2 put of the signed output",
      "inside the publication batch",
      "after publication before the event",
    ])
      expect(labels.some((l) => l.startsWith(named))).toBe(true);
  });
  for (const mode of MODES)
    for (const site of sitesFor(mode, sites, 2203))
      it(`${mode} at #${site.n} ${site.op}: ${siteLabel(site, sites)} → published exactly once`, async () => {
        const { faulted } = await runUnderFault(EXPRESS, { at: site.n, mode });
        expect(sameSite(faulted!, site)).toBe(true);
      });
});
