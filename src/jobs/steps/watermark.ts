import type { Bindings } from "../../env";
import type { ImageServices, WatermarkStrength } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { VerifyPixels } from "../../verifications/verify-pixels";
import type { AdmittedRequest } from "../admission";
import type { WatermarkOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { decodeOrFail, put, read, StepFailure } from "./common";
import { readPublished } from "./fingerprint";

/**
 * Embeds a fresh random 64-bit payload, re-encodes in the upload's format, and reads the mark back from the
 * encoded bytes before the step returns (its record is made only then): an output whose mark did not survive its own
 * encoding is a failure, never recorded or published (its intermediate write, made while the mark is read back, is
 * removed). The read-back is the one a verification of the output makes (fingerprint.ts readPublished: a
 * JPEG reduced in the DCT domain), so the check is the one verification will pass. Returns those pixels for the
 * fingerprint step and the stored bytes for the sign step (so neither reads them back from R2 in the same run).
 */
export async function watermarkStep(
  env: Bindings,
  image: ImageServices,
  job: JobRow,
  admitted: AdmittedRequest,
  source: ObjectRow,
  /** The upload's bytes if the runner already started reading them (common.ts readAhead: null unless unchanged). */
  upload: (() => Promise<Uint8Array | null>) | null = null,
): Promise<{ output: WatermarkOutput; pixels: VerifyPixels; bytes: Uint8Array }> {
  const algorithm = admitted.watermark_algorithm;
  if (algorithm !== image.watermarker.algorithm)
    throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} watermark is not installed in this deployment.`);
  const strength = admitted.watermark_strength ?? "balanced";
  const bytes = await (upload ? upload() : read(env.OBJECTS, source.r2Key, source.etag));
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const payload = crypto.getRandomValues(new Uint8Array(8));
  const { encoded, psnr } = await markAndEncode(image, bytes, source.mediaType, payload, strength);
  // The intermediate write (what a resumed run starts from) is under way while the mark is read back: the write's
  // round trip overlaps the read-back's CPU instead of following it. It is awaited before the step returns, so the
  // step's record (with its etag) is still only made for stored bytes; if the mark does not read back, the write is
  // undone and the job fails as before (the key is the step's own: nothing reads it unless that record exists).
  const key = `t/${job.tenantId}/jobs/${job.id}/watermark/output`;
  const storing = put(env.OBJECTS, key, encoded, source.mediaType);
  storing.catch(() => undefined); // a failed write surfaces where it is awaited
  // the original pixels are out of scope before the read-back decode
  let readBack: VerifyPixels;
  try {
    readBack = await readPublished(image, encoded, source.mediaType);
    const detected = image.watermarker.detect(readBack.full);
    if (detected.status !== "detected" || hex(detected.payload) !== hex(payload))
      throw new StepFailure("svc.jobs.watermark_failed", "The watermark did not read back from the encoded output; nothing was published.");
  } catch (error) {
    await storing.then(() => env.OBJECTS.delete(key)).catch(() => undefined);
    throw error;
  }
  const stored = await storing;
  return {
    output: {
      output: stored,
      algorithm,
      strength,
      payload: hex(payload),
      psnr_db: Math.round(psnr * 100) / 100,
      // the output's own size (the read-back may be reduced)
      width: readBack.plane.sourceWidth,
      height: readBack.plane.sourceHeight,
    },
    pixels: readBack,
    bytes: encoded,
  };
}

/**
 * Decodes, embeds and re-encodes. Where the codec streams the format both ways (JPEG), neither the source nor the
 * marked image is ever whole in memory (a 12 MP image is 48 MB of RGBA): the watermark reads the source row by row
 * (reduced for its luma grid, then full size) and its marked rows go straight into the encoder. Otherwise (another
 * format, or a JPEG the streaming decoder does not implement or refuses) the whole image is decoded first.
 */
export async function markAndEncode(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
  payload: Uint8Array,
  strength: WatermarkStrength,
): Promise<{ encoded: Uint8Array; psnr: number }> {
  const streamed = await markAndEncodeStreamed(image, bytes, mediaType, payload, strength);
  if (streamed) return streamed;
  const original = await decodeOrFail(image, bytes, mediaType);
  const { watermarker, codec } = image;
  const stream = watermarker.embedInto ? await codec.rowEncoder?.(mediaType, original.width, original.height, bytes) : null;
  if (stream && watermarker.embedInto) {
    const marked = watermarker.embedInto({ image: original, payload, strength }, stream);
    if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
    try {
      return { encoded: stream.finish(), psnr: marked.psnr_db };
    } catch (error) {
      throw new StepFailure("svc.jobs.watermark_failed", `The image could not be encoded: ${String((error as Error)?.message ?? error)}`);
    }
  }
  const marked = watermarker.embed({ image: original, payload, strength });
  if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
  const out = await codec.encode(marked.image, mediaType, bytes);
  if (out.status !== "encoded") throw new StepFailure("svc.jobs.watermark_failed", out.message);
  return { encoded: out.bytes, psnr: marked.psnr_db };
}

/** The fully streamed path; null where it does not apply (the caller then decodes the whole image). */
async function markAndEncodeStreamed(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
  payload: Uint8Array,
  strength: WatermarkStrength,
): Promise<{ encoded: Uint8Array; psnr: number } | null> {
  const { watermarker, codec } = image;
  if (!watermarker.embedFrom || !codec.rowSource || !codec.rowEncoder) return null;
  const source = await codec.rowSource(bytes, mediaType);
  if (source.status !== "ready") return null;
  const stream = await codec.rowEncoder(mediaType, source.source.width, source.source.height, bytes);
  if (!stream) return null;
  const marked = watermarker.embedFrom({ source: source.source, payload, strength }, stream);
  if (marked.status === "too_small") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
  // a source our decoder could not read after all (or a kernel failure): the whole-image path decides
  if (marked.status !== "embedded") return null;
  try {
    return { encoded: stream.finish(), psnr: marked.psnr_db };
  } catch (error) {
    throw new StepFailure("svc.jobs.watermark_failed", `The image could not be encoded: ${String((error as Error)?.message ?? error)}`);
  }
}
