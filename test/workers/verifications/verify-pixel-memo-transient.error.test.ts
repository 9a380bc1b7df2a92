import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import { PdqFingerprinter } from "../../../src/media/fingerprint";
import type { Fingerprinter, ImageServices, RgbaImage } from "../../../src/media/types";
import { measureImagePixels } from "../../../src/verifications/pixel-facts";
import { memoizePublication } from "../../../src/verifications/pixel-memo";
import { verificationTrustAnchors } from "../../../src/verifications/trust";
import { createTenant, fixture, json, testEnv } from "../support/helpers";
import { memoRows, pixelMemoFor, publishedJpeg } from "../support/pixel-memo-helpers";
import { verifyFile } from "../support/verify-helpers";

/*
 * Review of #19 (pixel memo). The memo is filled in the job isolate right after publication (the queue run, after
 * watermark embedding, encoding and signing in the same isolate: the most memory-pressed moment of the file's life),
 * and measurePublishedPixels stores whatever the pixel stage answered there, including a transient kernel failure
 * ("Watermark kernel error: …", "fingerprint kernel: out of memory", a decoder that could not allocate its input) or
 * a kernel-growth fallback that silently drops the query windows. Every later verification of the published file
 * then answers with that failure for ever (until PIXEL_FACTS_VERSION is bumped), although measuring these very pixels
 * gives the watermark, the fingerprints and the windows: pixel facts the actual pixels do not give.
 *
 * Each case replaces the publication's memo by one measured under a simulated transient failure (the real kernels,
 * with one call failing as it does when the wasm memory cannot grow), then checks that a verification never answers
 * with facts other than the ones measuring the file's pixels now gives. They pass once a memo is only stored (or
 * only used) for a complete measurement.
 */

/** The image services with one part failing as a kernel does when its memory cannot grow. */
async function failing(part: "detect" | "pdq" | "windows" | "decode"): Promise<ImageServices> {
  const real = await imageServices();
  const pdq = real.fingerprinters.get("pdq") as PdqFingerprinter;
  if (part === "detect") {
    const watermarker = Object.create(real.watermarker) as typeof real.watermarker;
    watermarker.detect = () => ({ status: "failed", message: "Watermark kernel error: RuntimeError: unreachable" });
    return { ...real, watermarker };
  }
  if (part === "pdq" || part === "windows") {
    class Oom extends PdqFingerprinter {
      override compute(image: RgbaImage) {
        return part === "pdq" ? { status: "failed" as const, message: "pdq: fingerprint kernel out of memory" } : super.compute(image);
      }
      override computeWindows(image: RgbaImage, windows: readonly { x: number; y: number; w: number; h: number }[]) {
        return part === "windows"
          ? windows.map(() => ({ status: "failed" as const, message: "pdq: fingerprint kernel out of memory" }))
          : super.computeWindows(image, windows);
      }
      // the windows of a reduced image are hashed in the kernel: they fail the same way
      override computeWindowsInKernel(
        w: number,
        h: number,
        at: number,
        windows: readonly { x: number; y: number; w: number; h: number }[],
      ) {
        return part === "windows"
          ? windows.map(() => ({ status: "failed" as const, message: "pdq: fingerprint kernel out of memory" }))
          : super.computeWindowsInKernel(w, h, at, windows);
      }
    }
    const fingerprinters = new Map<string, Fingerprinter>(real.fingerprinters);
    fingerprinters.set("pdq", new Oom(pdq.kernel));
    return { ...real, fingerprinters };
  }
  // The decoder could not allocate the file's bytes (jpeg-decoder.ts #load: inputAlloc returned 0 → too_large).
  const codec = Object.create(real.codec) as typeof real.codec;
  const tooLarge = { status: "too_large" as const, message: "The JPEG is larger than the decoder accepts (input)." };
  codec.rowSource = async () => tooLarge;
  codec.decode = async () => tooLarge;
  return { ...real, codec };
}

/** A published JPEG whose memo was measured under `part`'s transient failure (the queue run's memo replaced). */
async function memoizedUnder(key: string, part: "detect" | "pdq" | "windows" | "decode") {
  const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
  expect(await memoRows(published.publicationId)).toHaveLength(1);
  await testEnv.DB.prepare("DELETE FROM verify_pixel_memos WHERE publication_id = ?").bind(published.publicationId).run();
  await memoizePublication(
    testEnv,
    await failing(part),
    { publicationId: published.publicationId, mediaType: "image/jpeg" },
    async () => published.bytes,
  );
  return published;
}

/** The memo a verification of `bytes` would use (null: it measures), below the HTTP path. */
async function memoFor(bytes: Uint8Array) {
  const read = await verifyManifest({ bytes, mediaType: "image/jpeg" }, verificationTrustAnchors(testEnv), ensureC2paEngine);
  return pixelMemoFor(testEnv, { bytes, mediaType: "image/jpeg" }, read.facts, read.fileStore);
}

describe("review #19: a transient failure at publication is never the answer of later verifications", () => {
  it("the watermark detector failed once at publication: a verification of the published file still finds the mark", async () => {
    const { key } = await createTenant();
    const published = await memoizedUnder(key, "detect");
    const r = await json(await verifyFile(published.bytes, { key }));
    expect(r.warnings.filter((w: string) => /kernel error/.test(w))).toEqual([]);
    expect(r.signals.watermark_present).toBe(true);
    expect(r.status).toBe("verified_manifest_and_watermark_match");
  });

  it("the decoder could not allocate at publication: a verification of the published file still computes its signals", async () => {
    const { key } = await createTenant();
    const published = await memoizedUnder(key, "decode");
    const r = await json(await verifyFile(published.bytes, { key }));
    expect(r.warnings.filter((w: string) => /not computed/.test(w))).toEqual([]);
    expect(r.signals.watermark_present).toBe(true);
  });

  for (const part of ["pdq", "windows"] as const) {
    it(`a ${part} out-of-memory at publication: the facts a verification uses are the ones measuring now gives`, async () => {
      const { key } = await createTenant();
      const published = await memoizedUnder(key, part);
      const memo = await memoFor(published.bytes);
      const now = await measureImagePixels(await imageServices(), published.bytes, "image/jpeg");
      expect(now).toMatchObject({ status: "decoded", pdq: { status: "computed" } });
      expect((now as { windows: string[] }).windows.length).toBeGreaterThan(0);
      // Either no memo (measured now) or one equal to the measurement.
      if (memo) expect(memo.facts).toEqual(now);
    });
  }
});
