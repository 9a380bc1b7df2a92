import type { Bindings } from "../../env";
import { PdqFingerprinter, pdqRegionHashes } from "../../media/fingerprint";
import type { ImageServices, RgbaImage } from "../../media/types";
import { hex } from "../../platform/bytes";
import { PDQ_MIN_QUALITY } from "../../soft-bindings/repo";
import { type VerifyPixels, verifyPixels } from "../../verifications/verify-pixels";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput, WatermarkOutput } from "../outputs";
import type { ObjectRow } from "../repo";
import { read, StepFailure } from "./common";

/**
 * The published pixels exactly as a verification of a copy reads them (verify-pixels.ts: a JPEG reduced in the DCT
 * domain as far as the watermark detector's grid allows, other formats the full decode): what publication indexes
 * is then what verification computes from an unchanged copy, bit for bit, and the read is a fraction of a full decode.
 */
export async function readPublished(image: ImageServices, bytes: Uint8Array, mediaType: string): Promise<VerifyPixels> {
  const decoded = await verifyPixels(image, bytes, mediaType);
  if (decoded.status !== "decoded") throw new StepFailure("svc.jobs.decode_failed", decoded.message);
  return decoded.pixels;
}

/** The pixels that will be published: the watermarked output when there is one, else the upload. */
export async function decodePublished(
  env: Bindings,
  image: ImageServices,
  source: ObjectRow,
  watermarked: WatermarkOutput | null,
): Promise<VerifyPixels> {
  const blob = watermarked ? watermarked.output : { key: source.r2Key, etag: source.etag };
  const bytes = await read(env.OBJECTS, blob.key, blob.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The bytes to fingerprint could not be read back unchanged.");
  return readPublished(image, bytes, source.mediaType);
}

/**
 * Computes every admitted fingerprint of the published pixels; an algorithm not installed here fails the job. Each
 * reads the image verification reads it from (verify-service.ts): PDQ the reduced plane where it is opaque, the
 * others the decode itself. `windows: "deferred"` (an express run, whose answer waits for this step) leaves PDQ's
 * crop windows to the follow-up after publication (pdq-windows.ts) and marks the output `pdq_regions_deferred`; the
 * primary signals (every whole-image fingerprint) are computed here either way.
 */
export function fingerprintStep(
  image: ImageServices,
  admitted: AdmittedRequest,
  pixels: VerifyPixels,
  options: { windows?: "now" | "deferred" } = {},
): FingerprintOutput {
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  let regions: FingerprintOutput["pdq_regions"];
  let deferred = false;
  for (const algorithm of admitted.fingerprint_algorithms) {
    const fingerprinter = image.fingerprinters.get(algorithm);
    if (!fingerprinter)
      throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
    const input = fingerprintInput(algorithm, pixels);
    const result = fingerprinter.compute(input);
    if (result.status !== "computed") throw new StepFailure("svc.jobs.fingerprint_failed", result.message);
    fingerprints.push({ algorithm, value: result.value, bits: hex(result.bits), quality: result.quality });
    if (algorithm === "pdq" && fingerprinter instanceof PdqFingerprinter && (result.quality ?? 0) >= PDQ_MIN_QUALITY) {
      if (options.windows === "deferred") deferred = true;
      else regions = pdqRegions(fingerprinter, input);
    }
  }
  if (deferred) return { fingerprints, pdq_regions_deferred: true };
  return regions ? { fingerprints, pdq_regions: regions } : { fingerprints };
}

/** The image `algorithm` reads of the published pixels: PDQ the reduced plane where it is opaque, the others the decode. */
export function fingerprintInput(algorithm: string, pixels: VerifyPixels): RgbaImage {
  return algorithm === "pdq" && pixels.plane.opaque ? pixels.plane.image : pixels.full;
}

/**
 * The windows of the image PDQ read that are worth indexing (quality at least PDQ_MIN_QUALITY, as the whole image:
 * a flat corner says nothing about which image it is). Index-only: a window that cannot be computed leaves the
 * publication with fewer windows (its whole-image hash is indexed as before), never a failed job.
 */
export function pdqRegions(pdq: PdqFingerprinter, input: RgbaImage): FingerprintOutput["pdq_regions"] {
  const computed = pdqRegionHashes(pdq, input);
  if (computed.status !== "computed") return undefined;
  return computed.regions
    .filter((r) => r.quality >= PDQ_MIN_QUALITY)
    .map((r) => ({ region: r.region, bits: hex(r.bits), quality: r.quality }));
}
