import { ENGINE_READ_MAXIMUM_BYTES } from "../../catalog/limits";
import { isC2paJumbfContent } from "../inspect/c2pa-markers";
import type { ManifestFacts } from "../types";
import { indexOfBytes } from "./byte-search";
import { EngineReadTooLarge, readWithEngine, verifySettingsJson, type WasmReader } from "./engine";
import { fastVerifyJpeg } from "./fast-validator";
import { checkStoreIntegrity } from "./integrity";
import type { ExtractManifestStoreResult } from "./jumbf-box";
import { extractManifestStore, manifestStoreInstances } from "./jumbf-carriers";
import { activeManifestSignature } from "./jumbf-signature";
import { applySidecarBinding } from "./reader";
import { CAPTURE_ASSERTION_LABEL, CREATOR_ASSERTION_LABEL } from "./signer";
import { type CrJsonSignature, type SignerSummary, signerSummaryFromCose, signerSummaryFromCrJson } from "./signer-summary";
import { type HardBindings, STORE_ALONE_BINDING_CODES, type StreamScan, streamedBinding } from "./stream-verify";
import { anchorsForStore } from "./trust-anchors";
import { applyTrustVerdict, learnTrustVerdict, trustPlan } from "./trust-verdicts";

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

export type { SignerSummary };

export interface ManifestVerification {
  facts: ManifestFacts;
  claims: ManifestClaims | null;
  signer: SignerSummary | null;
  /** The active manifest's assertion labels (for the "details on demand" view). */
  assertion_labels: string[];
  /**
   * The active manifest's creator assertion (`svc.creator`) as written, when it has a well-formed one. What it
   * claims is only a claim: the caller decides whether the manifest is one this service signed.
   */
  creator_assertion?: CreatorAssertion | null;
  /** The active manifest's capture assertion (`svc.capture`) as written, when well-formed; only a claim, like the creator's. */
  capture_assertion?: CaptureAssertion | null;
  /** The active manifest's hard-binding assertions as the engine read them (crJSON), when asked (`hardBindings`). */
  hard_bindings?: HardBindings;
}

/** What a capture admission stated in the manifest it let be signed (no identity, key or installation id). */
export interface CaptureAssertion {
  capture_admission_id: string;
  provider_class: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
  verifier_version: string;
  decided_at: string;
  media_sha256: string;
}

/** An opaque creator reference and the salted commitment to the identity (hex SHA-256), never personal data. */
export interface CreatorAssertion {
  creator_ref: string;
  commitment: string;
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
      ingredients?: {
        validation_status?: { code: string }[];
        validation_results?: { activeManifest?: { failure?: { code: string }[] } };
      }[];
      assertions?: {
        label: string;
        data?: {
          actions?: { action?: string; digitalSourceType?: string; softwareAgent?: string | { name?: string }; when?: string }[];
          creator_ref?: unknown;
          commitment?: unknown;
        };
      }[];
      signature_info?: SignatureInfo;
    }
  >;
}

