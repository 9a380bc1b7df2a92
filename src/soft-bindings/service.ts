import { IMAGE_DECODE_LIMITS } from "../catalog/algorithms";
import { IMAGE_PIPELINE_MEDIA_TYPES } from "../catalog/installed";
import type { CapabilityRegistry } from "../catalog/registry";
import type { ImageServices, MediaInspector } from "../media/types";
import { hex } from "../platform/bytes";
import { sha256Hex } from "../platform/crypto";
import type { Principal } from "../platform/principal";
import { type VerifyPixels, verifyPixels } from "../verifications/verify-pixels";
import { decodeBindingValue, type ResolvableAlgorithm, resolvableAlgorithm, resolvableAlgorithms } from "./algorithms";
import { activeManifestStore } from "./manifest-store";
import {
  exactMatches,
  type IndexedMatch,
  type MatchFilter,
  nearestPdqMatches,
  PDQ_MATCH_DISTANCE,
  PDQ_MIN_QUALITY,
  publishedManifest,
} from "./repo";

/*
 * The domain of the C2PA Soft Binding Resolution API: no HTTP types. Lookups go through the soft-binding index
 * (repo.ts); content is decoded, watermark-detected and fingerprinted by the same media
 * services the jobs and POST /v1/verify use. Results are discriminated unions; the routes map them to HTTP.
 */

/** One C2PA match: the manifest's id and a 0-100 strength (never the tenant, asset or publication). */
export interface ResolutionMatch {
  manifestId: string;
  similarityScore: number;
}

export interface LookupOptions {
  filter: MatchFilter;
  maxResults: number;
}

export type BindingQuery = { alg: string; value: string };

export type MatchResult =
  | { status: "ok"; matches: ResolutionMatch[] }
  | { status: "algorithm_unsupported"; message: string }
  | { status: "invalid_value"; field: string; message: string };

/** Exact lookups are certain; a PDQ match scores by Hamming distance, as verification's fingerprint signal does. */
export function pdqScore(distance: number): number {
  return Math.max(0, Math.min(100, Math.round(100 * (1 - distance / (PDQ_MATCH_DISTANCE + 1)))));
}

async function lookup(db: D1Database, algorithm: ResolvableAlgorithm, bits: Uint8Array, options: LookupOptions): Promise<IndexedMatch[]> {
  return algorithm.lookup === "pdq"
    ? nearestPdqMatches(db, bits, { ...options.filter, limit: options.maxResults })
    : exactMatches(db, algorithm.algorithm, hex(bits), { ...options.filter, limit: options.maxResults });
}

/** Matches as C2PA results, one per manifest (the strongest), strongest first (ties keep their order), at most `max`. */
function merge(found: { match: IndexedMatch; score: number }[], max: number): ResolutionMatch[] {
  const best = new Map<string, ResolutionMatch>();
  for (const { match, score } of found) {
    if (!match.manifest_label) continue;
    const seen = best.get(match.manifest_label);
    if (!seen) best.set(match.manifest_label, { manifestId: match.manifest_label, similarityScore: score });
    else if (score > seen.similarityScore) seen.similarityScore = score;
  }
  return [...best.values()].sort((a, b) => b.similarityScore - a.similarityScore).slice(0, max);
}

/** The algorithm and the bytes of a query, or why the query cannot be answered. */
function parseQuery(registry: CapabilityRegistry, query: BindingQuery, fields: { alg: string; value: string }) {
  const algorithm = resolvableAlgorithm(registry, query.alg);
  if (!algorithm) {
    const supported = resolvableAlgorithms(registry).map((a) => a.alg);
    return {
      status: "algorithm_unsupported" as const,
      message: `${fields.alg} ${JSON.stringify(query.alg)} is not resolved by this service; it resolves ${supported.join(", ")}.`,
    };
  }
  const bits = decodeBindingValue(query.value);
  if (!bits) return { status: "invalid_value" as const, field: fields.value, message: `${fields.value} must be base64.` };
  if (bits.length !== algorithm.bytes) {
    return {
      status: "invalid_value" as const,
      field: fields.value,
      message: `${fields.value} must be base64 of ${algorithm.bytes} bytes for ${algorithm.alg}; it decodes to ${bits.length}.`,
    };
  }
  return { status: "ok" as const, algorithm, bits };
}

