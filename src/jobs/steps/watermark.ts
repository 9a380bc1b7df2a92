import type { Bindings } from "../../env";
import type { ImageServices, RgbaImage } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { AdmittedRequest } from "../admission";
import type { WatermarkOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { decodeOrFail, put, read, StepFailure } from "./common";

/**
 * Embeds a fresh random 64-bit payload, re-encodes in the upload's format, and reads the mark back from the
 * encoded bytes before anything is stored: an output whose mark did not survive its own encoding is a failure,
 * never published. Returns the decoded read-back pixels for the fingerprint step.
 */
export async function watermarkStep(
  env: Bindings,
  image: ImageServices,
  job: JobRow,
  admitted: AdmittedRequest,
  source: ObjectRow,
): Promise<{ output: WatermarkOutput; pixels: RgbaImage }> {
  const algorithm = admitted.watermark_algorithm;
  if (algorithm !== image.watermarker.algorithm)
    throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} watermark is not installed in this deployment.`);
  const strength = admitted.watermark_strength ?? "balanced";
  const bytes = await read(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const payload = crypto.getRandomValues(new Uint8Array(8));
  let encoded: Uint8Array;
  let psnr: number;
  {
    const original = await decodeOrFail(image, bytes, source.mediaType);
    const marked = image.watermarker.embed({ image: original, payload, strength });
    if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
    psnr = marked.psnr_db;
    const out = await image.codec.encode(marked.image, source.mediaType, bytes);
    if (out.status !== "encoded") throw new StepFailure("svc.jobs.watermark_failed", out.message);
    encoded = out.bytes;
  } // the original and marked pixels go out of scope before the read-back decode
  const readBack = await decodeOrFail(image, encoded, source.mediaType);
  const detected = image.watermarker.detect(readBack);
  if (detected.status !== "detected" || hex(detected.payload) !== hex(payload)) {
    throw new StepFailure("svc.jobs.watermark_failed", "The watermark did not read back from the encoded output; nothing was published.");
  }
  const stored = await put(env.OBJECTS, `t/${job.tenantId}/jobs/${job.id}/watermark/output`, encoded, source.mediaType);
  return {
    output: {
      output: stored,
      algorithm,
      strength,
      payload: hex(payload),
      psnr_db: Math.round(psnr * 100) / 100,
      width: readBack.width,
      height: readBack.height,
    },
    pixels: readBack,
  };
}
