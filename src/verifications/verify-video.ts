import { VIDEO_FINGERPRINT_MAX_BYTES, VIDEO_VERIFY_MAX_SECONDS } from "../catalog/limits";
import type { Bindings } from "../env";
import { hammingDistance } from "../media/fingerprint/codes";
import { VPDQ_MATCH, VPDQ_SECONDS_PER_HASH } from "../media/fingerprint/video";
import { indexedVideoFrames, videoMedia } from "../media/video";
import { fromHex } from "../platform/bytes";
import { indexMatches, PDQ_MIN_QUALITY } from "../soft-bindings/repo";
import type { DurableFacts, SoftBindingMatch } from "./verdict";
import type { StreamedSubject } from "./verify-streamed";

/*
 * The durable signals of a video: vPDQ frames (one PDQ hash a second of its first VIDEO_VERIFY_MAX_SECONDS, computed by the media
 * Worker; a publication recorded five a second), looked up by their PDQ bands in the index (query frames voting for
 * publications), each candidate confirmed by vPDQ's rule. No video watermark is installed: that signal is not computed.
 */

/** A lookup needs this many distinct frames of enough quality (a few seconds of varied picture). */
export const VPDQ_MIN_QUERY_FRAMES = 3;

export async function videoDurableFacts(
  env: Bindings,
  subject: { bytes: Uint8Array; mediaType: string; streamed?: StreamedSubject },
  warnings: string[],
  also: D1PreparedStatement[],
  answered: (results: D1Result[]) => void,
): Promise<DurableFacts> {
  const none: DurableFacts = { watermark: null, fingerprint: null };
  const media = videoMedia(env);
  if (!media) {
    warnings.push("Fingerprint signals are not computed: the video pipeline (the media Worker) is not installed in this deployment.");
    return none;
  }
  warnings.push("The watermark is not checked: no video watermark is installed in this deployment.");
  const byteLength = subject.streamed?.byteLength ?? subject.bytes.length;
  if (byteLength > VIDEO_FINGERPRINT_MAX_BYTES) {
    warnings.push(
      `Fingerprint signals are not computed: videos larger than ${VIDEO_FINGERPRINT_MAX_BYTES / 1024 / 1024} MiB are not decoded.`,
    );
    return none;
  }
  // A streamed subject goes to the media Worker as the stored object's own stream (never whole here).
  const body = subject.streamed ? await storedBody(subject.streamed) : new Blob([subject.bytes]).stream();
  if (!body) {
    warnings.push("Fingerprint signals are not computed: the video's bytes changed or were removed during the verification.");
    return none;
  }
  // The binding itself may fail (the media Worker over its limits, or being deployed): the signals are then not
  // computed, as for any other reason; the verification still answers.
  const computed = await media
    .fingerprint(body, byteLength, {
      maxSeconds: VIDEO_VERIFY_MAX_SECONDS,
      tmk: false,
      secondsPerHash: VPDQ_SECONDS_PER_HASH.query,
    })
    .catch(() => ({ status: "decode_failed" as const, message: "the media Worker could not be reached" }));
  if (computed.status !== "computed") {
    warnings.push(`Fingerprint signals are not computed: ${computed.message}`);
    return none;
  }
  const frames = indexedVideoFrames(computed.frames, PDQ_MIN_QUALITY).map((f) => fromHex(f.bitsHex));
  if (frames.length < VPDQ_MIN_QUERY_FRAMES) {
    warnings.push(
      "Fingerprints are not looked up: the video has too few distinct frames with enough detail (a still, dark or very short video matches unrelated ones).",
    );
    return none;
  }
  const found = await indexMatches(env.DB, { exact: [], video: { frames }, also });
  answered(found.also);
  // vPDQ's rule (upstream's matcher): a query frame matches within VPDQ_MATCH.distance of one of the publication's
  // frames, and the publication is the same video when VPDQ_MATCH.queryMatchPercent of the query's frames match (an
  // excerpt is a part of the publication, so only the query's side counts).
  const confirmed: (SoftBindingMatch & { share: number })[] = [];
  for (const candidate of found.video) {
    let matched = 0;
    let distances = 0;
    for (const query of frames) {
      let best = Number.POSITIVE_INFINITY;
      for (const frame of candidate.frames) best = Math.min(best, hammingDistance(query, frame));
      if (best <= VPDQ_MATCH.distance) {
        matched++;
        distances += best;
      }
    }
    const share = matched / frames.length;
    if (share * 100 < VPDQ_MATCH.queryMatchPercent) continue;
    confirmed.push({
      kind: "fingerprint",
      algorithm: candidate.algorithm,
      publication_id: candidate.publication_id,
      manifest_id: candidate.manifest_label,
      // The mean distance of the matched frames, as a PDQ match reports its one distance.
      distance: Math.round(distances / matched),
      score: Math.round(share * 1000) / 1000,
      share,
    });
  }
  confirmed.sort((a, b) => b.share - a.share || a.distance - b.distance);
  const candidates = confirmed.map(({ share: _, ...match }) => match);
  return { watermark: null, fingerprint: { match: candidates[0] ?? null, candidates } };
}

/** The stored object's body (etag-pinned), or null when it is gone or changed. */
async function storedBody(streamed: StreamedSubject): Promise<ReadableStream<Uint8Array> | null> {
  const { bucket, key, etag } = streamed.source;
  const object = await bucket.get(key, { onlyIf: { etagMatches: etag } });
  return object && "body" in object ? object.body : null;
}
