import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily } from "../../../src/verifications/verify-engines";
import { type RevocationCheck, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * #19: the OCSP answer and the anchor lookup are asked before the pixel work and awaited after it. The outcome,
 * warnings included and in their fixed order, must not depend on which answer comes first.
 */

const OCSP_WARNING = "test: the responder answered late (unknown)";

/** A revocation answer that arrives after `delayMs` (the responder is the network: its timing is not ours). */
function answering(delayMs: number): RevocationCheck {
  return async (store) => {
    expect(store, "the located manifest store is handed to the check").not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { status: "unknown", warning: OCSP_WARNING };
  };
}

describe("verify: I/O overlapped with the pixel work (#19)", () => {
  it("a late or an immediate OCSP answer gives the same outcome; revocation warnings come before the pixel warnings", async () => {
    const { key } = await createTenant();
    // 64 px: the watermark is not checked (a pixel warning), so the result carries warnings of both kinds.
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };
    const subject = { bytes, mediaType: "image/jpeg" };
    const bindings = env as unknown as Bindings;
    const late = await verifySubject(bindings, { ...services, revocation: answering(30) }, subject);
    const early = await verifySubject(bindings, { ...services, revocation: answering(0) }, subject);
    expect(late).toEqual(early);
    expect(late.status).toBe("verified_manifest");
    expect(late.signals.ocsp_status).toBe("unknown");
    const ocspAt = late.warnings.indexOf(OCSP_WARNING);
    const pixelsAt = late.warnings.findIndex((w) => w.startsWith("The watermark is not checked"));
    expect(ocspAt, JSON.stringify(late.warnings)).toBeGreaterThanOrEqual(0);
    expect(pixelsAt, JSON.stringify(late.warnings)).toBeGreaterThan(ocspAt);
  });

  it("without a revocation check: not_checked, with its warning first, as before", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const outcome = await verifySubject(
      env as unknown as Bindings,
      { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices(), revocation: null },
      { bytes, mediaType: "image/jpeg" },
    );
    expect(outcome.signals.ocsp_status).toBe("not_checked");
    expect(outcome.warnings[0]).toBe("The signer's revocation status (OCSP) is not checked in this deployment.");
  });
});
