import type { Bindings } from "../env";
import { extractManifestStore } from "../media/c2pa/jumbf-carriers";
import { activeManifestSignature, signerCredentials } from "../media/c2pa/jumbf-signature";
import { pemBlocks } from "../media/c2pa/tsa-der";
import type { ImageServices, ManifestFacts } from "../media/types";
import { equalBytes, hex } from "../platform/bytes";
import type { D1Rides } from "../platform/d1-rides";
import { type ImagePixelFacts, incompleteMeasurement, measureImagePixels, PIXEL_FACTS_VERSION } from "./pixel-facts";
import { findPixelMemo, hasPixelMemo, type PixelMemoRow, putPixelMemo } from "./repo";

/*
 * #19: a verification of a file this service published reuses the pixel stage's outputs measured at publication.
 *
 * Why it is sound. Publication runs the verification's own pixel stage (pixel-facts.ts measureImagePixels, at
 * PIXEL_FACTS_VERSION) on the exact bytes it signed, off the answer's path, and stores its outputs under the digest of
 * the claim signature (COSE_Sign1) it wrote. A verification uses them only when all of these hold for its subject:
 * - a JPEG carrying its manifest store embedded (no sidecar, no bare store, not streamed): the only format applied;
 * - the engine (or the fast validator, with exactly its result) read the store in this request with no failure
 *   code, validated the claim signature (`claimSignature.validated`) and matched the hard binding
 *   (`assertion.dataHash.match`);
 * - the active manifest's claim signature is byte for byte one publication stored: the claim it signs is the one
 *   this service signed, so the file is one of ours (a file signed by anyone else, or re-signed, is not found);
 * - the file's bytes outside its APP11 segments (up to its first scan, and everything from there) have the digest
 *   publication recorded of its own bytes. JPEG decoders skip APP11 (C2PA's carrier) by its length, so those bytes
 *   are all a decoder reads: the pixels are the ones publication measured. This is checked by our own walk, not
 *   taken from the manifest's exclusions, so a store whose exclusions cover anything else cannot pass;
 * - the memo's version is this code's PIXEL_FACTS_VERSION.
 * A claim signature whose x5chain shares no certificate with this deployment's signing chain cannot be one a
 * publication stored (signedUnderOwnChain): such files (signed elsewhere) make no memo read at all.
 * Otherwise the pixels are measured as always. Every index lookup still runs live, with its tenant rules.
 */

/** The pixel facts of a verification measured at publication, and when. */
export interface PixelMemo {
  facts: ImagePixelFacts;
  measuredAt: number;
}

const sha256 = async (bytes: Uint8Array) => hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));

/**
 * The SHA-256 of a JPEG's bytes without its APP11 segments before the first scan (from the first SOS on, every byte
 * counts, an APP11 between scans included). Null: not a JPEG this walk reads to a scan (then no memo applies).
 */
export async function jpegPixelBytesDigest(bytes: Uint8Array): Promise<string | null> {
  const kept = jpegKeptRanges(bytes);
  if (!kept) return null;
  const total = kept.reduce((n, [a, b]) => n + (b - a), 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const [a, b] of kept) {
    out.set(bytes.subarray(a, b), at);
    at += b - a;
  }
  return sha256(out);
}

/** The byte ranges [start, end) of a JPEG a decoder reads besides APP11 segments; null when not walkable to an SOS. */
function jpegKeptRanges(bytes: Uint8Array): [number, number][] | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept: [number, number][] = [[0, 2]];
  let i = 2;
  while (i < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    let j = i;
    while (j < bytes.length && bytes[j] === 0xff) j++; // fill bytes before a marker
    if (j >= bytes.length) return null;
    const marker = bytes[j]!;
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9) return null; // no scan before the end: not for us
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push([i, j + 1]);
      i = j + 1;
      continue;
    }
    if (j + 2 >= bytes.length) return null;
    const length = (bytes[j + 1]! << 8) | bytes[j + 2]!;
    const end = j + 1 + length;
    if (length < 2 || end > bytes.length) return null;
    if (marker === 0xda) {
      kept.push([i, bytes.length]);
      return kept;
    }
    if (marker !== 0xeb) kept.push([i, end]);
    i = end;
  }
  return null;
}

/** Where a verification may look for a memo: the subject and what the manifest check found in this request. */
export interface MemoSubject {
  bytes: Uint8Array;
  mediaType: string;
  manifestStore?: Uint8Array;
  manifestOnly?: boolean;
  streamed?: unknown;
}

/** A memo read that was made: the memo if it applies, the row as read, and what rode with it. */
export interface MemoRead {
  memo: PixelMemo | null;
  row: PixelMemoRow | null;
  /** The results of `also`'s statements, in order. */
  also: D1Result[];
}

/**
 * The memo that applies to this verification (every condition in the header; else null: the pixels are measured
 * now), from one D1 read made only for an embedded JPEG store whose signature and hard binding the engine validated.
 * `rides`: the verification's queued reads (platform/d1-rides.ts), sent in that batch; `also(signatureSha256)`:
 * statements sent in it too (the exact lookups its facts call for, repo.ts speculativeExactLookups). Null when no
 * read was made (the conditions before the read do not hold: `also` was not sent); else the memo (null unless every
 * condition holds), the row as read and the answers of `also`.
 */
