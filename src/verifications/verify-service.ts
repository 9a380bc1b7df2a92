import { type AnchorEntriesRead, anchorEntriesStatement, anchorMatch } from "../anchoring/log";
import { IMAGE_DECODE_LIMITS, SVC_IMAGE_WATERMARK } from "../catalog/algorithms";
import { AUDIO_PIPELINE_MEDIA_TYPES, IMAGE_PIPELINE_MEDIA_TYPES, VIDEO_PIPELINE_MEDIA_TYPES } from "../catalog/installed";
import { database } from "../db/client";
import type { Bindings } from "../env";
import { EngineReadTooLarge } from "../media/c2pa/engine";
import { activeManifestSignature, signerCredentials } from "../media/c2pa/jumbf-signature";
import { type ManifestClaims, type SignerSummary, verifyManifest } from "../media/c2pa/verifier";
import type { AudioServices, ImageServices } from "../media/types";
import { fromHex, hex } from "../platform/bytes";
import { type D1Rides, d1Rides } from "../platform/d1-rides";
import { ApiError } from "../platform/errors";
import {
  type ExactQuery,
  type IndexedMatch,
  indexMatches,
  PDQ_MATCH_DISTANCE,
  PDQ_MIN_QUALITY,
  PDQ_REGION_MATCH_DISTANCE,
  type RegionMatch,
} from "../soft-bindings/repo";
import { type VerifiedCapture, verifiedCapture } from "./capture";
import { type VerifiedCreator, verifiedCreator } from "./creator";
import { type FingerprintFact, type ImagePixelFacts, measureImagePixels, PIXEL_FACTS_VERSION } from "./pixel-facts";
import { type MemoRead, readPixelMemo } from "./pixel-memo";
import {
  exactPublicationsStateStatement,
  type PublicationsState,
  publishedAtOf,
  type SpeculativeExact,
  speculativeExactLookups,
} from "./repo";
import { verificationTrustAnchors } from "./trust";
import { type DurableFacts, decideVerdict, type OcspStatus, type RelatedPublication, type SoftBindingMatch, type Verdict } from "./verdict";
import { audioDurableFacts } from "./verify-audio";
import type { StreamedSubject } from "./verify-streamed";
import { videoDurableFacts } from "./verify-video";

/*
 * One verification: every signal computed for real, or reported as not computed with a warning, then the
 * verdict. The media engines come in through `VerifyServices` so routes, jobs and tests share this code.
 */

export interface VerifySubject {
  bytes: Uint8Array;
  /** The sniffed media type of `bytes` (never the caller's claim). */
  mediaType: string;
  /** A sidecar manifest store for `bytes`, when the manifest travels beside the file. */
  manifestStore?: Uint8Array;
  /** Set when only a manifest store was given (manifest_uri): the asset's hard binding cannot be checked. */
  manifestOnly?: boolean;
  /** A large stored object read by streaming (verify-streamed.ts): `bytes` is then empty. */
  streamed?: StreamedSubject;
}

/** Revocation check of the active manifest's signer (RFC 6960); injected so it can be replaced in tests. */
/** OCSP of the active manifest's signer, from the manifest store (located once per verification). */
/** `rides`: a read it makes may ride in the verification's next D1 batch (platform/d1-rides.ts). */
export type RevocationCheck = (store: Uint8Array | null, activeLabel: string, rides?: D1Rides) => Promise<RevocationAnswer>;

export interface RevocationAnswer {
  status: OcspStatus;
  warning?: string;
  /**
   * True when the answer was had without asking a responder (a cached answer, or nothing to ask): no wait of the
   * verification's took place for it, so a read made at any point of the verification is as recent as the answer.
   * Absent: a responder may have been asked (the related publications' state is then read after the answer).
   */
  withoutResponder?: boolean;
}