/** GET and POST /matches/byBinding: the manifests whose publications carry this soft-binding value. */
export async function matchByBinding(
  db: D1Database,
  registry: CapabilityRegistry,
  query: BindingQuery,
  options: LookupOptions,
): Promise<MatchResult> {
  const parsed = parseQuery(registry, query, { alg: "alg", value: "value" });
  if (parsed.status !== "ok") return parsed;
  const found = await lookup(db, parsed.algorithm, parsed.bits, options);
  return {
    status: "ok",
    matches: merge(
      found.map((match) => ({ match, score: parsed.algorithm.lookup === "pdq" ? pdqScore(match.distance) : 100 })),
      options.maxResults,
    ),
  };
}

export interface ContentQuery {
  bytes: Uint8Array;
  /** Only this algorithm (`alg`); omitted: every resolvable one. */
  alg?: string;
  /** `hintAlg` / `hintValue`: a soft binding the client already knows, looked up beside the content's own. */
  hint?: BindingQuery;
}

export type ContentMatchResult =
  | MatchResult
  | { status: "unsupported_asset_type"; message: string }
  | { status: "too_large"; message: string };

/** The real media type of the bytes (the client's Content-Type is not trusted) and the image size, or why not. */
function sniffImage(inspector: MediaInspector, bytes: Uint8Array) {
  let inspected = inspector.inspect(bytes, "application/octet-stream");
  if (inspected.status === "media_type_mismatch") inspected = inspector.inspect(bytes, inspected.sniffed);
  if (inspected.status === "ok" && IMAGE_PIPELINE_MEDIA_TYPES.includes(inspected.facts.media_type)) {
    return { status: "ok" as const, mediaType: inspected.facts.media_type, width: inspected.facts.width, height: inspected.facts.height };
  }
  const what =
    inspected.status === "ok"
      ? inspected.facts.media_type
      : inspected.status === "corrupt"
        ? "a truncated or malformed file"
        : "no reviewed format";
  return {
    status: "unsupported" as const,
    message: `The asset is ${what}; soft bindings are computed for ${IMAGE_PIPELINE_MEDIA_TYPES.join(", ")} only.`,
  };
}

/** The index matches of one algorithm computed from the pixels (none when the algorithm cannot apply to them). */
async function contentMatches(
  db: D1Database,
  image: ImageServices,
  read: VerifyPixels,
  algorithm: ResolvableAlgorithm,
  options: LookupOptions,
) {
  // Each signal reads the image publication indexed it from (jobs/steps/fingerprint.ts): PDQ the reduced plane
  // where it is opaque, the others the (DCT-reduced, for a JPEG) decode; the exact ISCC lookup needs exactly that.
  const pixels = read.full;
  const pdqPixels = read.plane.opaque ? read.plane.image : pixels;
  if (algorithm.kind === "watermark") {
    if (image.watermarker.algorithm !== algorithm.algorithm || Math.min(pixels.width, pixels.height) < image.watermarker.minimumEdge)
      return [];
    const detected = image.watermarker.detect(pixels);
    if (detected.status !== "detected") return [];
    const score = Math.round(100 * Math.max(0, Math.min(1, detected.confidence)));
    return (await lookup(db, algorithm, detected.payload, options)).map((match) => ({ match, score }));
  }
  const fingerprinter = image.fingerprinters.get(algorithm.algorithm);
  const computed = fingerprinter?.compute(algorithm.algorithm === "pdq" ? pdqPixels : pixels);
  if (computed?.status !== "computed") return [];
  // A featureless image (PDQ quality under the gate) shares its ISCC code with unrelated images: no exact lookup.
  if (algorithm.algorithm === "iscc-image") {
    const texture = image.fingerprinters.get("pdq")?.compute(pdqPixels);
    if (texture?.status === "computed" && (texture.quality ?? 0) < PDQ_MIN_QUALITY) return [];
  }
  // A PDQ hash of low quality says little about the image: it is neither indexed nor looked up.
  if (algorithm.lookup === "pdq" && (computed.quality ?? 0) < PDQ_MIN_QUALITY) return [];
  return (await lookup(db, algorithm, computed.bits, options)).map((match) => ({
    match,
    score: algorithm.lookup === "pdq" ? pdqScore(match.distance) : 100,
  }));
}

/**
 * POST /matches/byContent: the soft bindings of the uploaded asset (our watermark's payload, the ISCC and PDQ
 * fingerprints) computed like verification does, each looked up in the index; with a hint, that binding too.
 */
