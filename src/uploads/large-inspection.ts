/**
 * Completing an upload of media signed by streaming (above the embedded limit, see catalog/limits.ts
 * STREAMED_SIGNING_MAXIMUM_BYTES): the object is read once as a stream, its SHA-256 computed and its container
 * walked by the streaming signer's own scanners, so a gigabyte upload is never in memory. What this checks, and
 * what it does not: the container structure (every top-level box or chunk inside the file, a leading `ftyp` and a
 * `moov` for BMFF, a RIFF WAVE header whose size matches, FLAC's metadata blocks, its last frame's CRC and that
 * the last frame reaches STREAMINFO's sample count) and whether a manifest is present; and the duration (read on
 * the way: it prices audio and video; never less than the file plays: for BMFF, by the in-memory inspector's own
 * code (inspect/isobmff-timing.ts), the longest track's samples cut to its edit list or a fragmented movie's `trun`
 * samples when `mvhd`/`mehd`/`mdhd` state less, an overrunning `stts`/`elst`/`trun` refused as in memory; for FLAC
 * how far its frames reach when STREAMINFO's total is smaller), for FLAC with everything else STREAMINFO states
 * (sample rate, channels, bit depth, as the in-memory inspector reports them); NOT the other codec facts the
 * in-memory inspector reads (dimensions, codecs: null here, so no video/mp4 contract either), which need the whole
 * file.
 */
import { EMBEDDED_SIGNING_MAXIMUM_BYTES } from "../catalog/limits";
import { BmffScanner } from "../media/c2pa/bmff";
import { FlacScanner } from "../media/c2pa/flac";
import { RiffScanner, wavDurationSeconds } from "../media/c2pa/riff";
import { forEachChunk, type Sha256Stream, StreamMediaError, sha256Stream } from "../media/c2pa/stream-hash";
import { STREAMED_MEDIA_TYPES } from "../media/c2pa/stream-sign";
import { flacStreamInfoFacts } from "../media/inspect/audio";
import { blankFacts, type MeasuredFacts, seconds } from "../media/inspect/detection";
import type { InspectionResult } from "../media/types";
import { hex } from "../platform/bytes";

/** What the walk read on the way: the duration, and for FLAC all its STREAMINFO states, as the in-memory inspector reports them. */
function measured(scanner: BmffScanner | RiffScanner | FlacScanner | null): Partial<MeasuredFacts> {
  // Rounded to milliseconds as the in-memory inspector's are: pricing takes a duration of at most 3 decimals only.
  if (scanner instanceof BmffScanner) {
    // The later of what the movie states (mvhd, mehd, mdhd) and what the longest track plays (its samples cut to its
    // edit list, or its fragments summed): a stated duration patched smaller does not shorten the movie. The same
    // MovieTiming the in-memory inspector feeds (inspect/isobmff-timing.ts), so both paths report the same figure.
    return { duration_seconds: seconds(scanner.timing?.seconds ?? 0) };
  }
  if (scanner instanceof RiffScanner) {
    return { duration_seconds: seconds(wavDurationSeconds(scanner.peeks.bodies.get("fmt "), scanner.peeks.sizes.get("data")) ?? 0) };
  }
  if (scanner instanceof FlacScanner && scanner.streamInfo) {
    // The later of STREAMINFO's total and the last frame's end: a total patched smaller does not shorten the audio.
    const { total: _total, ...facts } = flacStreamInfoFacts(scanner.streamInfo, 0, scanner.framesReach);
    return facts;
  }
  return {};
}

/** The structure walk needs no binding hash (the signer computes its own). */
const NO_HASH: Sha256Stream = { update: async () => undefined, digest: async () => new Uint8Array(0) };

/** Whether an upload of this type and size is completed by streaming (and signed by streaming later). */
export function isStreamedUpload(mediaType: string, byteLength: number): boolean {
  return byteLength > EMBEDDED_SIGNING_MAXIMUM_BYTES && STREAMED_MEDIA_TYPES[mediaType] !== undefined;
}

/** SHA-256 and structural inspection of a stored object's body, in one pass. Never throws for bad bytes. */
export async function inspectStreamed(
  body: ReadableStream<Uint8Array>,
  byteLength: number,
  mediaType: string,
  modality: "audio" | "video",
): Promise<{ sha256: string; inspection: InspectionResult }> {
  const container = STREAMED_MEDIA_TYPES[mediaType]!;
  const whole = sha256Stream();
  let inspection: InspectionResult | null = null;
  let hasManifest = false;
  const refuse = (error: unknown) => {
    if (!(error instanceof StreamMediaError)) throw error;
    inspection = { status: "corrupt", message: error.message };
  };
  let scanner: BmffScanner | RiffScanner | FlacScanner | null = null;
  try {
    // The duration prices audio and video (billing), so it is read on the way: `mvhd`, `mehd` and each track's
    // `mdhd`, `stts` and `elst` as `moov` streams past, then each fragment's `tfhd`, `tfdt` and `trun`; the WAV
    // `fmt ` and the `data` chunk's size; or FLAC's STREAMINFO and its last frame's header.
    scanner =
      container === "bmff"
        ? new BmffScanner(byteLength, { verify: true, timing: true }, NO_HASH)
        : container === "riff"
          ? new RiffScanner(byteLength, { peek: { "fmt ": 16, data: 0 } }, NO_HASH)
          : new FlacScanner(byteLength, { sign: false }, NO_HASH);
  } catch (error) {
    refuse(error);
  }
  // The whole body is hashed even after the structure was refused: the declared hash is checked first.
  await forEachChunk(body, async (chunk) => {
    await whole.update(chunk);
    if (scanner && !inspection) await scanner.push(chunk).catch(refuse);
  });
  if (scanner && !inspection) {
    await scanner.finish().catch(refuse);
    hasManifest = scanner.store !== null;
  }
  inspection ??= {
    status: "ok",
    facts: {
      ...blankFacts(container === "bmff" ? "isobmff" : container === "riff" ? "riff-wave" : "flac"),
      media_type: mediaType,
      modality,
      byte_length: byteLength,
      ...measured(scanner),
      has_c2pa_manifest: hasManifest,
    },
  };
  return { sha256: hex(await whole.digest()), inspection };
}