export interface VerifyServices {
  ensureEngine: () => void;
  image: ImageServices | null;
  /** The audio pipeline, loaded on first use (only audio loads it); absent where it is not installed. */
  audio?: () => Promise<AudioServices>;
  revocation: RevocationCheck | null;
}

export interface VerificationOutcome extends Verdict {
  /** `related` as shown to anyone: public facts of still-published publications only. */
  related_publications: RelatedPublication[];
  /** What the manifest says, with the creator it names as anyone may see it (see creator.ts). */
  claims: (ManifestClaims & { creator: VerifiedCreator | null; capture: VerifiedCapture | null }) | null;
  manifest_id: string | null;
  signer: SignerSummary | null;
  media_type: string;
  assertion_labels: string[];
}

/**
 * Publications one fingerprint lookup considers: identical content may be published several times (the same
 * photograph signed twice), and the file's own publication must be among them to be recognized as its own.
 */
const FINGERPRINT_CANDIDATES = 10;
/** The watermark payload names one publication: its earliest. */
const WATERMARK_CANDIDATES = 1;

/**
 * The public face of related publications: their manifest and publication time, only while still published
 * (a withdrawn or expired publication says nothing more to anyone).
 */
async function relatedPublications(
  env: Bindings,
  related: SoftBindingMatch[],
  /** Their state read in the index lookup's batch (see verifySubject), used when it answers for every one of them. */
  known: PublicationsState | null = null,
): Promise<RelatedPublication[]> {
  if (related.length === 0) return [];
  const ids = [...new Set(related.map((r) => r.publication_id))];
  const publishedAt = known && ids.every((id) => known.considered.has(id)) ? known.publishedAt : await publishedAtOf(env.DB, ids);
  const seen = new Set<string>();
  const out: RelatedPublication[] = [];
  for (const r of related) {
    if (!publishedAt.has(r.publication_id) || seen.has(r.publication_id)) continue;
    seen.add(r.publication_id);
    const at = publishedAt.get(r.publication_id);
    out.push({
      manifest_id: r.manifest_id,
      published_at: typeof at === "number" ? new Date(at).toISOString() : null,
      kind: "fingerprint",
      algorithm: r.algorithm,
      distance: r.distance,
    });
  }
  return out;
}

/**
 * The watermark and fingerprint signals. `also`: other reads of the verification, sent in the same D1 batch as the
 * index lookup; `answered` receives their results when that batch ran (not called when no lookup was made).
 */
async function durableFacts(
  env: Bindings,
  image: ImageServices | null,
  audio: (() => Promise<AudioServices>) | undefined,
  subject: VerifySubject,
  warnings: string[],
  also: D1PreparedStatement[] = [],
  answered: (results: D1Result[]) => void = () => {},
  /** The pixel stage's facts measured at publication on these very pixels (pixel-memo.ts), else null: measured now. */
  memo: ImagePixelFacts | null = null,
  /** Set: the state of the publications the exact lookups answer is read in their batch and given to this. */
  relatedState: ((state: PublicationsState) => void) | null = null,
): Promise<DurableFacts> {
  const none: DurableFacts = { watermark: null, fingerprint: null };
  if (subject.manifestOnly) return none; // no pixels: nothing to detect or fingerprint, and nothing to warn about
  if (AUDIO_PIPELINE_MEDIA_TYPES.includes(subject.mediaType)) {
    const loaded = audio ? await audio().catch(() => null) : null;
    return audioDurableFacts(env, loaded, subject, warnings, also, answered);
  }
  if (VIDEO_PIPELINE_MEDIA_TYPES.includes(subject.mediaType)) return videoDurableFacts(env, subject, warnings, also, answered);
  if (!IMAGE_PIPELINE_MEDIA_TYPES.includes(subject.mediaType)) {
    warnings.push(
      `Watermark and fingerprint signals are not computed for ${subject.mediaType}: this deployment decodes only JPEG, PNG, WebP, TIFF and AVIF images, WAV, FLAC and MP3 audio, and MP4 and QuickTime video.`,
    );
    return none;
  }
  if (!image) {
    warnings.push("Watermark and fingerprint signals are not computed: the image pipeline is not installed.");
    return none;
  }
  const facts = memo ?? (await measureImagePixels(image, subject.bytes, subject.mediaType));
  if (facts.status !== "decoded") {
    warnings.push(`Watermark and fingerprint signals are not computed: ${facts.message}`);
    return none;
  }
  const lookups = imageLookups(image, facts, warnings);
  const state = relatedState ? exactPublicationsStateStatement(env.DB, lookups.exact) : null;
  const found = await indexMatches(env.DB, {
    exact: lookups.exact,
    pdq: lookups.pdq,
    pdqRegions: lookups.pdqRegions,
    also: state ? [...also, state.statement] : also,
    ...(lookups.isccAt !== undefined ? { pdqUnlessExact: lookups.isccAt } : {}),
  });
  answered(found.also);
  if (state && relatedState) relatedState(state.read(found.also[also.length]));
  return imageSignals(lookups, found, warnings);
}