/** The engine's reading of a manifest's signature (json()). */
interface SignatureInfo {
  issuer?: string;
  common_name?: string;
  cert_serial_number?: string;
  time?: string;
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

function creatorAssertionOf(store: StoreJson, label: string): CreatorAssertion | null {
  const data = store.manifests?.[label]?.assertions?.find((a) => a.label === CREATOR_ASSERTION_LABEL)?.data;
  const ref = data?.creator_ref;
  const commitment = data?.commitment;
  return typeof ref === "string" && typeof commitment === "string" && ref.length <= 64 && /^[0-9a-f]{64}$/.test(commitment)
    ? { creator_ref: ref, commitment }
    : null;
}

function captureAssertionOf(store: StoreJson, label: string): CaptureAssertion | null {
  const data = store.manifests?.[label]?.assertions?.find((a) => a.label === CAPTURE_ASSERTION_LABEL)?.data as
    | Record<string, unknown>
    | undefined;
  const text = (key: string, max = 128) => {
    const v = data?.[key];
    return typeof v === "string" && v.length > 0 && v.length <= max ? v : null;
  };
  const id = text("capture_admission_id");
  const provider = text("provider_class");
  const verifier = text("verifier_version");
  const decided = text("decided_at");
  const media = text("media_sha256");
  if (!id || !/^cad_[a-z2-7]{16}$/.test(id) || !provider || !verifier || !decided || !media || !/^[0-9a-f]{64}$/.test(media)) return null;
  const classes = ["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"] as const;
  const providerClass = classes.find((c) => c === provider);
  if (!providerClass) return null;
  return { capture_admission_id: id, provider_class: providerClass, verifier_version: verifier, decided_at: decided, media_sha256: media };
}

type VerifyInput = {
  bytes: Uint8Array;
  mediaType: string;
  manifestStore?: Uint8Array;
  manifestOnly?: boolean;
  /** A large stored file read by streaming (stream-verify.ts): `bytes` is then empty (see verifyStreamedManifest). */
  streamed?: Extract<StreamScan, { status: "scanned" }>;
  /** Also return the active manifest's hard-binding assertions from the engine's crJSON (`hard_bindings`). */
  hardBindings?: boolean;
};

const nothing = { claims: null, signer: null, assertion_labels: [] };

/**
 * Invariant: never throws, but EngineReadTooLarge for a file the engine would have to read above its size limit
 * (engine.ts; the caller refuses the request); a file without a manifest is `absent` (whatever the engine says about a type it does
 * not read), a reference to a remote manifest is `remote` (remote fetching is off in the engine: the service
 * fetches manifest URIs itself, through its SSRF guard). Every store found is also checked byte for byte
 * (integrity.ts): a store whose signed bytes changed is `tampered` even when the engine cannot parse it, or a
 * tamper failure code is added when the engine missed it; only a store the engine refuses although its signed
 * bytes are intact is `unreadable` (a form the engine does not support). A JPEG carrying several stores is read
 * store by store, and the conflict is reported (see multipleStores); so is a PNG. A JPEG whose store has the form
 * this service signs and verifies completely is judged by our fast validator (fast-validator.ts) with exactly the
 * engine's result, without the engine; anything else reaches the engine (`fastValidator: false`: always, for tests
 * and benchmarks comparing the two). A `streamed` file is read by verifyStreamedManifest.
 */
export async function verifyManifest(
  input: VerifyInput,
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
  options: { fastValidator?: boolean } = {},
): Promise<ManifestVerification & { warnings: string[]; fileStore?: Uint8Array | null }> {
  if (input.streamed) return verifyStreamedManifest(input.streamed, input.mediaType, trustAnchorsPem, ensureEngine);
  const located = input.manifestStore
    ? extractManifestStore(input.manifestStore, "application/c2pa")
    : extractManifestStore(input.bytes, input.mediaType);
  const result = await verifyLocated(input, located, trustAnchorsPem, ensureEngine, options);
  // The store as located in the file, handed on so the caller's OCSP and anchor checks need not walk the file again.
  return input.manifestStore ? result : { ...result, fileStore: located.status === "ok" ? located.store : null };
}

/** The note of a file too large for the engine with no store in its bytes (see verifyLocated). */
const LARGE_WITHOUT_STORE = `The file is larger than the C2PA engine reads (${ENGINE_READ_MAXIMUM_BYTES / 1024 / 1024} MiB) and holds no manifest store: a reference to a remote manifest in its metadata was not looked for.`;

/**
 * The manifest of a large stored MP4/MOV/M4A or WAV read by streaming (stream-verify.ts scanStored): the engine
 * validates the embedded store alone (claim signature, certificate chains and trust, timestamp, assertion hashes,
 * ingredients) with every check verifyManifest makes of a store, and its comparison of the hard binding with the
 * store's own bytes is replaced by ours over the streamed file. The result is the one the engine gives for the whole
 * file (test/node/media/stream-verify.test.ts compares them with c2pa-node). Invariant: throws EngineReadTooLarge,
 * as a whole read would be refused, when the binding is not the form streamedBinding judges (only the whole file in
 * the engine could judge it); otherwise never throws.
 */
export async function verifyStreamedManifest(
  scan: Extract<StreamScan, { status: "scanned" }>,
  mediaType: string,
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
): Promise<ManifestVerification & { warnings: string[]; fileStore: Uint8Array | null }> {
  const store = scan.store;
  if (!store) return { facts: { state: "absent" }, ...nothing, warnings: [LARGE_WITHOUT_STORE], fileStore: null };
  const { hard_bindings: hardBindings, ...result } = await verifyManifest(
    { bytes: new Uint8Array(0), mediaType, manifestStore: store, manifestOnly: true, hardBindings: true },
    trustAnchorsPem,
    ensureEngine,
  );
  const facts = result.facts;
  if (facts.state === "read") {
    // The binding judged is the one the engine validated in the active manifest (its crJSON), never a box found
    // by our own walk of the store (a decoy box labelled as the active manifest would be read instead).
    const binding = streamedBinding(scan, hardBindings ?? null);
    if (binding.status !== "checked") throw new EngineReadTooLarge(scan.byteLength, ENGINE_READ_MAXIMUM_BYTES, mediaType);
    facts.failure_codes = facts.failure_codes.filter((c) => !STORE_ALONE_BINDING_CODES.has(c));
    if (binding.matched) facts.success_codes.push(binding.code);
    else facts.failure_codes.push(binding.code);
    facts.validation_state =
      facts.failure_codes.length > 0 ? "Invalid" : facts.success_codes.includes("signingCredential.trusted") ? "Trusted" : "Valid";
  }
  return { ...result, fileStore: facts.state === "read" ? store : null };
}

async function verifyLocated(
  input: VerifyInput,
  located: ExtractManifestStoreResult,
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
  options: { fastValidator?: boolean },
): Promise<ManifestVerification & { warnings: string[] }> {
  const anchors = anchorsForStore(trustAnchorsPem, located);
  // Our own validator first (fast-validator.ts): it judges the stores of the form this service signs into JPEGs
  // when they verify completely, exactly as the engine would, and defers everything else to the engine.
  if (
    options.fastValidator !== false &&
    anchors &&
    !input.manifestStore &&
    input.mediaType === "image/jpeg" &&
    located.status === "ok" &&
    located.carrier === "jpeg-app11"
  ) {
    const fast = await fastVerifyJpeg(input.bytes, anchors);
    if (fast.status === "verified")
      return { ...verificationOf(fast.store as unknown as StoreJson, fast.store.active_manifest, fast.signer, true), warnings: [] };
  }
  // A file with no store in its bytes, too large for the engine: no manifest, as the engine would say, except that
  // a reference to a remote manifest in its metadata (which only the engine looks for) is not looked for. Refusing it
  // would take away the watermark and fingerprint lookup a stripped copy is verified for.
  if (!input.manifestStore && located.status === "not_found" && input.bytes.length > ENGINE_READ_MAXIMUM_BYTES)
    return {
      facts: { state: "absent" },
      ...nothing,
      warnings: [LARGE_WITHOUT_STORE],
    };
  const result = await engineVerify(input, anchors, ensureEngine, located);
  const facts = result.facts;
  if (facts.state === "absent" || facts.state === "remote") return { ...result, warnings: [] };
  if (facts.state === "unreadable") {
    // The engine refuses types it does not read ("UnsupportedType"): with no store in the bytes, there is no manifest.
    if (located.status === "not_found") return { facts: { state: "absent" }, ...nothing, warnings: [] };
    // A damaged container (a broken marker before any store) with no C2PA store anywhere in its bytes: no manifest.
    if (located.status === "malformed" && !containsC2paStoreBox(input.manifestStore ?? input.bytes))
      return { facts: { state: "absent" }, ...nothing, warnings: [] };
    if (located.status === "malformed") {
      if (!input.manifestStore && /more than one/.test(located.message)) {
        const several = await multipleStores(input, trustAnchorsPem, ensureEngine, options);
        if (several) return several;
      }
      return {
        facts: { state: "tampered", message: located.message, active_manifest_label: null, signature_valid: false },
        ...nothing,
        warnings: [],
      };
    }
    const integrity = await checkStoreIntegrity(located.store);
    if (integrity.status === "tampered") {
      return {
        facts: {
          state: "tampered",
          message: `${integrity.reason} (${facts.message})`,
          active_manifest_label: null,
          signature_valid: integrity.signatureValid,
        },
        ...nothing,
        warnings: [],
      };
    }
    return { ...result, warnings: [] };
  }
  if (facts.state !== "read") return { ...result, warnings: [] };
  // Read: the engine hashes assertions as it re-serializes them, so a change it cannot see is still looked for.
  if (located.status === "ok") {
    const integrity = await checkStoreIntegrity(located.store, facts.active_manifest_label);
    if (integrity.status === "tampered") {
      const code = integrity.signatureValid ? "assertion.hashedURI.mismatch" : "claimSignature.mismatch";
      if (!facts.failure_codes.includes(code)) facts.failure_codes.push(code);
      facts.validation_state = "Invalid";
    }
  }
  return { ...result, warnings: [] };
}

/**
 * A JPEG or PNG with several C2PA stores (C2PA allows one): each is read on its own, from the file without the
 * other stores' segments (APP11 segments, caBX chunks). The verdict follows the store that reads best; since the file as given also holds bytes
 * its signature does not cover, its hard binding cannot match the file (dataHash mismatch). Null when no store
 * reads at all (the caller reports the file as tampered).
 */
/** The most C2PA stores of one file read one by one (C2PA allows one; a stray second is the case worth reading). */
export const MAX_STORES_READ = 4;

async function multipleStores(
  input: VerifyInput,
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
  options: { fastValidator?: boolean },
): Promise<(ManifestVerification & { warnings: string[] }) | null> {
  const instances = manifestStoreInstances(input.bytes);
  // Each store costs a full verification of the file: a file crafted with thousands of stores must not buy
  // thousands of them with one request. More than a few is tampering by itself.
  if (instances.length < 2 || instances.length > MAX_STORES_READ) return null;
  const readings: { index: number; verification: ManifestVerification }[] = [];
  for (const index of instances.keys()) {
    const others = instances.filter((_, i) => i !== index).flatMap((o) => o.segments);
    const verification = await verifyManifest(
      { ...input, bytes: withoutRanges(input.bytes, others) },
      trustAnchorsPem,
      ensureEngine,
      options,
    );
    readings.push({ index, verification });
  }
  const failures = (v: ManifestVerification) => (v.facts.state === "read" ? v.facts.failure_codes.length : Number.POSITIVE_INFINITY);
  const best = readings
    .filter((r) => r.verification.facts.state === "read")
    .sort((a, b) => failures(a.verification) - failures(b.verification))[0];
  if (best?.verification.facts.state !== "read") return null;
  const describe = (r: { index: number; verification: ManifestVerification }) => {
    const f = r.verification.facts;
    return `store ${r.index + 1}: ${f.state === "read" ? `${f.active_manifest_label} (${f.failure_codes.length ? f.failure_codes.join(", ") : "valid"})` : f.state === "tampered" || f.state === "unreadable" ? `${f.state}, ${f.message}` : f.state}`;
  };
  const facts = best.verification.facts;
  if (!facts.failure_codes.includes("assertion.dataHash.mismatch")) facts.failure_codes.push("assertion.dataHash.mismatch");
  facts.informational_codes.push("svc.manifest.multipleStores");
  facts.validation_state = "Invalid";
  return {
    ...best.verification,
    warnings: [
      `The file holds ${instances.length} C2PA manifest stores where C2PA allows one; each was read on its own (${readings.map(describe).join("; ")}). ` +
        `The verdict follows store ${best.index + 1}; the other data was added outside what its signature covers, so the file is not the one that was signed.`,
    ],
  };
}

/** Whether the bytes hold, anywhere, the description box (`jumd`) of a C2PA manifest store. Linear. */
function containsC2paStoreBox(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0x6a, 4); i >= 0; i = bytes.indexOf(0x6a, i + 1)) {
    if (bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6d && bytes[i + 3] === 0x64 && isC2paJumbfContent(bytes, i - 4, bytes.length))
      return true;
  }
  return false;
}

