import { AUDIO_PIPELINE_MEDIA_TYPES } from "../../catalog/installed";
import type { Bindings } from "../../env";
import { chromaprintOf } from "../../media/audio";
import { encodeChromaprint, isccAudioCode } from "../../media/fingerprint/audio";
import { decodeIsccUnit } from "../../media/fingerprint/codes";
import type { AudioServices } from "../../media/types";
import { hex } from "../../platform/bytes";
import { chromaprintFramesHex } from "../../soft-bindings/repo";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput, WatermarkOutput } from "../outputs";
import type { ObjectRow } from "../repo";
import type { JobServices } from "../runner";
import { StepFailure } from "./common";

/**
 * What of a published recording is fingerprinted: its first 20 minutes, read from at most the first 32 MiB of the
 * file (a longer WAV is fingerprinted from its beginning), so the step's memory is bounded whatever the upload.
 * A copy is recovered from any excerpt of that part.
 */
export const AUDIO_FINGERPRINT_MAX_SECONDS = 20 * 60;
export const AUDIO_FINGERPRINT_MAX_BYTES = 32 * 1024 * 1024;

export function isAudio(mediaType: string): boolean {
  return AUDIO_PIPELINE_MEDIA_TYPES.includes(mediaType);
}

export async function audioServicesOf(services: JobServices): Promise<AudioServices> {
  const loaded = services.audio ? await services.audio().catch(() => null) : null;
  if (!loaded) throw new StepFailure("svc.jobs.step_unavailable", "The audio pipeline is not installed in this deployment.");
  return loaded;
}

/**
 * The first AUDIO_FINGERPRINT_MAX_BYTES of the object, only while its etag still matches (null otherwise), and
 * whether that is the whole object.
 */
async function readHead(bucket: R2Bucket, key: string, etag: string): Promise<{ bytes: Uint8Array; whole: boolean } | null> {
  const stored = await bucket.get(key, { onlyIf: { etagMatches: etag }, range: { offset: 0, length: AUDIO_FINGERPRINT_MAX_BYTES } });
  if (!stored || !("body" in stored)) return null;
  const bytes = new Uint8Array(await stored.arrayBuffer());
  return { bytes, whole: bytes.length >= stored.size };
}

/**
 * Every admitted audio fingerprint of the recording as published (the watermarked output, else the upload: signing
 * leaves the samples unchanged): Chromaprint's
 * frames (indexed for lookups by excerpt) and the ISCC audio code computed from them.
 */
export async function audioFingerprintStep(
  env: Bindings,
  audio: AudioServices,
  admitted: AdmittedRequest,
  source: ObjectRow,
  /** The watermark step's output, when the recipe marks the audio: the samples published are those. */
  watermarked: WatermarkOutput | null = null,
): Promise<FingerprintOutput> {
  if (admitted.fingerprint_algorithms.length === 0) return { fingerprints: [] };
  const blob = watermarked ? watermarked.output : { key: source.r2Key, etag: source.etag };
  const head = await readHead(env.OBJECTS, blob.key, blob.etag);
  if (!head) throw new StepFailure("svc.jobs.source_unavailable", "The audio to fingerprint could not be read back unchanged.");
  const computed = await chromaprintOf(audio, head.bytes, source.mediaType, { maxSeconds: AUDIO_FINGERPRINT_MAX_SECONDS });
  // A coding inside the file that no decoder here reads (e.g. ADPCM in a WAV) is a property of the input, like bytes
  // that do not decode: the job is rejected.
  if (computed.status !== "computed") throw new StepFailure("svc.jobs.decode_failed", computed.message);
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  for (const algorithm of admitted.fingerprint_algorithms) {
    if (algorithm === "chromaprint") {
      // A recording under about 3 seconds has no frame (Chromaprint's first needs that much audio): it is signed
      // with its empty fingerprint recorded, and nothing is indexed for it (as an image without texture).
      fingerprints.push({
        algorithm,
        value: encodeChromaprint(computed.frames),
        bits: chromaprintFramesHex(computed.frames),
        quality: null,
      });
    } else if (algorithm === "iscc-audio") {
      // The ISCC audio code describes a whole recording: a code of its first part would be another recording's.
      if (computed.truncated || !head.whole)
        throw new StepFailure(
          "svc.jobs.fingerprint_failed",
          `The ISCC audio code describes a whole recording, and this one is longer than the ${AUDIO_FINGERPRINT_MAX_SECONDS / 60} minutes (or ${AUDIO_FINGERPRINT_MAX_BYTES / 1024 / 1024} MiB) a job fingerprints; sign it without iscc-audio.`,
        );
      const value = isccAudioCode(computed.frames);
      fingerprints.push({ algorithm, value, bits: hex(decodeIsccUnit(value).digest), quality: null });
    } else throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
  }
  return { fingerprints };
}