/** The index lookups an image's pixel facts call for, and what the signals are made of once they are answered. */
interface ImageLookups {
  exact: ExactQuery[];
  pdq: { bits: Uint8Array; limit: number } | null;
  pdqRegions: { bits: Uint8Array; limit: number; windows: Uint8Array[] } | null;
  /** The index in `exact` of the ISCC lookup, whose hit makes PDQ moot. */
  isccAt: number | undefined;
  payload: Uint8Array | null;
  confidence: number;
  watermarkChecked: boolean;
  isccLooked: boolean;
  pdqComputed: FingerprintFact | null;
  pdqBits: Uint8Array | null;
}

/** The lookups of decoded pixel facts (every warning about what is not looked up goes to `warnings`). */
function imageLookups(image: ImageServices, facts: ImagePixelFacts & { status: "decoded" }, warnings: string[]): ImageLookups {
  const hasIscc = image.fingerprinters.get("iscc-image") !== undefined;
  // Every signal was computed first (pixel-facts.ts), then every index lookup it calls for goes to D1 as one statement.
  let payload: Uint8Array | null = null;
  let confidence = 0;
  let watermarkChecked = false;
  const mark = facts.watermark;
  if (mark.status === "small") {
    warnings.push(
      `The watermark is not checked: the image is smaller than ${IMAGE_DECODE_LIMITS.watermark_minimum_edge} pixels on its shorter side.`,
    );
  } else if (mark.status === "failed") warnings.push(`The watermark could not be checked: ${mark.message}`);
  else {
    watermarkChecked = true;
    if (mark.status === "detected") {
      payload = fromHex(mark.payload);
      confidence = mark.confidence;
    }
  }
  // Fingerprints: the exact ISCC image code first, then the nearest PDQ hash (multi-index lookup, distance ≤ 31).
  const pdqComputed = facts.pdq;
  // PDQ's quality says whether the image has texture; a featureless image (flat, a bare gradient) shares its ISCC
  // code with unrelated images (measured in bench/fingerprint-recall.mjs), so its exact ISCC hit proves nothing.
  const featureless = pdqComputed?.status === "computed" && (pdqComputed.quality ?? 0) < PDQ_MIN_QUALITY;
  let isccBits: Uint8Array | null = null;
  let isccLooked = false;
  if (hasIscc && featureless) {
    warnings.push(
      `The iscc-image code is not looked up: the image has too little texture (PDQ quality ${pdqComputed.quality} < ${PDQ_MIN_QUALITY}), and such images share codes with unrelated ones.`,
    );
  } else if (facts.iscc) {
    if (facts.iscc.status === "computed") {
      isccBits = fromHex(facts.iscc.bits);
      isccLooked = true;
    } else warnings.push(`The iscc-image fingerprint could not be computed: ${facts.iscc.message}`);
  }
  const pdqBits = pdqComputed?.status === "computed" && (pdqComputed.quality ?? 0) >= PDQ_MIN_QUALITY ? fromHex(pdqComputed.bits) : null;
  const exact: ExactQuery[] = [];
  if (payload) exact.push({ algorithm: SVC_IMAGE_WATERMARK, bitsHex: hex(payload), limit: WATERMARK_CANDIDATES });
  if (isccBits) exact.push({ algorithm: "iscc-image", bitsHex: hex(isccBits), limit: FINGERPRINT_CANDIDATES });
  // The same hash is also looked up among the published windows (pdq_regions): a copy cropped to one of them; with it
  // the image's own windows (regions.ts PDQ_QUERY_WINDOWS): a copy cropped to 80-90 % holds a published window.
  const pdq = pdqBits ? { bits: pdqBits, limit: FINGERPRINT_CANDIDATES } : null;
  const windows = pdq ? facts.windows.map((w) => fromHex(w)) : [];
  // Not computed is said, as for every other signal: a crop of a published image is then only found whole.
  if (pdq && facts.windowsFailure !== undefined)
    warnings.push(`The PDQ query windows could not be computed (a crop is looked up only as a whole image): ${facts.windowsFailure}`);
  const pdqRegions = pdq ? { ...pdq, windows } : null;
  // PDQ answers only when the exact ISCC code found nothing (below): D1 skips both PDQ lookups when it found a row.
  const isccAt = isccBits ? exact.length - 1 : undefined;
  return { exact, pdq, pdqRegions, isccAt, payload, confidence, watermarkChecked, isccLooked, pdqComputed, pdqBits };
}

