import type { Bindings } from "../../env";
import type { ImageServices, RgbaImage } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput, WatermarkOutput } from "../outputs";
import type { ObjectRow } from "../repo";
import { decodeOrFail, read, StepFailure } from "./common";

/** The pixels that will be published: the watermarked output when there is one, else the upload. */
export async function decodePublished(
  env: Bindings,
  image: ImageServices,
  source: ObjectRow,
  watermarked: WatermarkOutput | null,
): Promise<RgbaImage> {
  const blob = watermarked ? watermarked.output : { key: source.r2Key, etag: source.etag };
  const bytes = await read(env.OBJECTS, blob.key, blob.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The bytes to fingerprint could not be read back unchanged.");
  return decodeOrFail(image, bytes, source.mediaType);
}

/** Computes every admitted fingerprint of the published pixels; an algorithm not installed here fails the job. */
export function fingerprintStep(image: ImageServices, admitted: AdmittedRequest, pixels: RgbaImage): FingerprintOutput {
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  for (const algorithm of admitted.fingerprint_algorithms) {
    const fingerprinter = image.fingerprinters.get(algorithm);
    if (!fingerprinter)
      throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
    const result = fingerprinter.compute(pixels);
    if (result.status !== "computed") throw new StepFailure("svc.jobs.fingerprint_failed", result.message);
    fingerprints.push({ algorithm, value: result.value, bits: hex(result.bits), quality: result.quality });
  }
  return { fingerprints };
}
