import { ALGORITHMS, SVC_IMAGE_WATERMARK } from "../catalog/algorithms";
import type { CapabilityRegistry } from "../catalog/registry";

/*
 * The soft-binding algorithms this service resolves, by the `alg` names the manifests it signs carry (the
 * `c2pa.soft-binding` assertions of src/media/soft-binding.ts, e.g. `io.iscc.v0`). Pure: no I/O.
 *
 * An algorithm is resolvable when the catalog gives it a soft-binding `alg`, the capability registry says it is
 * available in this deployment, and the index knows how to look its values up (LOOKUPS). "Supported" is never
 * written anywhere else: GET /services/supportedAlgorithms lists exactly this set, and the match operations
 * refuse every other `alg` (learned models without weights have no entry and are never listed).
 */

export type LookupKind = "exact" | "pdq";

/**
 * How the index is searched for each algorithm and how long its value is: the value of the manifest's
 * soft-binding block, i.e. the bytes the index stores hex-encoded in `soft_bindings.bits`.
 */
const LOOKUPS: Readonly<Record<string, { bytes: number; lookup: LookupKind }>> = {
  // The 64-bit payload of our watermark (Watermarker.payloadBits).
  [SVC_IMAGE_WATERMARK]: { bytes: 8, lookup: "exact" },
  // The 64-bit ISCC Content-Code Image digest the fingerprint step computes (no ISCC header).
  "iscc-image": { bytes: 8, lookup: "exact" },
  // The 256-bit PDQ hash, matched within Hamming distance PDQ_MATCH_DISTANCE.
  pdq: { bytes: 32, lookup: "pdq" },
};

export interface ResolvableAlgorithm {
  /** The C2PA soft-binding algorithm name, as in the manifest and the resolution API. */
  alg: string;
  /** Our algorithm name, as in the index (`soft_bindings.algorithm`) and the media services. */
  algorithm: string;
  kind: "watermark" | "fingerprint";
  /** Length of a value in bytes. */
  bytes: number;
  lookup: LookupKind;
}

/** The resolvable algorithms of this deployment, watermarks first, in catalog order. */
export function resolvableAlgorithms(registry: CapabilityRegistry): ResolvableAlgorithm[] {
  const out: ResolvableAlgorithm[] = [];
  for (const a of ALGORITHMS) {
    const lookup = LOOKUPS[a.algorithm];
    if (!a.soft_binding_alg || !lookup || !registry.algorithmAvailability(a).available) continue;
    out.push({ alg: a.soft_binding_alg, algorithm: a.algorithm, kind: a.kind, ...lookup });
  }
  return out.sort((x, y) => (x.kind === y.kind ? 0 : x.kind === "watermark" ? -1 : 1));
}

export function resolvableAlgorithm(registry: CapabilityRegistry, alg: string): ResolvableAlgorithm | undefined {
  return resolvableAlgorithms(registry).find((a) => a.alg === alg);
}

/**
 * The bytes of a soft-binding `value`: base64 (RFC 4648 §4, padding optional) as the manifest's soft-binding
 * block carries it; the URL-safe alphabet (§5) is accepted too, and a space is read as `+` (what an
 * unescaped `+` becomes in a query string). Null for anything else.
 */
export function decodeBindingValue(text: string): Uint8Array | null {
  const normalized = text.replace(/ /g, "+").trim().replace(/-/g, "+").replace(/_/g, "/");
  const m = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(normalized);
  if (!m || m[1]!.length === 0) return null;
  const body = m[1]!;
  if (body.length % 4 === 1) return null;
  if (m[2]!.length > 0 && (body.length + m[2]!.length) % 4 !== 0) return null;
  try {
    const binary = atob(body + "===".slice((body.length + 3) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
