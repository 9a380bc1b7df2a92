import type { z } from "@hono/zod-openapi";
import { MANIFEST_STORE_MAXIMUM_BYTES, VERIFY_FILE_MAXIMUM_BYTES } from "../catalog/limits";
import type { Bindings } from "../env";
import { mediaInspector } from "../media";
import { C2PA_ENGINE } from "../media/c2pa/engine-version";
import { canonicalMediaType, sniff } from "../media/inspect";
import { configOf } from "../platform/config";
import { ApiError } from "../platform/errors";
import { boundedGet, checkDestination, dohResolver } from "../platform/net/outbound";
import { storedCreator } from "./creator";
import type { VerificationResultSchema } from "./schemas";
import type { VerificationOutcome } from "./verify-service";

/*
 * The subject of a verify call, without HTTP: what the bytes really are, bounded reads, a manifest fetched by
 * URI through the outbound guard, the result body that is answered and stored, and the record it is stored in.
 */

const MANIFEST_URI_MAX_BYTES = MANIFEST_STORE_MAXIMUM_BYTES;
const MANIFEST_URI_TIMEOUT_MS = 5000;

/**
 * The media type the bytes really are (the client's claim only breaks ties between equivalent families, e.g. a
 * ZIP-based document). A codec outside the signing contract is still verifiable; null: no reviewed format.
 */
export function sniffedType(bytes: Uint8Array, claimed: string): string | null {
  const inspector = mediaInspector();
  for (const declared of [claimed || "application/octet-stream", "application/octet-stream"]) {
    const r = inspector.inspect(bytes, declared);
    if (r.status === "ok") return r.facts.media_type;
    if (r.status === "media_type_mismatch") return r.sniffed;
    if (r.status === "codec_unsupported" && declared !== "application/octet-stream") return declared;
    if (r.status === "corrupt") return damagedType(bytes, claimed);
  }
  return null;
}

/**
 * Media types of each container the sniffer recognizes by its leading bytes; the first is the default when the
 * client's declaration does not pick another of the same container.
 */
const CONTAINER_TYPES: Record<string, string[]> = {
  jpeg: ["image/jpeg"],
  png: ["image/png"],
  gif: ["image/gif"],
  jxl: ["image/jxl"],
  pdf: ["application/pdf"],
  flac: ["audio/flac"],
  "mpeg-audio": ["audio/mpeg"],
  riff: ["image/webp", "audio/wav", "video/x-msvideo"],
  tiff: ["image/tiff", "image/x-adobe-dng"],
  isobmff: ["video/mp4", "video/quicktime", "image/heic", "image/heif", "image/avif", "audio/mp4"],
};

/**
 * A truncated or damaged file of a recognized container still gets a verdict (its manifest, if any, says whether
 * the bytes are what was signed): the type comes from the leading bytes, never from the claim alone.
 */
function damagedType(bytes: Uint8Array, claimed: string): string | null {
  const s = sniff(bytes);
  if (s.status !== "corrupt") return null;
  const types = CONTAINER_TYPES[s.container];
  if (!types) return null;
  const declared = canonicalMediaType(claimed || "");
  return declared && types.includes(declared) ? declared : types[0]!;
}

export async function readBounded(file: File, maxBytes = VERIFY_FILE_MAXIMUM_BYTES): Promise<Uint8Array> {
  if (file.size > maxBytes) throw new ApiError("svc.request.too_large", `Files are limited to ${maxBytes} bytes.`);
  return new Uint8Array(await file.arrayBuffer());
}

export async function manifestUriSubject(env: Bindings, uri: string) {
  const hosts = configOf(env).manifestHosts;
  if (hosts.length === 0)
    throw new ApiError("svc.verify.manifest_uri_refused", "This deployment has no manifest host configured, so verify-by-URI is off.");
  const checked = await checkDestination(uri, { resolver: dohResolver(), allowedHosts: hosts });
  if (checked.status === "refused") throw new ApiError("svc.verify.manifest_uri_refused", checked.reason);
  const fetched = await boundedGet(checked.url, { maxBytes: MANIFEST_URI_MAX_BYTES, timeoutMs: MANIFEST_URI_TIMEOUT_MS });
  if (fetched.status === "failed") throw new ApiError("svc.verify.manifest_uri_unavailable", fetched.reason);
  return {
    subject: { bytes: fetched.bytes, mediaType: "application/c2pa", manifestStore: fetched.bytes, manifestOnly: true },
    subjectType: "manifest" as const,
    assetId: null,
    objectId: null,
  };
}

/** A result as stored in a verification record's evidence: the answered body without its id. */
export type StoredResult = Omit<z.infer<typeof VerificationResultSchema>, "verification_id">;

export function resultBody(outcome: VerificationOutcome): StoredResult {
  return {
    status: outcome.status,
    status_vocabulary_version: outcome.status_vocabulary_version,
    confidence: outcome.confidence,
    signals: outcome.signals,
    claims: outcome.claims,
    matches: outcome.matches,
    related_publications: outcome.related_publications,
    warnings: outcome.warnings,
    developer_explanation: outcome.developer_explanation,
    user_explanation: outcome.user_explanation,
    proves: outcome.proves,
    does_not_prove: outcome.does_not_prove,
    manifest_id: outcome.manifest_id,
    signer: outcome.signer,
    media_type: outcome.media_type,
  };
}

/**
 * The outcome columns of the verification record a check writes, the same for a verify call and a stored-object
 * check (the caller adds the subject's facts). `sidecar`: the manifest store came beside the file, not inside it.
 * The stored result keeps no creator name or brand (storedCreator): records, reports and shares outlive a withdrawal.
 */
export function recordedOutcome(outcome: VerificationOutcome, body: StoredResult, sidecar: boolean) {
  return {
    overall: outcome.overall,
    validationPath: outcome.manifest_id ? (sidecar ? "c2pa.sidecar" : "c2pa.embedded") : outcome.matches.length ? "soft_binding" : null,
    evidence: JSON.stringify({
      result: body.claims ? { ...body, claims: { ...body.claims, creator: storedCreator(body.claims.creator ?? null) } } : body,
      engine: C2PA_ENGINE,
    }),
    status: outcome.status,
    statusVocabularyVersion: outcome.status_vocabulary_version,
    manifestId: outcome.manifest_id,
  };
}
