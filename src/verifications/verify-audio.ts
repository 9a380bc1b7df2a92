import { SVC_AUDIO_WATERMARK } from "../catalog/algorithms";
import type { Bindings } from "../env";
import { AUDIO_WATERMARK_KEY, chromaprintOf, MonoCollector, WATERMARK_READ_MAX_SAMPLES } from "../media/audio";
import { alignFingerprints, CHROMAPRINT_MATCH_MAX_BER, isccAudioCode } from "../media/fingerprint/audio";
import { decodeIsccUnit } from "../media/fingerprint/codes";
import type { AudioServices } from "../media/types";
import { hex } from "../platform/bytes";
import { CHROMAPRINT_SILENCE, type ExactQuery, indexMatches, publicationChromaprint } from "../soft-bindings/repo";
import type { DurableFacts, SoftBindingMatch } from "./verdict";
import type { StreamedSubject } from "./verify-streamed";

/*
 * The durable signals of an audio file: Chromaprint frames of (the first minutes of) the recording, looked up by
 * excerpt in the index (exact frames voting for one shift), each candidate confirmed by the bit error rate of the
 * whole aligned query against the publication's frames; the ISCC audio code, looked up exactly; and our audio
 * watermark, detected in the same decode and its payload looked up exactly.
 */

/**
 * What of a file being verified is fingerprinted: its first minute (a copy of a whole song is found by its first
 * minute, an excerpt by all of it). Decoding costs about 0.4 s of CPU per minute of MP3, so a request stays bounded.
 */
export const AUDIO_VERIFY_MAX_SECONDS = 60;
/**
 * A Chromaprint candidate counts as the same recording when its aligned frames differ in at most
 * CHROMAPRINT_MATCH_MAX_BER of their bits over at least this many frames (about 5 seconds): a shorter overlap says too little.
 */
export const CHROMAPRINT_MIN_OVERLAP = 40;
/**
 * Audio whose frames take fewer distinct values than this (silence, a steady tone, a click track) has no content
 * that tells one recording from another: any two such files align with few differing bits and share their ISCC
 * code, so nothing is looked up for it (as an image with too little texture is not looked up by PDQ or ISCC).
 */
export const CHROMAPRINT_MIN_DISTINCT = 16;
/** A candidate is aligned within this many frames of the shift its votes agreed on (the vote fixes the alignment). */
const ALIGNMENT_WINDOW = 8;

const FINGERPRINT_CANDIDATES = 10;

/**
 * Of a large recording read by streaming (verify-streamed.ts), the first bytes decoded: they hold the
 * AUDIO_VERIFY_MAX_SECONDS fingerprinted of a 16-bit stereo WAV up to 48 kHz (11.5 MB a minute; a richer format gets
 * less than a minute), and bound the memory whatever the file (the publication reads at most its first 32 MiB).
 */
export const AUDIO_VERIFY_HEAD_BYTES = 16 * 1024 * 1024;