function withoutRanges(bytes: Uint8Array, ranges: [number, number][]): Uint8Array {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out = new Uint8Array(bytes.length - sorted.reduce((n, [s, e]) => n + (e - s), 0));
  let from = 0;
  let o = 0;
  for (const [s, e] of sorted) {
    out.set(bytes.subarray(from, s), o);
    o += s - from;
    from = e;
  }
  out.set(bytes.subarray(from), o);
  return out;
}

/**
 * The signer summary read from the store's COSE (signer-summary.ts), or null to ask the engine's crJSON. Only for a
 * store located exactly as the engine reads it (the carriers of trust-anchors.ts), and never when some manifest
 * carries a timestamp assertion (c2pa.time-stamp), which can stand in for the signature's own timestamp.
 */
const TIME_STAMP_LABEL = new TextEncoder().encode("c2pa.time-stamp");

function signerFromStore(located: ExtractManifestStoreResult, label: string, engineInfo: SignatureInfo | undefined): SignerSummary | null {
  if (located.status !== "ok" || !["sidecar", "jpeg-app11", "png-cabx"].includes(located.carrier)) return null;
  if (indexOfBytes(located.store, TIME_STAMP_LABEL) >= 0) return null;
  const signature = activeManifestSignature(located.store, label);
  if (signature.status !== "ok" || signature.manifestLabel !== label) return null;
  const summary = signerSummaryFromCose(signature.cose, engineInfo?.time ?? null);
  // The engine may have read another store than ours from the same file (a store hidden where only one of the two
  // parsers looks): ours names the signer only when it is the certificate the engine checked.
  if (!summary?.serial_number || !engineInfo?.cert_serial_number) return null;
  if (BigInt(`0x${summary.serial_number}`).toString() !== engineInfo.cert_serial_number) return null;
  if ((engineInfo.common_name ?? null) !== summary.common_name) return null;
  return summary;
}