export async function readPixelMemo(
  env: Bindings,
  subject: MemoSubject,
  facts: ManifestFacts,
  fileStore: Uint8Array | null | undefined,
  rides?: D1Rides,
  also?: (signatureSha256: string) => D1PreparedStatement[],
): Promise<MemoRead | null> {
  if (subject.mediaType !== "image/jpeg" || subject.manifestStore || subject.manifestOnly || subject.streamed) return null;
  if (facts.state !== "read" || !fileStore) return null;
  if (facts.failure_codes.length > 0) return null;
  if (!facts.success_codes.includes("claimSignature.validated") || !facts.success_codes.includes("assertion.dataHash.match")) return null;
  const signature = activeManifestSignature(fileStore, facts.active_manifest_label);
  if (signature.status !== "ok") return null;
  // Only this deployment's signer writes memos: a file signed under another chain (the cold path) has none to find.
  if (!signedUnderOwnChain(env, signature.cose)) return null;
  const signatureSha256 = await sha256(signature.cose);
  const read = await findPixelMemo(env.DB, signatureSha256, rides, also ? also(signatureSha256) : []);
  return { memo: await memoOf(subject, read.row), row: read.row, also: read.also };
}

/** The memo a row holds for `subject`, when its version, media type and pixel bytes agree (else null). */
async function memoOf(subject: MemoSubject, row: PixelMemoRow | null): Promise<PixelMemo | null> {
  if (!row || row.version !== PIXEL_FACTS_VERSION || row.media_type !== subject.mediaType) return null;
  if ((await jpegPixelBytesDigest(subject.bytes)) !== row.pixels_sha256) return null;
  try {
    return { facts: JSON.parse(row.facts) as ImagePixelFacts, measuredAt: row.measured_at };
  } catch {
    return null;
  }
}

/** This deployment's signing chain (DER, leaf first), per configured PEM. */
const ownChains = new Map<string, Uint8Array[]>();

/**
 * Whether a certificate of the claim signature's x5chain is one of this deployment's signing chain (SVC_C2PA_SIGNER_
 * CHAIN_PEM): only then can the signature be one a publication stored a memo under. The issuer counts as well as the
 * leaf, so a signing certificate renewed under the same CA still finds the memos of files signed before. No chain
 * configured: nothing is signed here, so no memo exists.
 */
function signedUnderOwnChain(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM">, cose: Uint8Array): boolean {
  const pem = env.SVC_C2PA_SIGNER_CHAIN_PEM;
  if (!pem) return false;
  let own = ownChains.get(pem);
  if (!own) {
    own = pemBlocks(pem, "CERTIFICATE");
    if (ownChains.size >= 4) ownChains.clear();
    ownChains.set(pem, own);
  }
  const credentials = signerCredentials(cose);
  if (credentials.status !== "ok") return false;
  return credentials.chain.some((cert) => own.some((mine) => equalBytes(cert, mine)));
}

/**
 * The memo of a publication's signed bytes: the pixel stage measured on exactly `bytes`, keyed by the active
 * manifest's claim signature in them. Null: not a JPEG with an embedded store this applies to.
 */
export async function measurePublishedPixels(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
): Promise<{ signatureSha256: string; pixelsSha256: string; facts: ImagePixelFacts } | null> {
  if (mediaType !== "image/jpeg") return null;
  const located = extractManifestStore(bytes, mediaType);
  if (located.status !== "ok" || located.carrier !== "jpeg-app11") return null;
  const signature = activeManifestSignature(located.store);
  const pixelsSha256 = await jpegPixelBytesDigest(bytes);
  if (signature.status !== "ok" || !pixelsSha256) return null;
  return { signatureSha256: await sha256(signature.cose), pixelsSha256, facts: await measureImagePixels(image, bytes, mediaType) };
}

/**
 * Fills a publication's memo from its signed bytes (the publication's deferred work; never on an answer's path).
 * Idempotent: nothing is measured when the memo exists at this version. `bytes`: the published bytes when the
 * caller holds them, else `readBytes` reads them. Only a complete measurement is stored (pixel-facts.ts
 * incompleteMeasurement): a kernel that failed or could not grow here would otherwise answer every later
 * verification; without a memo they measure, and the next follow-up or safety net of the job tries again.
 */
export async function memoizePublication(
  env: Bindings,
  image: ImageServices,
  publication: { publicationId: string; mediaType: string },
  readBytes: () => Promise<Uint8Array | null>,
): Promise<"memoized" | "exists" | "not_applicable" | "incomplete"> {
  if (publication.mediaType !== "image/jpeg") return "not_applicable";
  if (await hasPixelMemo(env.DB, publication.publicationId, PIXEL_FACTS_VERSION)) return "exists";
  const bytes = await readBytes();
  if (!bytes) return "not_applicable";
  const measured = await measurePublishedPixels(image, bytes, publication.mediaType);
  if (!measured) return "not_applicable";
  if (incompleteMeasurement(image, measured.facts) !== null) return "incomplete";
  const stored = await putPixelMemo(env.DB, {
    signature_sha256: measured.signatureSha256,
    publication_id: publication.publicationId,
    media_type: publication.mediaType,
    pixels_sha256: measured.pixelsSha256,
    version: PIXEL_FACTS_VERSION,
    facts: JSON.stringify(measured.facts),
    measured_at: Date.now(),
  });
  return stored ? "memoized" : "not_applicable";
}
