import { VIDEO_PIPELINE_MEDIA_TYPES } from "../../catalog/installed";
import { VIDEO_FINGERPRINT_MAX_BYTES, VIDEO_FINGERPRINT_MAX_SECONDS } from "../../catalog/limits";
import type { Bindings } from "../../env";
import { encodeVpdq, VPDQ_SECONDS_PER_HASH } from "../../media/fingerprint/video";
import { indexedVideoFrames, videoMedia } from "../../media/video";
import { base64, fromHex } from "../../platform/bytes";
import { PDQ_MIN_QUALITY } from "../../soft-bindings/repo";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput } from "../outputs";
import type { ObjectRow } from "../repo";
import { StepFailure } from "./common";

export function isVideo(mediaType: string): boolean {
  return VIDEO_PIPELINE_MEDIA_TYPES.includes(mediaType);
}

/**
 * The video fingerprints of a publication, computed by the media Worker from the upload (signing leaves the frames
 * unchanged): vPDQ (five PDQ hashes a second; its frames of enough quality are indexed for lookups by excerpt) and
 * TMK+PDQF (whole-video features in the upstream `.tmk` layout, recorded for comparison).
 */
export async function videoFingerprintStep(env: Bindings, admitted: AdmittedRequest, source: ObjectRow): Promise<FingerprintOutput> {
  if (admitted.fingerprint_algorithms.length === 0) return { fingerprints: [] };
  const media = videoMedia(env);
  if (!media) throw new StepFailure("svc.jobs.step_unavailable", "The video pipeline (the media Worker) is not bound in this deployment.");
  const stored = await env.OBJECTS.get(source.r2Key, { onlyIf: { etagMatches: source.etag } });
  if (!stored || !("body" in stored))
    throw new StepFailure("svc.jobs.source_unavailable", "The video to fingerprint could not be read back unchanged.");
  if (stored.size > VIDEO_FINGERPRINT_MAX_BYTES) {
    await stored.body.cancel();
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `Video fingerprints are computed for files of at most ${VIDEO_FINGERPRINT_MAX_BYTES / 1024 / 1024} MiB.`,
    );
  }
  const tmk = admitted.fingerprint_algorithms.includes("tmk-pdqf");
  const computed = await media.fingerprint(stored.body, stored.size, {
    maxSeconds: VIDEO_FINGERPRINT_MAX_SECONDS,
    tmk,
    secondsPerHash: VPDQ_SECONDS_PER_HASH.index,
  });
  if (computed.status !== "computed") {
    // Bytes no decoder here reads, or a video over its limits, are properties of the input (like an undecodable
    // image): the job is rejected, not failed.
    throw new StepFailure("svc.jobs.decode_failed", computed.message);
  }
  // Both bindings carry the frames worth indexing (see indexedVideoFrames): a publication with
  // TMK+PDQF alone (SPEC's default for video) is found by them too, and confirmed by them.
  const indexed = indexedVideoFrames(computed.frames, PDQ_MIN_QUALITY)
    .map((f) => f.bitsHex)
    .join("");
  const fingerprints: FingerprintOutput["fingerprints"] = [];
  for (const algorithm of admitted.fingerprint_algorithms) {
    if (algorithm === "vpdq") {
      // The value is every sampled frame in upstream's vPDQ file format (`frame,quality,hash,timestamp` lines).
      const hashes = computed.frames.map((f) => ({ ...f, bits: fromHex(f.bitsHex) }));
      fingerprints.push({ algorithm, value: encodeVpdq(hashes), bits: indexed, quality: null });
    } else if (algorithm === "tmk-pdqf") {
      if (!computed.tmk) throw new StepFailure("svc.jobs.fingerprint_failed", "TMK+PDQF features were not computed.");
      fingerprints.push({ algorithm, value: base64(computed.tmk), bits: indexed, quality: null });
    } else throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} fingerprint is not installed in this deployment.`);
  }
  return { fingerprints };
}