export async function audioDurableFacts(
  env: Bindings,
  audio: AudioServices | null,
  subject: { bytes: Uint8Array; mediaType: string; streamed?: StreamedSubject },
  warnings: string[],
  also: D1PreparedStatement[],
  answered: (results: D1Result[]) => void,
): Promise<DurableFacts> {
  const none: DurableFacts = { watermark: null, fingerprint: null };
  if (!audio) {
    warnings.push("Watermark and fingerprint signals are not computed: the audio pipeline is not installed.");
    return none;
  }
  // One decode feeds both: Chromaprint as it streams, and the watermark detector from the PCM kept (at most a minute).
  const bytes = subject.streamed ? await storedHead(subject.streamed) : subject.bytes;
  if (!bytes) {
    warnings.push(
      "Watermark and fingerprint signals are not computed: the recording's bytes changed or were removed during the verification.",
    );
    return none;
  }
  const pcm = new MonoCollector(WATERMARK_READ_MAX_SAMPLES);
  const computed = await chromaprintOf(audio, bytes, subject.mediaType, { maxSeconds: AUDIO_VERIFY_MAX_SECONDS, also: pcm });
  if (computed.status !== "computed") {
    warnings.push(`Watermark and fingerprint signals are not computed: ${computed.message}`);
    return none;
  }

  const { watermarker } = audio;
  let watermark: DurableFacts["watermark"] = null;
  let payload: Uint8Array | null = null;
  let confidence = 0;
  const kept = pcm.mono();
  if (kept.length < watermarker.minimumSeconds * pcm.sampleRate) {
    warnings.push(`The watermark is not checked: the audio is shorter than ${watermarker.minimumSeconds} seconds.`);
  } else {
    const detected = watermarker.detect({ pcm: kept, sampleRate: pcm.sampleRate, channels: 1, key: AUDIO_WATERMARK_KEY });
    if (detected.status === "failed") warnings.push(`The watermark could not be checked: ${detected.message}`);
    else if (detected.status === "detected") {
      payload = detected.payload;
      confidence = detected.confidence;
    } else watermark = { present: false, payload_valid: false, match: null };
  }

  const frames = computed.frames;
  let lookUp = true;
  if (frames.length < CHROMAPRINT_MIN_OVERLAP) {
    warnings.push(
      `Fingerprints are not looked up: ${computed.seconds.toFixed(1)} s of audio is too short to match reliably (about 8 s or more).`,
    );
    lookUp = false;
  } else if (new Set(frames).size - (frames.includes(CHROMAPRINT_SILENCE) ? 1 : 0) < CHROMAPRINT_MIN_DISTINCT) {
    warnings.push(
      "Fingerprints are not looked up: the audio varies too little (silence or a steady sound), and such audio matches unrelated recordings.",
    );
    lookUp = false;
  }
  // The ISCC audio code describes the whole recording: looked up only when the whole file was read.
  const isccCode = lookUp && !computed.truncated ? isccAudioCode(frames) : null;
  const exact: ExactQuery[] = [];
  if (payload) exact.push({ algorithm: SVC_AUDIO_WATERMARK, bitsHex: hex(payload), limit: 1 });
  if (isccCode) exact.push({ algorithm: "iscc-audio", bitsHex: hex(decodeIsccUnit(isccCode).digest), limit: FINGERPRINT_CANDIDATES });
  if (exact.length === 0 && !lookUp) return { watermark, fingerprint: null };
  const found = await indexMatches(env.DB, { exact, chromaprint: lookUp ? { frames } : null, also });
  answered(found.also);

  if (payload) {
    const row = found.exact[0]?.[0];
    watermark = {
      present: true,
      payload_valid: true,
      match: row
        ? {
            kind: "watermark",
            algorithm: SVC_AUDIO_WATERMARK,
            publication_id: row.publication_id,
            manifest_id: row.manifest_label,
            distance: 0,
            score: confidence,
          }
        : null,
    };
  }
  if (!lookUp) return { watermark, fingerprint: null };

  const confirmed: (SoftBindingMatch & { rate: number })[] = [];
  const matched = watermark?.match ?? null;
  for (const candidate of found.chromaprint) {
    const aligned = alignFingerprints(frames, candidate.frames, {
      minOverlap: CHROMAPRINT_MIN_OVERLAP,
      maxBitErrorRate: CHROMAPRINT_MATCH_MAX_BER,
      minOffset: candidate.shift - ALIGNMENT_WINDOW,
      maxOffset: candidate.shift + ALIGNMENT_WINDOW,
    });
    if (!aligned) continue;
    confirmed.push({
      kind: "fingerprint",
      algorithm: "chromaprint",
      publication_id: candidate.publication_id,
      manifest_id: candidate.manifest_label,
      distance: Math.round(aligned.bitErrorRate * aligned.overlap * 32),
      score: Math.round((1 - aligned.bitErrorRate / CHROMAPRINT_MATCH_MAX_BER) * 1000) / 1000,
      rate: aligned.bitErrorRate,
    });
  }
  confirmed.sort((a, b) => a.rate - b.rate);
  // The layout key is public, so anyone can read a payload and embed it into other audio. A payload whose publication
  // recorded a sound that this audio does not match (anywhere in it) is not taken as a recovery of that publication.
  if (watermark && matched && !confirmed.some((c) => c.publication_id === matched.publication_id)) {
    const recorded = await publicationChromaprint(env.DB, matched.publication_id);
    const aligned =
      recorded && recorded.length > 0
        ? alignFingerprints(frames, recorded, { minOverlap: CHROMAPRINT_MIN_OVERLAP, maxBitErrorRate: CHROMAPRINT_MATCH_MAX_BER })
        : true;
    if (!aligned) {
      warnings.push(
        "The watermark names a publication whose recorded sound does not match this audio: the mark may have been copied onto other content, so it is not taken as a recovery of that publication.",
      );
      watermark = { present: true, payload_valid: true, match: null };
    }
  }
  const chromaprintMatches = confirmed.map(({ rate: _, ...match }) => match);
  const isccMatches = (found.exact[payload ? 1 : 0] ?? []).map(
    (row): SoftBindingMatch => ({
      kind: "fingerprint",
      algorithm: "iscc-audio",
      publication_id: row.publication_id,
      manifest_id: row.manifest_label,
      distance: 0,
      score: 1,
    }),
  );
  // The exact code first (the same recording, decoded alike), then Chromaprint's confirmed matches, best first.
  const candidates = [...isccMatches, ...chromaprintMatches.filter((m) => !isccMatches.some((i) => i.publication_id === m.publication_id))];
  return { watermark, fingerprint: { match: candidates[0] ?? null, candidates } };
}

/** The first AUDIO_VERIFY_HEAD_BYTES of a streamed recording (etag-pinned), or null when it is gone or changed. */
async function storedHead(streamed: StreamedSubject): Promise<Uint8Array | null> {
  const { bucket, key, etag } = streamed.source;
  const length = Math.min(AUDIO_VERIFY_HEAD_BYTES, streamed.byteLength);
  const object = await bucket.get(key, { onlyIf: { etagMatches: etag }, range: { offset: 0, length } });
  return object && "body" in object ? new Uint8Array(await object.arrayBuffer()) : null;
}