/** The watermark and fingerprint signals from the lookups' answers. */
function imageSignals(
  lookups: ImageLookups,
  found: {
    exact: { publication_id: string; manifest_label: string | null }[][];
    pdq: IndexedMatch[];
    pdqRegions: RegionMatch[];
  },
  warnings: string[],
): DurableFacts {
  const { payload, confidence, watermarkChecked, isccLooked, pdqComputed, pdqBits } = lookups;
  let watermark: DurableFacts["watermark"] = null;
  if (payload) {
    const row = found.exact[0]?.[0];
    const match: SoftBindingMatch | null = row
      ? {
          kind: "watermark",
          algorithm: SVC_IMAGE_WATERMARK,
          publication_id: row.publication_id,
          manifest_id: row.manifest_label,
          distance: 0,
          score: confidence,
        }
      : null;
    watermark = { present: true, payload_valid: true, match };
  } else if (watermarkChecked) watermark = { present: false, payload_valid: false, match: null };

  let fingerprint: DurableFacts["fingerprint"] = null;
  if (isccLooked) {
    const candidates = (found.exact[payload ? 1 : 0] ?? []).map(
      (row): SoftBindingMatch => ({
        kind: "fingerprint",
        algorithm: "iscc-image",
        publication_id: row.publication_id,
        manifest_id: row.manifest_label,
        distance: 0,
        score: 1,
      }),
    );
    fingerprint = { match: candidates[0] ?? null, candidates };
  }
  // PDQ answers only when the exact ISCC code found nothing.
  if (pdqComputed && !fingerprint?.match) {
    if (pdqBits) {
      const candidates = found.pdq.map(
        (row: IndexedMatch): SoftBindingMatch => ({
          kind: "fingerprint",
          algorithm: "pdq",
          publication_id: row.publication_id,
          manifest_id: row.manifest_label,
          distance: row.distance,
          score: Math.round((1 - row.distance / (PDQ_MATCH_DISTANCE + 1)) * 1000) / 1000,
        }),
      );
      // A window answers only when no whole image did (a crop is farther from its original's whole-image hash).
      if (candidates.length === 0) candidates.push(...found.pdqRegions.map(regionCandidate));
      fingerprint = { match: candidates[0] ?? null, candidates };
    } else if (pdqComputed.status === "computed") {
      warnings.push(
        `The PDQ fingerprint is not looked up: its quality (${pdqComputed.quality}) is below ${PDQ_MIN_QUALITY}, too little texture to match reliably.`,
      );
      fingerprint ??= { match: null };
    } else warnings.push(`The pdq fingerprint could not be computed: ${pdqComputed.message}`);
  }
  return { watermark, fingerprint };
}

