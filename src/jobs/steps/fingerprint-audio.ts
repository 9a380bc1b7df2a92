import { AUDIO_PIPELINE_MEDIA_TYPES } from "../../catalog/installed";
import type { Bindings } from "../../env";
import { chromaprintOf } from "../../media/audio";
import { encodeChromaprint, isccAudioCode } from "../../media/fingerprint/audio";
import { decodeIsccUnit } from "../../media/fingerprint/codes";
import type { AudioServices } from "../../media/types";
import { hex } from "../../platform/bytes";
import { chromaprintFramesHex } from "../../soft-bindings/repo";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput } from "../outputs";
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

/** The first AUDIO_FINGERPRINT_MAX_BYTES of the object, only while its etag still matches (null otherwise). */
async function readHead(bucket: R2Bucket, key: string, etag: string): Promise<Uint8Array | null> {
  const stored = await bucket.get(key, { onlyIf: { etagMatches: etag }, range: { offset: 0, length: AUDIO_FINGERPRINT_MAX_BYTES } });
  if (!stored || !("body" in stored)) return null;
  return new Uint8Array(await stored.arrayBuffer());
}

/**
 * Every admitted audio fingerprint of the recording (the upload: signing leaves the samples unchanged): Chromaprint's
 * frames (indexed for lookups by excerpt) and the ISCC audio code computed from them.
 */
export async function audioFingerprintStep(
  env: Bindings,
  audio: AudioServices,
  admitted: AdmittedRequest,
  source: ObjectRow,
): Promise<FingerprintOutput> {
  if (admitted.fingerprint_algorithms.length === 0) return { fingerprints: [] };
  const bytes = await readHead(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The audio to fingerprint could not be read back unchanged.");
  const computed = await chromaprintOf(audio, bytes, source.mediaType, { maxSeconds: AUDIO_FINGERPRINT_MAX_SECONDS });
  if (computed.status === "unsupported") throw new StepFailure("svc.jobs.step_unavailable", computed.message);
  if (computed.status === "failed") throw new StepFailure("svc.jobs.decode_failed", computed.message);
  if (computed.frames.length === 0)
    throw new StepFailure("svc.jobs.fingerprint_failed", "The recording is too short to fingerprint (under about three seconds).");
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  for (const algorithm of admitted.fingerprint_algorithms) {
    if (algorithm === "chromaprint") {
      fingerprints.push({
        algorithm,
        value: encodeChromaprint(computed.frames),
        bits: chromaprintFramesHex(computed.frames),
        quality: null,
      });
    } else if (algorithm === "iscc-audio") {
      const value = isccAudioCode(computed.frames);
      fingerprints.push({ algorithm, value, bits: hex(decodeIsccUnit(value).digest), quality: null });
    } else throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
  }
  return { fingerprints };
}