type Check = {
  validation_state: "Trusted" | "Valid" | "Invalid";
  success_codes: string[];
  informational_codes: string[];
  failure_codes: string[];
  asset_binding_checked: boolean;
};

function checkOf(store: StoreJson, assetBindingChecked: boolean): Check {
  const active = store.validation_results?.activeManifest;
  return {
    validation_state: store.validation_state === "Trusted" || store.validation_state === "Valid" ? store.validation_state : "Invalid",
    success_codes: codes(active?.success),
    informational_codes: codes(active?.informational),
    failure_codes: codes(active?.failure),
    asset_binding_checked: assetBindingChecked,
  };
}

/** The verification of a store's json() reading (the engine's, or the fast validator's of the same form). */
function verificationOf(store: StoreJson, label: string, signer: SignerSummary | null, check: Check | boolean): ManifestVerification {
  const c = typeof check === "boolean" ? checkOf(store, check) : check;
  return {
    facts: {
      state: "read",
      active_manifest_label: label,
      validation_state: c.validation_state,
      success_codes: c.success_codes,
      informational_codes: c.informational_codes,
      failure_codes: c.failure_codes,
      // Failures the engine found now, plus those the signer recorded in the ingredient assertions.
      ingredient_failure_codes: [
        ...(store.validation_results?.ingredientDeltas ?? []).flatMap((d) => codes(d.validationDeltas?.failure)),
        ...(store.manifests?.[label]?.ingredients ?? []).flatMap((i) => [
          ...codes(i.validation_status),
          ...codes(i.validation_results?.activeManifest?.failure),
        ]),
      ],
    },
    claims: claimsOf(store, label, signer),
    signer,
    assertion_labels: (store.manifests?.[label]?.assertions ?? []).map((a) => a.label),
    creator_assertion: creatorAssertionOf(store, label),
    capture_assertion: captureAssertionOf(store, label),
  };
}

