import { hex } from "../../platform/bytes";
import type { ManifestCheck, ManifestReader, ManifestReadResult } from "../types";
import { readWithEngine, verifySettingsJson } from "./engine";
import { type FastStoreJson, fastVerifyJpeg } from "./fast-validator";
import { extractManifestStore } from "./jumbf-carriers";
import { anchorsForStore } from "./trust-anchors";

interface StoreJson {
  active_manifest?: string;
  validation_state?: string;
  validation_results?: { activeManifest?: Record<"success" | "informational" | "failure", { code: string; url?: string }[] | undefined> };
}

/** crJSON (the engine's other rendering) is the one that shows the hard-binding assertion of a manifest. */
interface CrJson {
  manifests?: { label: string; assertions?: Record<string, { alg?: string; hash?: string; exclusions?: unknown[] }> }[];
}

const codes = (store: StoreJson, kind: "success" | "informational" | "failure") =>
  (store.validation_results?.activeManifest?.[kind] ?? []).map((c) => c.code);

/** crJSON writes byte strings as `b64'...'`. */
function bytesOf(value: unknown): Uint8Array | null {
  const m = typeof value === "string" ? /^b64'([A-Za-z0-9+/=]*)'$/.exec(value) : null;
  if (!m) return null;
  try {
    return Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Validates manifests with c2pa-wasm against the configured trust anchors. The engine reads embedded manifests
 * with their asset. A sidecar store it can only read alone, and then it hashes the store itself against the
 * data-hash assertion, which always "mismatches"; this reader replaces that artifact with the real check:
 * the active manifest's `c2pa.hash.data` (without exclusions) must be the SHA-256 of the whole unchanged asset.
 * Invariant: `asset_binding_checked` is true only when the asset bytes were actually compared.
 */
export class C2paManifestReader implements ManifestReader {
  constructor(
    private readonly trustAnchorsPem: string | null,
    private readonly ensureEngine: () => void,
    /** Whether a JPEG store of the form this service signs may be judged by our own validator (see fastRead). */
    private readonly options: { fastValidator?: boolean } = {},
  ) {}

  async read(input: { bytes: Uint8Array; mediaType: string; manifestStore?: Uint8Array }): Promise<ManifestReadResult> {
    if (this.options.fastValidator !== false && !input.manifestStore && input.mediaType === "image/jpeg") {
      const fast = await fastRead(input.bytes, this.trustAnchorsPem);
      if (fast) return fast;
    }
    // Outside the try: a failed instantiation is a fault of this isolate, not a failed read of the file.
    this.ensureEngine();
    try {
      const settings = verifySettingsJson(this.trustAnchorsPem);
      const reader = input.manifestStore
        ? await readWithEngine("application/c2pa", input.manifestStore, settings)
        : await readWithEngine(input.mediaType, input.bytes, settings);
      const store = JSON.parse(reader.json()) as StoreJson;
      if (!store.active_manifest) return { status: "no_manifest" };
      const state = store.validation_state === "Trusted" || store.validation_state === "Valid" ? store.validation_state : "Invalid";
      const check: ManifestCheck = {
        validation_state: state,
        active_manifest_label: store.active_manifest,
        success_codes: codes(store, "success"),
        informational_codes: codes(store, "informational"),
        failure_codes: codes(store, "failure"),
        asset_binding_checked: !input.manifestStore,
      };
      if (input.manifestStore) await applySidecarBinding(reader.crJson(), store.active_manifest, input.bytes, check);
      reader.free();
      return { status: "read", check };
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      // The engine's not-found errors (e.g. `C2pa(JumbfNotFound)` for an APP11 segment that is no JUMBF), as the
      // verifier reads them (verifier.ts): no manifest, not a failure.
      if (/no\s*(jumbf|manifest|c2pa)|not found|JumbfNotFound|ProvenanceMissing/i.test(message)) return { status: "no_manifest" };
      return { status: "failed", message };
    }
  }
}

/**
 * The engine's reading of a JPEG, from our own validator (fast-validator.ts), or null: it judges only a store of
 * exactly the form this service signs that verifies completely (claim signature, every assertion hash, the data
 * hash over these bytes, the timestamp, both chains to an anchor, validity), and then reports what the engine
 * reports for it, Trusted with the engine's codes in the engine's order; anything else (another form, any failure,
 * any doubt) is null and goes to the engine. So a check through here passes exactly when the engine's would, with
 * the same record, and never on a file the engine would fault; the public verification reads these files the same
 * way (verifier.ts), so what a publication check accepts is what a verification of the output then reports.
 * Anchors as the engine would be given them for this store (anchorsForStore: the verdict is the same as with all).
 */
async function fastRead(bytes: Uint8Array, trustAnchorsPem: string | null): Promise<ManifestReadResult | null> {
  if (!trustAnchorsPem) return null;
  const located = extractManifestStore(bytes, "image/jpeg");
  if (located.status !== "ok" || located.carrier !== "jpeg-app11") return null;
  const anchors = anchorsForStore(trustAnchorsPem, located);
  if (!anchors) return null;
  const fast = await fastVerifyJpeg(bytes, anchors);
  if (fast.status !== "verified") return null;
  return { status: "read", check: checkOfFast(fast.store) };
}

/** A verified store's check, as read() builds it from the engine's json() of the same store. */
function checkOfFast(store: FastStoreJson): ManifestCheck {
  const results = store.validation_results.activeManifest;
  return {
    validation_state: store.validation_state,
    active_manifest_label: store.active_manifest,
    success_codes: results.success.map((c) => c.code),
    informational_codes: results.informational.map((c) => c.code),
    failure_codes: results.failure.map((c) => c.code),
    asset_binding_checked: true,
  };
}

/**
 * The real hard-binding check of a sidecar store (see the class comment of C2paManifestReader): drops the
 * engine's self-comparison of the store and compares the active manifest's `c2pa.hash.data` (no exclusions)
 * with the SHA-256 of the whole asset. Mutates `check`; `asset_binding_checked` tells whether it could.
 */
export async function applySidecarBinding(
  crJson: string,
  activeLabel: string,
  asset: Uint8Array,
  check: Pick<ManifestCheck, "success_codes" | "informational_codes" | "failure_codes" | "asset_binding_checked" | "validation_state">,
) {
  const cr = JSON.parse(crJson) as CrJson;
  // Drop the engine's self-comparison of the store (see the class comment); keep every other failure.
  check.failure_codes = check.failure_codes.filter((code) => code !== "assertion.dataHash.mismatch");
  const binding = cr.manifests?.find((m) => m.label === activeLabel)?.assertions?.["c2pa.hash.data"];
  const expected = bytesOf(binding?.hash);
  if (!expected || (binding?.alg ?? "sha256") !== "sha256" || (binding?.exclusions?.length ?? 0) > 0) {
    check.informational_codes.push("svc.sidecar.binding.unsupported");
    check.asset_binding_checked = false;
  } else {
    check.asset_binding_checked = true;
    const actual = new Uint8Array(await crypto.subtle.digest("SHA-256", asset));
    if (hex(actual) === hex(expected)) check.success_codes.push("assertion.dataHash.match");
    else check.failure_codes.push("assertion.dataHash.mismatch");
  }
  check.validation_state =
    check.failure_codes.length > 0 ? "Invalid" : check.success_codes.includes("signingCredential.trusted") ? "Trusted" : "Valid";
}