/**
 * The signals of a memo's facts from the exact lookups sent speculatively in the memo read's batch
 * (repo.ts speculativeExactLookups), or null when they cannot stand for durableFacts' own lookups: the facts are not
 * decoded, the lookups these facts call for are not exactly those sent (algorithm, value, limit), or PDQ would be
 * looked up (no exact ISCC hit). Then durableFacts runs as ever. Warnings go to `warnings` only when it answers.
 */
export function speculativeImageFacts(
  image: ImageServices,
  facts: ImagePixelFacts,
  spec: ReturnType<SpeculativeExact["read"]>,
  warnings: string[],
): DurableFacts | null {
  if (facts.status !== "decoded") return null;
  const own: string[] = [];
  const lookups = imageLookups(image, facts, own);
  const sent = spec.keys.flatMap((k, i) => (k ? [{ ...k, rows: spec.rows[i]! }] : []));
  if (sent.length !== lookups.exact.length) return null;
  for (const [i, q] of lookups.exact.entries()) {
    const s = sent[i]!;
    if (s.algorithm !== q.algorithm || s.bitsHex !== q.bitsHex || s.limit !== q.limit) return null;
  }
  const exactRows = sent.map((s) => s.rows);
  // PDQ is looked up unless the exact ISCC code found a row (indexMatches pdqUnlessExact): not sent here.
  if (lookups.pdq && (lookups.isccAt === undefined || exactRows[lookups.isccAt]!.length === 0)) return null;
  const signals = imageSignals(lookups, { exact: exactRows, pdq: [], pdqRegions: [] }, own);
  warnings.push(...own);
  return signals;
}

/** A publication found by one of its windows: a PDQ match, scored by the window's distance (PDQ_REGION_MATCH_DISTANCE). */
function regionCandidate(row: RegionMatch): SoftBindingMatch {
  return {
    kind: "fingerprint",
    algorithm: "pdq",
    publication_id: row.publication_id,
    manifest_id: row.manifest_label,
    distance: row.distance,
    score: Math.round((1 - row.distance / (PDQ_REGION_MATCH_DISTANCE + 1)) * 1000) / 1000,
  };
}

/** How a memo's use reads in the developer explanation. */
export function memoNote(measuredAt: number): string {
  return `The watermark and fingerprint facts of these pixels (detector, PDQ with its query windows, ISCC) were measured by this service at publication (${new Date(measuredAt).toISOString()}) on bytes identical to these outside the manifest store, with the same pixel pipeline (version ${PIXEL_FACTS_VERSION}); the index lookups ran now.`;
}

/** Whether the manifest store is in a sealed batch of our transparency log (null: not computed, with a warning). */
async function anchorSignal(
  env: Bindings,
  storeHash: string | null,
  warnings: string[],
  read?: AnchorEntriesRead,
): Promise<boolean | null> {
  if (!storeHash) {
    warnings.push("Transparency anchoring is not checked: the manifest store could not be located in the file.");
    return null;
  }
  const check = await anchorMatch(env, storeHash, read);
  switch (check.status) {
    case "matched":
      if (check.deleted_at !== null)
        warnings.push(
          `This manifest's publication (${check.publication_id}) was deleted by its owner on ${new Date(check.deleted_at).toISOString()}; its transparency-log entry still proves it was published.`,
        );
      return true;
    case "not_found":
      return false;
    case "pending":
      warnings.push("The manifest is in the transparency log but its batch is not sealed yet; anchoring is checked once it is.");
      return null;
    case "proof_failed":
      warnings.push(
        "The transparency log has an entry for this manifest, but its inclusion proof did not verify against the signed checkpoint.",
      );
      return false;
    default:
      warnings.push("Transparency anchoring is not checked: no log key is configured in this deployment.");
      return null;
  }
}