/** The reference engine's reading alone (see verifyManifest). */
async function engineVerify(
  input: VerifyInput,
  trustAnchorsPem: string | null,
  ensureEngine: () => void,
  located: ExtractManifestStoreResult,
): Promise<ManifestVerification> {
  // Outside the try: an instantiation that fails (the engine is instantiated by its first read, #19) is a fault of
  // this isolate, thrown as such (a 500, a queued verification retried), never a verdict about the file.
  ensureEngine();
  let reader: WasmReader | null = null;
  try {
    const read = (anchors: string | null) =>
      input.manifestStore
        ? readWithEngine("application/c2pa", input.manifestStore, verifySettingsJson(anchors))
        : readWithEngine(input.mediaType, input.bytes, verifySettingsJson(anchors));
    // A file read before under the same anchors: its trust verdict is reused (trust-verdicts.ts). Keyed by the
    // whole file, not by the store we located: the engine may read another store from the same bytes.
    const { plan, key } =
      trustAnchorsPem && !input.manifestStore && located.status === "ok" && ["jpeg-app11", "png-cabx"].includes(located.carrier)
        ? await trustPlan(located.store, input.bytes, trustAnchorsPem)
        : { plan: "read" as const, key: null };
    let store: StoreJson | null = null;
    let signer: SignerSummary | null = null;
    if (key && plan === "apply") {
      reader = await read(null);
      store = applyTrustVerdict(key, JSON.parse(reader.json()) as StoreJson);
      const label = store?.active_manifest;
      // Only where the signer comes from our COSE reading: crJSON would be the one of a read without trust checks.
      signer =
        store && label && !store.validation_results?.activeManifest?.failure?.length
          ? signerFromStore(located, label, store.manifests?.[label]?.signature_info)
          : null;
      if (!signer) {
        store = null;
        reader.free();
        reader = null;
      }
    }
    if (!store) {
      reader = await read(trustAnchorsPem);
      store = JSON.parse(reader.json()) as StoreJson;
      const active = store.validation_results?.activeManifest;
      if (key && plan === "learn" && !active?.failure?.length && codes(active?.success).includes("timeStamp.validated")) {
        // Learnt only for a timestamped store (its certificates are judged at the token's time, not the clock's)
        // without failures (a verdict is applied only where the signer comes from our COSE reading, see above).
        const without = await read(null);
        try {
          learnTrustVerdict(key, store as Record<string, unknown>, JSON.parse(without.json()) as Record<string, unknown>);
        } finally {
          without.free();
        }
      }
    }
    const label = store.active_manifest;
    if (!label) return { facts: { state: "absent" }, claims: null, signer: null, assertion_labels: [] };
    const active = store.validation_results?.activeManifest;
    // crJSON only when needed: a sidecar's binding check, or a signature our reader cannot render as crJSON does.
    let crJson: string | null = input.manifestStore && !input.manifestOnly ? reader!.crJson() : null;
    signer ||=
      (!crJson && !active?.failure?.length && signerFromStore(located, label, store.manifests?.[label]?.signature_info)) ||
      signerSummaryFromCrJson(JSON.parse((crJson ??= reader!.crJson())) as CrJsonSignature, label);
    const check = checkOf(store, !input.manifestStore);
    const hardBindings = input.hardBindings ? crJsonHardBindings((crJson ??= reader!.crJson()), label) : undefined;
    // A sidecar store read alone: check its hard binding against the asset ourselves (the engine cannot).
    if (input.manifestStore && !input.manifestOnly) await applySidecarBinding(crJson ?? reader!.crJson(), label, input.bytes, check);
    const verification = verificationOf(store, label, signer, check);
    return hardBindings === undefined ? verification : { ...verification, hard_bindings: hardBindings };
  } catch (error) {
    // A size refusal is no finding about the file: the caller refuses the request (see verifyManifest).
    if (error instanceof EngineReadTooLarge) throw error;
    const message = String((error as Error)?.message ?? error);
    // Only the engine's own remote-manifest error, as it throws it (`C2pa(RemoteManifestUrl("…"))`): other errors
    // (a settings error echoes `remote_manifest_fetch`, and the trust bundle's text) can say "remote" anywhere.
    const remote = /^C2pa\(RemoteManifest(?:Url|Fetch)\(([\s\S]*)\)\)$/.exec(message);
    if (remote) {
      const url = /^"(https?:\/\/[^\s"')]+)"$/.exec(remote[1]!)?.[1] ?? null;
      return { facts: { state: "remote", url }, claims: null, signer: null, assertion_labels: [] };
    }
    // A settings error (it quotes the settings, trust bundle included) is never a file without a manifest.
    if (!/^C2pa\(BadParam\(/.test(message) && /no\s*(jumbf|manifest|c2pa)|not found|JumbfNotFound|ProvenanceMissing/i.test(message)) {
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

/** The `c2pa.hash.*` assertions of the manifest `label` in the engine's crJSON (label → value), or null. */
function crJsonHardBindings(crJson: string, label: string): HardBindings {
  try {
    const cr = JSON.parse(crJson) as { manifests?: { label?: unknown; assertions?: unknown }[] };
    const manifests = Array.isArray(cr.manifests) ? cr.manifests.filter((m) => m?.label === label) : [];
    const assertions = manifests.length === 1 ? manifests[0]!.assertions : null;
    if (!assertions || typeof assertions !== "object" || Array.isArray(assertions)) return null;
    return Object.fromEntries(Object.entries(assertions).filter(([key]) => key.startsWith("c2pa.hash.")));
  } catch {
    return null;
  }
}