export async function matchByContent(
  db: D1Database,
  registry: CapabilityRegistry,
  media: { inspector: MediaInspector; image: () => Promise<ImageServices> },
  query: ContentQuery,
  options: LookupOptions,
): Promise<ContentMatchResult> {
  let algorithms = resolvableAlgorithms(registry);
  if (query.alg !== undefined) {
    const chosen = resolvableAlgorithm(registry, query.alg);
    if (!chosen)
      return {
        status: "algorithm_unsupported",
        message: `alg ${JSON.stringify(query.alg)} is not resolved by this service; it resolves ${algorithms.map((a) => a.alg).join(", ")}.`,
      };
    algorithms = [chosen];
  }
  const hint = query.hint ? parseQuery(registry, query.hint, { alg: "hintAlg", value: "hintValue" }) : null;
  if (hint && hint.status !== "ok") return hint;

  const sniffed = sniffImage(media.inspector, query.bytes);
  if (sniffed.status !== "ok") return { status: "unsupported_asset_type", message: sniffed.message };
  if (sniffed.width !== null && sniffed.height !== null && sniffed.width * sniffed.height > IMAGE_DECODE_LIMITS.maximum_pixels) {
    return {
      status: "too_large",
      message: `The image has ${sniffed.width * sniffed.height} pixels; content lookups decode at most ${IMAGE_DECODE_LIMITS.maximum_pixels}.`,
    };
  }
  const image = await media.image();
  // Read as verification reads it (a JPEG reduced in the DCT domain): the codes publication indexed.
  const decoded = await verifyPixels(image, query.bytes, sniffed.mediaType);
  if (decoded.status === "too_large") return { status: "too_large", message: decoded.message };
  if (decoded.status !== "decoded")
    return { status: "unsupported_asset_type", message: `The ${sniffed.mediaType} asset could not be decoded: ${decoded.message}` };

  const found: { match: IndexedMatch; score: number }[] = [];
  for (const algorithm of algorithms) found.push(...(await contentMatches(db, image, decoded.pixels, algorithm, options)));
  if (hint) {
    const scored = (await lookup(db, hint.algorithm, hint.bits, options)).map((match) => ({
      match,
      score: hint.algorithm.lookup === "pdq" ? pdqScore(match.distance) : 100,
    }));
    found.push(...scored);
  }
  return { status: "ok", matches: merge(found, options.maxResults) };
}

export type ManifestResult = { status: "ok"; store: Uint8Array; sha256: string } | { status: "not_found" };

/**
 * GET /manifests/{manifestId}: the manifest store of the publication whose active manifest is `manifestId`
 * (the bytes the sign step wrote, checked against their recorded ETag and SHA-256), or only its active manifest.
 * A store recorded but unreadable is a service failure (thrown), never a silent 404.
 */
export async function manifestStore(
  env: { DB: D1Database; OBJECTS: R2Bucket },
  manifestId: string,
  options: { activeOnly: boolean },
): Promise<ManifestResult> {
  const stored = await publishedManifest(env.DB, manifestId);
  if (!stored) return { status: "not_found" };
  const object = await env.OBJECTS.get(stored.key, { onlyIf: { etagMatches: stored.etag } });
  if (!object || !("body" in object)) throw new Error(`manifest store of ${manifestId} is recorded but not readable`);
  const bytes = new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
  const sha256 = await sha256Hex(bytes);
  if (sha256 !== stored.sha256) throw new Error(`manifest store of ${manifestId} does not match its recorded SHA-256`);
  if (!options.activeOnly) return { status: "ok", store: bytes, sha256 };
  const active = activeManifestStore(bytes, manifestId);
  if (active.status !== "ok") throw new Error(`active manifest of ${manifestId}: ${active.message}`);
  return { status: "ok", store: active.store, sha256: active.store === bytes ? sha256 : await sha256Hex(active.store) };
}

/**
 * Who may search which part of the soft-binding index (pure, no I/O).
 *
 * - `global` (the default, for anyone, with or without a key): every tenant's publications that are still
 *   resolvable. A published asset's provenance is public; matches name the manifest, never the tenant.
 * - `tenant`: only the caller's own tenant's publications. It needs an API key holding `recovery:read`; an
 *   anonymous caller gets `credential_required`, a key without the scope `scope_missing`.
 *
 * Either way only resolvable publications are searched: published (not past retention) and with a manifest.
 */
export type RequestedLookupScope = "global" | "tenant";

export type LookupScopeDecision =
  | { status: "ok"; scope: "global" | "tenant"; filter: Required<MatchFilter> }
  | { status: "credential_required" }
  | { status: "scope_missing" };

export function lookupScope(principal: Principal, requested: RequestedLookupScope | undefined): LookupScopeDecision {
  if ((requested ?? "global") === "global") return { status: "ok", scope: "global", filter: { tenantId: null, resolvableOnly: true } };
  if (principal.kind === "anonymous") return { status: "credential_required" };
  if (!principal.scopes.has("recovery:read")) return { status: "scope_missing" };
  return { status: "ok", scope: "tenant", filter: { tenantId: principal.tenantId, resolvableOnly: true } };
}
