import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { PdqFingerprinter } from "../../../src/media/fingerprint";
import type { Fingerprinter, ImageServices, RgbaImage } from "../../../src/media/types";
import { incompleteMeasurement, measureImagePixels } from "../../../src/verifications/pixel-facts";
import { verifySubject } from "../../../src/verifications/verify-service";
import { fixture, testEnv } from "../support/helpers";

/*
 * #19 review: a query-window failure is a fact of the pixel stage (never an empty list that reads as "no window
 * passed the gate"), a verification says it was not computed, and such facts are never a complete measurement (the
 * only kind a publication's memo holds). Fails on the code that returned [] for a failed window kernel.
 */

/** The real image services whose PDQ windows fail as the kernel does when its memory cannot grow. */
async function windowsOutOfMemory(): Promise<ImageServices> {
  const real = await imageServices();
  const pdq = real.fingerprinters.get("pdq") as PdqFingerprinter;
  const oom = (windows: readonly unknown[]) =>
    windows.map(() => ({ status: "failed" as const, message: "pdq: fingerprint kernel out of memory" }));
  // both ways the windows are hashed: on an image in JS, and on the reduced image left in the kernel
  class Oom extends PdqFingerprinter {
    override computeWindows(_image: RgbaImage, windows: readonly { x: number; y: number; w: number; h: number }[]) {
      return oom(windows);
    }
    override computeWindowsInKernel(
      _w: number,
      _h: number,
      _at: number,
      windows: readonly { x: number; y: number; w: number; h: number }[],
    ) {
      return oom(windows);
    }
  }
  const fingerprinters = new Map<string, Fingerprinter>(real.fingerprinters);
  fingerprinters.set("pdq", new Oom(pdq.kernel));
  return { ...real, fingerprinters };
}

describe("pixel facts: a failure is a fact, never a quiet empty answer (#19)", () => {
  it("failed query windows are said in the facts and are not a complete measurement", async () => {
    const bytes = fixture("photo-aitzgorri-900x675.jpg");
    const real = await imageServices();
    const complete = await measureImagePixels(real, bytes, "image/jpeg");
    expect(complete).toMatchObject({ status: "decoded", pdq: { status: "computed" } });
    expect(complete).not.toHaveProperty("windowsFailure");
    expect(complete).not.toHaveProperty("fallbacks");
    expect(incompleteMeasurement(real, complete)).toBeNull();

    const failing = await windowsOutOfMemory();
    const facts = await measureImagePixels(failing, bytes, "image/jpeg");
    expect(facts).toMatchObject({ status: "decoded", windows: [], windowsFailure: expect.stringMatching(/out of memory/) });
    expect(incompleteMeasurement(failing, facts)).toMatch(/query windows failed/);
  });

  it("a verification whose query windows failed warns that they were not computed; one whose windows ran does not", async () => {
    const bytes = fixture("photo-aitzgorri-900x675.jpg");
    const verify = async (image: ImageServices) =>
      verifySubject(testEnv, { ensureEngine: () => {}, image, revocation: null }, { bytes, mediaType: "image/jpeg" });
    const failed = await verify(await windowsOutOfMemory());
    expect(failed.warnings.filter((w) => /PDQ query windows could not be computed/.test(w))).toHaveLength(1);
    const ran = await verify(await imageServices());
    expect(ran.warnings.filter((w) => /query windows/.test(w))).toEqual([]);
  });

  it("incomplete: not decoded, a failed detector or fingerprint; complete: a small image, a featureless one without ISCC", async () => {
    const image = await imageServices();
    const pdq = { status: "computed" as const, bits: "00", quality: 80 };
    const iscc = { status: "computed" as const, bits: "00", quality: null };
    const base = { status: "decoded" as const, watermark: { status: "not_detected" as const }, pdq, iscc, windows: [] };
    expect(incompleteMeasurement(image, { status: "not_decoded", message: "The JPEG is larger than the decoder accepts." })).not.toBeNull();
    expect(incompleteMeasurement(image, { ...base, watermark: { status: "failed", message: "kernel error" } })).not.toBeNull();
    expect(incompleteMeasurement(image, { ...base, pdq: { status: "failed", message: "oom" } })).not.toBeNull();
    expect(incompleteMeasurement(image, { ...base, iscc: { status: "failed", message: "oom" } })).not.toBeNull();
    expect(incompleteMeasurement(image, { ...base, iscc: null })).not.toBeNull(); // textured: ISCC must be there
    expect(incompleteMeasurement(image, { ...base, fallbacks: ["PDQ's plane not reduced"] })).not.toBeNull();
    expect(incompleteMeasurement(image, { ...base, watermark: { status: "small" } })).toBeNull();
    expect(incompleteMeasurement(image, { ...base, pdq: { ...pdq, quality: 10 }, iscc: null })).toBeNull();
  });
});
