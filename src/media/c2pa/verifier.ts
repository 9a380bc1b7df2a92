import type { ManifestFacts } from "../../verifications/verdict";
import { verifySettingsJson, WasmReader } from "./engine";
import { applySidecarBinding } from "./reader";

/*
 * Reads a manifest for verification: the engine's validation codes (active manifest and ingredients), the claims
 * a person cares about, and who signed it. Unlike the publication-time reader (reader.ts) it reports every
 * state a file from anywhere can be in: no manifest, a remote-only reference, an unreadable store.
 */

export interface ManifestClaims {
  /** Who signed: the signing certificate's organization, else its common name. */
  origin: string | null;
  /** The claim generator (name and version). */
  generator: string | null;
  /** A generative model named by the manifest (an action's softwareAgent on a generative action). */
  model: string | null;
  ai_generated: boolean | null;
  ai_assisted: boolean | null;
  /** The trusted timestamp when present, else the signature's claimed time. */
  created_at: string | null;
}

export interface SignerSummary {
  common_name: string | null;
  organization: string | null;
  issuer: string | null;
  serial_number: string | null;
  not_after: string | null;
  timestamp: string | null;
  timestamp_authority: string | null;
}

export interface ManifestVerification {
  facts: ManifestFacts;
  claims: ManifestClaims | null;
  signer: SignerSummary | null;
  /** The active manifest's assertion labels (for the "details on demand" view). */
  assertion_labels: string[];
}

const GENERATED = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia";
const ASSISTED = [
  "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia",
  "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicallyEnhanced",
  "http://cv.iptc.org/newscodes/digitalsourcetype/compositeSynthetic",
];

interface StoreJson {
  active_manifest?: string;
  validation_state?: string;
  validation_results?: {
    activeManifest?: Record<"success" | "informational" | "failure", { code: string }[] | undefined>;
    ingredientDeltas?: { validationDeltas?: { failure?: { code: string }[] } }[];
  };
  manifests?: Record<
    string,
    {
      claim_generator_info?: { name?: string; version?: string }[];
      claim_generator?: string;
      ingredients?: { validation_status?: { code: string }[]; validation_results?: { activeManifest?: { failure?: { code: string }[] } } }[];
      assertions?: { label: string; data?: { actions?: { action?: string; digitalSourceType?: string; softwareAgent?: string | { name?: string }; when?: string }[] } }[];
      signature_info?: { issuer?: string; common_name?: string; cert_serial_number?: string; time?: string };
    }
  >;
}

interface CrJsonSignature {
  manifests?: {
    label: string;
    signature?: {
      certificateInfo?: { serialNumber?: string; issuer?: Record<string, string>; subject?: Record<string, string>; validity?: { notAfter?: string } };
      timeStampInfo?: { timestamp?: string; certificateInfo?: { subject?: Record<string, string> } };
    };
  }[];
}

const codes = (list: { code: string }[] | undefined) => (list ?? []).map((c) => c.code);

function claimsOf(store: StoreJson, label: string, signer: SignerSummary | null): ManifestClaims {
  const manifest = store.manifests?.[label];
  const info = manifest?.claim_generator_info?.[0];
  const generator = info?.name ? `${info.name}${info.version ? ` ${info.version}` : ""}` : (manifest?.claim_generator ?? null);
  const actions = (manifest?.assertions ?? []).filter((a) => a.label.startsWith("c2pa.actions")).flatMap((a) => a.data?.actions ?? []);
  const types = actions.map((a) => a.digitalSourceType).filter((t): t is string => Boolean(t));
  const generative = actions.find((a) => a.digitalSourceType === GENERATED || ASSISTED.includes(a.digitalSourceType ?? ""));
  const agent = generative?.softwareAgent;
  return {
    origin: signer?.organization ?? signer?.common_name ?? null,
    generator,
    model: typeof agent === "string" ? agent : (agent?.name ?? null),
    ai_generated: types.length ? types.includes(GENERATED) : false,
    ai_assisted: types.length ? types.some((t) => ASSISTED.includes(t)) : false,
    created_at: signer?.timestamp ?? manifest?.signature_info?.time ?? actions.find((a) => a.when)?.when ?? null,
  };
}

