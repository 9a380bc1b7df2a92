import { ALGORITHMS } from "../catalog/algorithms";
import { base64 } from "../platform/bytes";

/**
 * `c2pa.soft-binding` assertions (C2PA 2.x §"Soft binding"): one per watermark or fingerprint, so a reader
 * that finds the manifest learns which durable credentials the asset carries, and a resolver that finds the
 * watermark or fingerprint can point back at the manifest. `alg` is the C2PA soft-binding algorithm list name
 * where the algorithm is registered (ISCC: `io.iscc.v0`) and a `svc.`-prefixed name of ours otherwise.
 */

export interface SoftBindingValue {
  /** Our algorithm name (SPEC enum value or our own watermark's name). */
  algorithm: string;
  /** The raw value: the watermark payload or the fingerprint's hash bits. */
  bits: Uint8Array;
}

export const SOFT_BINDING_LABEL = "c2pa.soft-binding";

export function softBindingAlg(algorithm: string): string {
  return ALGORITHMS.find((a) => a.algorithm === algorithm)?.soft_binding_alg ?? `svc.${algorithm}`;
}

export function softBindingAssertions(values: SoftBindingValue[]): { label: string; data: unknown }[] {
  return values.map((v) => ({
    label: SOFT_BINDING_LABEL,
    data: {
      alg: softBindingAlg(v.algorithm),
      // The whole asset: no extent, timespan or region.
      blocks: [{ scope: {}, value: base64(v.bits) }],
      // serde reads bytes from a JSON array of numbers.
      pad: [],
    },
  }));
}
