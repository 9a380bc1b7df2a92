import { describe, expect, it } from "vitest";
import { MODES, probeSites, runUnderFault, SIGN_ONLY, sameSite, siteLabel, sitesFor } from "./faults-jobs.support";

/*
 * #22 faults, standard path: the queue consumer's run (runJob) of an admitted job, killed or failed at each of its
 * I/O calls; the queue's redelivery (once the dead runner's lease lapsed, the sweep's re-queue) and a duplicate
 * delivery then finish the job: exactly one publication. Every site under crash-after; a seeded sample under
 * crash-before and error (every site with CAMPAIGN_FAULTS=all, `npm run campaign`).
 */
const sites = await probeSites(SIGN_ONLY);

describe(`faults in the ${SIGN_ONLY.name} job (${sites.length} I/O sites)`, () => {
  it("the probe saw the sites the issue names", () => {
    const labels = sites.map((s) => siteLabel(s, sites));
    const named = ["after R2 put of the signed output", "inside the publication batch", "after publication before the event"];
    if (SIGN_ONLY.watermark) named.push("after watermark");
    for (const name of named) expect(labels.some((l) => l.startsWith(name))).toBe(true);
  });
  for (const mode of MODES)
    for (const site of sitesFor(mode, sites, 2201))
      it(`${mode} at #${site.n} ${site.op}: ${siteLabel(site, sites)} → published exactly once`, async () => {
        const { faulted, recovery } = await runUnderFault(SIGN_ONLY, { at: site.n, mode });
        expect(sameSite(faulted!, site)).toBe(true);
        // A dead runner's lease still held the job when the crash left it running: the redelivery at once was dropped.
        if (mode !== "error" && recovery.heldByDeadLease) expect(faulted!.n).toBeGreaterThanOrEqual(2);
      });
});