function signerOf(cr: CrJsonSignature, label: string): SignerSummary | null {
  const sig = cr.manifests?.find((m) => m.label === label)?.signature;
  if (!sig?.certificateInfo) return null;
  const subject = sig.certificateInfo.subject ?? {};
  const issuer = sig.certificateInfo.issuer ?? {};
  return {
    common_name: subject["CN"] ?? null,
    organization: subject["O"] ?? null,
    issuer: issuer["O"] ?? issuer["CN"] ?? null,
    serial_number: sig.certificateInfo.serialNumber ?? null,
    not_after: sig.certificateInfo.validity?.notAfter ?? null,
    timestamp: sig.timeStampInfo?.timestamp ?? null,
    timestamp_authority: sig.timeStampInfo?.certificateInfo?.subject?.["CN"] ?? null,
  };
}

/**
 * Invariant: never throws; a file without a manifest is `absent`, a reference to a remote manifest is `remote`
 * (remote fetching is off in the engine: the service fetches manifest URIs itself, through its SSRF guard),
 * anything the engine cannot parse is `unreadable` with its message.
 */
export async function verifyManifest(
  input: { bytes: Uint8Array; mediaType: string; manifestStore?: Uint8Array; manifestOnly?: boolean },
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
): Promise<ManifestVerification> {
  let reader: WasmReader | null = null;
  try {
    ensureEngine();
    const settings = verifySettingsJson(trustAnchorsPem);
    reader = input.manifestStore
      ? await WasmReader.fromBytes("application/c2pa", input.manifestStore, settings)
      : await WasmReader.fromBytes(input.mediaType, input.bytes, settings);
    const store = JSON.parse(reader.json()) as StoreJson;
    const label = store.active_manifest;
    if (!label) return { facts: { state: "absent" }, claims: null, signer: null, assertion_labels: [] };
    const crJson = reader.crJson();
    const signer = signerOf(JSON.parse(crJson) as CrJsonSignature, label);
    const active = store.validation_results?.activeManifest;
    const check = {
      validation_state: (store.validation_state === "Trusted" || store.validation_state === "Valid" ? store.validation_state : "Invalid") as "Trusted" | "Valid" | "Invalid",
      success_codes: codes(active?.success),
      informational_codes: codes(active?.informational),
      failure_codes: codes(active?.failure),
      asset_binding_checked: !input.manifestStore,
    };
    // A sidecar store read alone: check its hard binding against the asset ourselves (the engine cannot).
    if (input.manifestStore && !input.manifestOnly) await applySidecarBinding(crJson, label, input.bytes, check);
    return {
      facts: {
        state: "read",
        active_manifest_label: label,
        validation_state: check.validation_state,
        success_codes: check.success_codes,
        informational_codes: check.informational_codes,
        failure_codes: check.failure_codes,
        // Failures the engine found now, plus those the signer recorded in the ingredient assertions.
        ingredient_failure_codes: [
          ...(store.validation_results?.ingredientDeltas ?? []).flatMap((d) => codes(d.validationDeltas?.failure)),
          ...(store.manifests?.[label]?.ingredients ?? []).flatMap((i) => [...codes(i.validation_status), ...codes(i.validation_results?.activeManifest?.failure)]),
        ],
      },
      claims: claimsOf(store, label, signer),
      signer,
      assertion_labels: (store.manifests?.[label]?.assertions ?? []).map((a) => a.label),
    };
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (/remote/i.test(message)) {
      const url = /(https?:\/\/[^\s"')]+)/.exec(message)?.[1] ?? null;
      return { facts: { state: "remote", url }, claims: null, signer: null, assertion_labels: [] };
    }
    if (/no\s*(jumbf|manifest|c2pa)|not found|JumbfNotFound|ProvenanceMissing/i.test(message)) {
      return { facts: { state: "absent" }, claims: null, signer: null, assertion_labels: [] };
    }
    return { facts: { state: "unreadable", message: message.slice(0, 300) }, claims: null, signer: null, assertion_labels: [] };
  } finally {
    try {
      reader?.free();
    } catch {
      /* already freed */
    }
  }
}
