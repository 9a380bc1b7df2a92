import type { Bindings } from "../env";
import { chromaprintOf } from "../media/audio";
import { alignFingerprints, CHROMAPRINT_MATCH_MAX_BER, isccAudioCode } from "../media/fingerprint/audio";
import { decodeIsccUnit } from "../media/fingerprint/codes";
import type { AudioServices } from "../media/types";
import { hex } from "../platform/bytes";
import { CHROMAPRINT_SILENCE, type ExactQuery, indexMatches } from "../soft-bindings/repo";
import type { DurableFacts, SoftBindingMatch } from "./verdict";

/*
 * The durable signals of an audio file: Chromaprint frames of (the first minutes of) the recording, looked up by
 * excerpt in the index (exact frames voting for one shift), each candidate confirmed by the bit error rate of the
 * whole aligned query against the publication's frames; and the ISCC audio code, looked up exactly. The audio
 * watermark is not part of this deployment yet: reported as not computed.
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

export async function audioDurableFacts(
  env: Bindings,
  audio: AudioServices | null,
  subject: { bytes: Uint8Array; mediaType: string },
  warnings: string[],
  also: D1PreparedStatement[],
  answered: (results: D1Result[]) => void,
): Promise<DurableFacts> {
  const none: DurableFacts = { watermark: null, fingerprint: null };
  warnings.push("The audio watermark is not checked: this deployment has no audio watermark yet.");
  if (!audio) {
    warnings.push("Fingerprint signals are not computed: the audio pipeline is not installed.");
    return none;
  }
  const computed = await chromaprintOf(audio, subject.bytes, subject.mediaType, { maxSeconds: AUDIO_VERIFY_MAX_SECONDS });
  if (computed.status !== "computed") {
    warnings.push(`Fingerprint signals are not computed: ${computed.message}`);
    return none;
  }
  const frames = computed.frames;
  if (frames.length < CHROMAPRINT_MIN_OVERLAP) {
    warnings.push(
      `Fingerprints are not looked up: ${computed.seconds.toFixed(1)} s of audio is too short to match reliably (about 8 s or more).`,
    );
    return none;
  }
  const distinct = new Set(frames).size - (frames.includes(CHROMAPRINT_SILENCE) ? 1 : 0);
  if (distinct < CHROMAPRINT_MIN_DISTINCT) {
    warnings.push(
      "Fingerprints are not looked up: the audio varies too little (silence or a steady sound), and such audio matches unrelated recordings.",
    );
    return none;
  }
  // The ISCC audio code describes the whole recording: looked up only when the whole file was read.
  const isccCode = computed.truncated ? null : isccAudioCode(frames);
  const exact: ExactQuery[] = [];
  if (isccCode) exact.push({ algorithm: "iscc-audio", bitsHex: hex(decodeIsccUnit(isccCode).digest), limit: FINGERPRINT_CANDIDATES });
  const found = await indexMatches(env.DB, { exact, chromaprint: { frames }, also });
  answered(found.also);

  const confirmed: (SoftBindingMatch & { rate: number })[] = [];
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
  const chromaprintMatches = confirmed.map(({ rate: _, ...match }) => match);
  const isccMatches = (found.exact[0] ?? []).map(
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
  return { watermark: null, fingerprint: { match: candidates[0] ?? null, candidates } };
}