/** The active manifest's signing certificate (DER), from the COSE x5chain of its claim signature. */
function signerLeafOf(store: Uint8Array, facts: { state: string; active_manifest_label?: string | null }): Uint8Array | null {
  if (facts.state !== "read" || !facts.active_manifest_label) return null;
  const signature = activeManifestSignature(store, facts.active_manifest_label);
  if (signature.status !== "ok") return null;
  const credentials = signerCredentials(signature.cose);
  return credentials.status === "ok" ? (credentials.chain[0] ?? null) : null;
}

const NEEDLES = ["c2pa", "C2PA", "provenance"].map((s) => new TextEncoder().encode(s));

function holds(bytes: Uint8Array, needle: Uint8Array): boolean {
  for (let i = bytes.indexOf(needle[0]!); i >= 0 && i + needle.length <= bytes.length; i = bytes.indexOf(needle[0]!, i + 1)) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}

/**
 * A JPEG in whose bytes neither `c2pa`/`C2PA` (the label of every manifest store's JUMBF box) nor `provenance`
 * (XMP's dcterms:provenance, a remote manifest's reference) occurs cannot carry a manifest, embedded or remote:
 * the engine and the verifier's own checks can then only conclude `absent`, so they are not run (they cost the
 * engine's trust-list setup per call). JPEG only: its XMP is never compressed, so a reference cannot hide.
 */
function jpegWithoutManifest(subject: VerifySubject): boolean {
  return (
    subject.mediaType === "image/jpeg" && !subject.manifestStore && !subject.manifestOnly && !NEEDLES.some((n) => holds(subject.bytes, n))
  );
}

/** The refusal of a file whose manifest the engine would read above its size limit (413, published in capabilities). */
function engineReadRefused(error: unknown): never {
  if (error instanceof EngineReadTooLarge)
    throw new ApiError(
      "svc.request.too_large",
      `${error.message} A file signed here was verified when it was published (see its receipt's verification evidence).`,
    );
  throw error;
}

/**
 * Verifies one subject. Invariant: never throws for any bytes, but the 413 `svc.request.too_large` of a file whose
 * manifest the C2PA engine would have to read above its size limit (engineReadRefused; nothing is written before);
 * every signal not computed has a warning.
 */
export async function verifySubject(env: Bindings, services: VerifyServices, subject: VerifySubject): Promise<VerificationOutcome> {
  const warnings: string[] = [];
  const manifest = jpegWithoutManifest(subject)
    ? { facts: { state: "absent" as const }, claims: null, signer: null, assertion_labels: [], warnings: [] }
    : await verifyManifest(
        {
          bytes: subject.bytes,
          mediaType: subject.mediaType,
          ...(subject.manifestStore ? { manifestStore: subject.manifestStore } : {}),
          ...(subject.manifestOnly ? { manifestOnly: true } : {}),
          ...(subject.streamed ? { streamed: subject.streamed.scan } : {}),
        },
        verificationTrustAnchors(env),
        services.ensureEngine,
      ).catch(engineReadRefused);
  warnings.push(...manifest.warnings);
  if (subject.manifestOnly && manifest.facts.state === "read") {
    // A bare store hashes itself against its data-hash assertion: that is not a finding about any asset.
    manifest.facts.failure_codes = manifest.facts.failure_codes.filter((c) => !c.endsWith("Hash.mismatch"));
    warnings.push(
      "Only the manifest was verified: without the asset's bytes, its hard binding (that the file is unchanged) was not checked.",
    );
  }

  if (manifest.facts.state === "read" && manifest.facts.informational_codes.includes("svc.sidecar.binding.unsupported")) {
    warnings.push(
      "The sidecar manifest's hard binding uses exclusions or an algorithm this service cannot check against the file, so it was not shown that the file is unchanged.",
    );
  }
  // OCSP and the anchor log both need the raw manifest store: the sidecar, else the store the verifier located in
  // the bytes (it walked the file already; a second walk is ~1 ms on a 1 MP JPEG).
  const store = manifest.facts.state === "read" ? (subject.manifestStore ?? manifest.fileStore ?? null) : null;
  // The OCSP answer is I/O (a responder): it is asked before the pixel work starts and awaited after it. The anchor
  // log is read after it (below). Each keeps its own warnings, appended in the fixed order (revocation, pixels,
  // anchor), so the result does not depend on which answers first.
  const read = manifest.facts.state === "read" ? manifest.facts : null;
  const ocspWarnings: string[] = [];
  const anchorWarnings: string[] = [];
  // The development responder's revocation list rides in the pixel-memo read's batch (platform/d1-rides.ts).
  const rides = d1Rides(env.DB);
  const revocation =
    read && services.revocation
      ? services.revocation(store, read.active_manifest_label, rides)
      : Promise.resolve<RevocationAnswer>({ status: "not_checked", withoutResponder: true });
  if (read && !services.revocation) ocspWarnings.push("The signer's revocation status (OCSP) is not checked in this deployment.");
  // Settled (answered or failed): a rejection is handled where it is awaited; this also keeps it from being reported
  // as unhandled meanwhile.
  let revocationSettled = false;
  revocation.then(
    () => {
      revocationSettled = true;
    },
    () => {
      revocationSettled = true;
    },
  );
  // The anchor log's first read (the store's entries) rides in the D1 batch of the pixel-memo read when one is made,
  // else in the index lookup's after the pixel work: one round trip fewer than a read of its own. When no lookup is
  // made, anchorMatch reads the entries itself.
  const storeHash = read && store ? hex(await crypto.subtle.digest("SHA-256", store)) : null;
  const entries = storeHash ? anchorEntriesStatement(env, storeHash) : null;
  let entriesRead: AnchorEntriesRead | undefined;
  const durableWarnings: string[] = [];
  // A file this service published, unchanged where its pixels are: the pixel stage's outputs measured then (pixel-memo.ts).
  // The exact lookups its facts call for ride in the memo read's batch, their values read from the memo row by D1
  // (repo.ts speculativeExactLookups), and with them the state of the publications they find: used below only when
  // they are the very lookups durableFacts would make of the memo accepted, else the lookups run after it as ever.
  let memoRead: MemoRead | null = null;
  let speculative: SpeculativeExact | null = null;
  /** Whether the revocation answer had settled when the memo read's batch (with the speculative state) was sent. */
  let settledAtSpeculation = false;
  try {
    memoRead = services.image
      ? await readPixelMemo(env, subject, manifest.facts, manifest.fileStore, rides, (signatureSha256) => {
          settledAtSpeculation = revocationSettled;
          speculative = speculativeExactLookups(
            env.DB,
            signatureSha256,
            {
              watermark: { algorithm: SVC_IMAGE_WATERMARK, limit: WATERMARK_CANDIDATES },
              iscc: { algorithm: "iscc-image", limit: FINGERPRINT_CANDIDATES },
            },
            true,
          );
          return [...speculative.statements, ...(entries ? [entries.statement] : [])];
        })
      : null;
  } finally {
    await rides.flush(); // what no batch took goes alone (the revocation check waits on it)
  }
  const memo = memoRead?.memo ?? null;
  const sentWithMemo = speculative as SpeculativeExact | null;
  if (memoRead && sentWithMemo && entries) entriesRead = entries.read(memoRead.also[sentWithMemo.statements.length]);
  const answeredWithMemo =
    memoRead && memo && sentWithMemo ? sentWithMemo.read(memoRead.row, memoRead.also.slice(0, sentWithMemo.statements.length)) : null;
  const speculated =
    answeredWithMemo && services.image ? speculativeImageFacts(services.image, memo!.facts, answeredWithMemo, durableWarnings) : null;
  // Related publications are shown only while still published, as read after every external answer the verification
  // waits for (the OCSP responder's: up to its timeout). When that answer is already in before the index lookup is
  // sent, the lookup's own batch is such a read: the state of the publications its exact lookups find rides in it,
  // one round trip fewer. Otherwise (and for publications it did not consider) the state is read after the verdict.
  // "Already in": settled once the work queued now has run (a cached answer, or one computed from a read that came
  // back with the memo's batch); one waiting on a responder is not, and keeps the read after the verdict.
  let relatedState: PublicationsState | null = null;
  let durable: DurableFacts;
  if (speculated) durable = speculated;
  else {
    // Already settled (no manifest to check, or a cached answer): known without a timer turn (#19: one timer fewer a
    // request); the race would answer the same, its settle callback running before any timer.
    const revocationIn =
      revocationSettled ||
      (await Promise.race([
        revocation.then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 0)),
      ]));
    const entriesPending = entries && !entriesRead ? entries : null;
    durable = await durableFacts(
      env,
      services.image,
      services.audio,
      subject,
      durableWarnings,
      entriesPending ? [entriesPending.statement] : [],
      (results) => {
        if (entriesPending) entriesRead = entriesPending.read(results[0]);
      },
      memo?.facts ?? null,
      revocationIn
        ? (state) => {
            relatedState = state;
          }
        : null,
    );
  }
  const checked = await revocation;
  // The state that rode in the memo read's batch stands for a read after the answer when the answer was in before
  // that batch was sent, or came without asking a responder (no wait of this verification's followed the read).
  if (speculated && answeredWithMemo?.state && (settledAtSpeculation || checked.withoutResponder === true))
    relatedState = answeredWithMemo.state;
  const ocsp: OcspStatus = checked.status;
  if (checked.warning) ocspWarnings.push(checked.warning);
  const anchor = read ? await anchorSignal(env, storeHash, anchorWarnings, entriesRead) : null;
  warnings.push(...ocspWarnings, ...durableWarnings, ...anchorWarnings);

  const verdict = decideVerdict({ manifest: manifest.facts, ocsp, durable, anchor_match: anchor, warnings });
  // Said where a developer reads how the answer was reached: the pixel facts were measured once, at publication.
  if (memo) verdict.developer_explanation = `${verdict.developer_explanation} ${memoNote(memo.measuredAt)}`;
  // What the service may stand behind in the manifest's own claims (creator, capture): the same three facts for both.
  const claimEvidence = {
    overall: verdict.overall,
    signerLeaf: (manifest.creator_assertion || manifest.capture_assertion) && store ? signerLeafOf(store, manifest.facts) : null,
    bindingChecked:
      !subject.manifestOnly &&
      manifest.facts.state === "read" &&
      !manifest.facts.informational_codes.includes("svc.sidecar.binding.unsupported"),
  };
  return {
    ...verdict,
    related_publications: await relatedPublications(env, verdict.related, relatedState),
    claims: manifest.claims
      ? {
          ...manifest.claims,
          creator: await verifiedCreator(database(env.DB), env, { assertion: manifest.creator_assertion, ...claimEvidence }),
          capture: verifiedCapture(env, manifest.capture_assertion, claimEvidence),
        }
      : null,
    manifest_id: manifest.facts.state === "read" || manifest.facts.state === "tampered" ? manifest.facts.active_manifest_label : null,
    signer: manifest.signer,
    media_type: subject.mediaType,
    assertion_labels: manifest.assertion_labels,
  };
}
