import type { ManifestFacts } from "../media/types";
import { SIGNAL_WEIGHTS, STATUS_VOCABULARY, STATUS_VOCABULARY_VERSION, type StatusCode } from "./vocabulary";

/*
 * The verdict: facts gathered by the verify service (what the C2PA engine reported, OCSP, watermark, soft-binding
 * lookups, the anchor log) in, one status of the closed vocabulary out, with its confidence, signals and
 * explanations. Pure: no I/O, so every combination is unit-tested.
 */

export type { ManifestFacts } from "../media/types";

export type OcspStatus = "good" | "revoked" | "unknown" | "unavailable" | "not_checked";

/** A soft-binding match: a watermark payload or fingerprint registered to a publication. */
export interface SoftBindingMatch {
  kind: "watermark" | "fingerprint";
  algorithm: string;
  publication_id: string;
  manifest_id: string | null;
  /** Hamming distance for perceptual fingerprints; 0 for exact matches and watermarks. */
  distance: number;
  /** 0..1: detector confidence (watermark) or 1 - distance/threshold (fingerprint). */
  score: number;
}

export interface DurableFacts {
  /** null: not computed (a warning says why). */
  watermark: { present: boolean; payload_valid: boolean; match: SoftBindingMatch | null } | null;
  /**
   * `match`: the nearest publication; `candidates`, when given: every publication the fingerprint matched, nearest
   * first (identical content may be published more than once, by anyone).
   */
  fingerprint: { match: SoftBindingMatch | null; candidates?: SoftBindingMatch[] } | null;
}

/**
 * A publication whose content is similar to the file's (a fingerprint match), other than the one the file's own
 * manifest names. Only facts that are public anyway: its manifest and when it was published; never its tenant,
 * asset or publication ids.
 */
export interface RelatedPublication {
  manifest_id: string | null;
  published_at: string | null;
  kind: "fingerprint";
  algorithm: string;
  distance: number;
}

export interface VerdictInput {
  manifest: ManifestFacts;
  ocsp: OcspStatus;
  durable: DurableFacts;
  /** null: not computed; true when the active manifest's hash is in a sealed anchor batch and its proof verifies. */
  anchor_match: boolean | null;
  warnings: string[];
}

export interface Signals {
  c2pa_manifest_present?: boolean;
  c2pa_signature_valid?: boolean;
  signer_trusted?: boolean;
  timestamp_valid?: boolean;
  ocsp_status?: OcspStatus;
  watermark_present?: boolean;
  watermark_payload_valid?: boolean;
  fingerprint_match?: boolean;
  anchor_match?: boolean;
}

export interface Verdict {
  status: StatusCode;
  status_vocabulary_version: typeof STATUS_VOCABULARY_VERSION;
  overall: "valid" | "invalid" | "indeterminate" | "recovered";
  confidence: number | null;
  signals: Signals;
  matches: SoftBindingMatch[];
  /** Publications with similar content other than the file's own; informational, never a downgrade. */
  related: SoftBindingMatch[];
  warnings: string[];
  developer_explanation: string;
  user_explanation: string;
  proves: string[];
  does_not_prove: string[];
}

const ASSET_TAMPER = [
  "assertion.dataHash.mismatch",
  "assertion.bmffHash.mismatch",
  "assertion.boxesHash.mismatch",
  "assertion.collectionHash.mismatch",
];
const MANIFEST_TAMPER_PREFIXES = [
  "claimSignature.mismatch",
  "claimSignature.missing",
  "assertion.hashedURI.mismatch",
  "assertion.missing",
  "assertion.multipleHardBindings",
  "assertion.undeclared",
  "assertion.inaccessible",
  "assertion.notRedacted",
  "assertion.selfRedacted",
  "assertion.cbor.invalid",
  "assertion.json.invalid",
  "assertion.action",
  "claim.",
  "manifest.",
  "hardBindings.missing",
];
const UNSUPPORTED = ["algorithm.unsupported", "claim.version.unsupported", "manifest.unsupported"];
const REVOKED = ["signingCredential.revoked", "signingCredential.ocsp.revoked"];
const EXPIRED = ["signingCredential.expired"];
const UNTRUSTED = ["signingCredential.untrusted", "signingCredential.invalid"];
const TIMESTAMP_FAILURES = ["timeStamp.mismatch", "timeStamp.malformed", "timeStamp.outsideValidity", "timeStamp.untrusted"];

/** Codes about trust rather than integrity: an ingredient signed by an untrusted key is not a broken ingredient. */
const TRUST_ONLY = [
  "signingCredential.untrusted",
  "signingCredential.ocsp.skipped",
  "signingCredential.ocsp.inaccessible",
  "timeStamp.untrusted",
];

const has = (codes: string[], set: string[]) => codes.some((c) => set.includes(c));
/** Integrity failures of ingredients, whether the engine lists them on the active manifest or per ingredient. */
const ingredientFailures = (m: Extract<ManifestFacts, { state: "read" }>) =>
  [...m.failure_codes.filter((c) => c.startsWith("ingredient.")), ...m.ingredient_failure_codes].filter((c) => !TRUST_ONLY.includes(c));
const hasPrefix = (codes: string[], prefixes: string[]) => codes.some((c) => prefixes.some((p) => c.startsWith(p)));

/** The label of the manifest the file carries (read, or read far enough to be shown tampered). */
function ownLabel(m: ManifestFacts): string | null {
  return m.state === "read" ? m.active_manifest_label : m.state === "tampered" ? m.active_manifest_label : null;
}

/**
 * Which fingerprint match is the file's own: with a manifest, only a publication of that manifest (identical
 * content published elsewhere, by another tenant or the same one, is only related: a fingerprint is no evidence
 * the signer put in the file); without one, the publication the watermark names when the fingerprint found it too
 * (identical content published twice ties on distance, and the watermark tells which copy this is), else the
 * nearest publication (recovery).
 */
export function fingerprintView(input: VerdictInput): { match: SoftBindingMatch | null; related: SoftBindingMatch[] } {
  const fp = input.durable.fingerprint;
  if (!fp) return { match: null, related: [] };
  const all = fp.candidates ?? (fp.match ? [fp.match] : []);
  const m = input.manifest;
  if (m.state === "absent") {
    const marked = input.durable.watermark?.match?.publication_id;
    const match = (marked ? all.find((c) => c.publication_id === marked) : undefined) ?? all[0] ?? null;
    return { match, related: all.filter((c) => c !== match) };
  }
  const label = ownLabel(m);
  const own = label === null ? undefined : all.find((c) => c.manifest_id === label);
  return { match: own ?? null, related: all.filter((c) => c !== own) };
}

/** The signals the facts support; a signal that was not computed (or does not apply) is left out. */
export function signalsOf(input: VerdictInput): Signals {
  const signals: Signals = {};
  const m = input.manifest;
  signals.c2pa_manifest_present = m.state !== "absent";
  if (m.state === "read") {
    const failures = m.failure_codes;
    signals.c2pa_signature_valid = m.success_codes.includes("claimSignature.validated") && !hasPrefix(failures, ["claimSignature."]);
    signals.signer_trusted =
      m.validation_state === "Trusted" || (m.success_codes.includes("signingCredential.trusted") && !has(failures, UNTRUSTED));
    signals.timestamp_valid =
      m.success_codes.includes("timeStamp.validated") &&
      m.success_codes.includes("timeStamp.trusted") &&
      !has(failures, TIMESTAMP_FAILURES);
    signals.ocsp_status = has(failures, REVOKED) ? "revoked" : input.ocsp;
  }
  if (m.state === "tampered") signals.c2pa_signature_valid = m.signature_valid;
  const wm = input.durable.watermark;
  if (wm) {
    signals.watermark_present = wm.present;
    // Whether a payload is intact applies only to a watermark that was found.
    if (wm.present) signals.watermark_payload_valid = wm.payload_valid;
  }
  if (input.durable.fingerprint) signals.fingerprint_match = fingerprintView(input).match !== null;
  if (input.anchor_match !== null) signals.anchor_match = input.anchor_match;
  return signals;
}

function statusOf(input: VerdictInput, signals: Signals): StatusCode {
  const m = input.manifest;
  const wmMatch = input.durable.watermark?.match ?? null;
  const fpMatch = fingerprintView(input).match;
  if (m.state === "remote") return "remote_manifest_unavailable";
  if (m.state === "unreadable") return "unsupported_manifest";
  if (m.state === "tampered") return "manifest_tampered";
  if (m.state === "absent") {
    if (wmMatch) return "watermark_only";
    if (fpMatch) return "fingerprint_match_only";
    if (input.durable.watermark?.payload_valid) return "durable_credential_unresolved";
    return "no_provenance_found";
  }
  // Ingredient codes on the active manifest are judged as ingredient failures below, not as tampering of it.
  const failures = m.failure_codes.filter((c) => !c.startsWith("ingredient."));
  if (has(failures, UNSUPPORTED)) return "unsupported_manifest";
  if (hasPrefix(failures, MANIFEST_TAMPER_PREFIXES)) return "manifest_tampered";
  if (signals.ocsp_status === "revoked") return "signer_revoked";
  if (has(failures, ASSET_TAMPER)) return "asset_tampered";
  if (has(failures, EXPIRED) && !signals.timestamp_valid) return "signer_certificate_expired";
  // Any other failure of the active manifest is one this table does not classify: refuse to vouch for it.
  const known = [...UNTRUSTED, ...EXPIRED, ...TIMESTAMP_FAILURES];
  if (failures.some((c) => !known.includes(c))) return "unsupported_manifest";
  if (!signals.c2pa_signature_valid) return "manifest_tampered";
  // Only evidence the signer put in the file can contradict its manifest: a watermark naming another publication.
  const conflicting = wmMatch !== null && wmMatch.manifest_id !== null && wmMatch.manifest_id !== m.active_manifest_label;
  if (conflicting) return "conflicting_provenance";
  // A broken ingredient makes the manifest's history unconfirmable whoever signed it: say so before trust.
  if (ingredientFailures(m).length > 0) return "ingredient_invalid";
  if (!signals.signer_trusted) return "valid_manifest_untrusted_signer";
  if (wmMatch) return "verified_manifest_and_watermark_match";
  if (fpMatch) return "verified_manifest_and_fingerprint_match";
  return "verified_manifest";
}

function confidenceOf(code: StatusCode, input: VerdictInput, signals: Signals): number | null {
  const def = STATUS_VOCABULARY[code];
  if (def.confidence_rule === null) return null;
  let score: number;
  if (def.confidence_rule === "weighted_signals") {
    score =
      (signals.c2pa_signature_valid ? SIGNAL_WEIGHTS.c2pa_signature_valid : 0) +
      (signals.signer_trusted ? SIGNAL_WEIGHTS.signer_trusted : 0) +
      (signals.timestamp_valid ? SIGNAL_WEIGHTS.timestamp_valid : 0) +
      (signals.ocsp_status === "good" ? SIGNAL_WEIGHTS.ocsp_good : 0) +
      (input.durable.watermark?.match ? SIGNAL_WEIGHTS.watermark_match : 0) +
      (fingerprintView(input).match ? SIGNAL_WEIGHTS.fingerprint_match : 0) +
      (signals.anchor_match ? SIGNAL_WEIGHTS.anchor_match : 0);
  } else {
    // recovered_match: a base for the match kind, raised by the match's own strength and by corroboration.
    const wm = input.durable.watermark?.match ?? null;
    const fp = fingerprintView(input).match;
    score = wm ? 0.6 + 0.2 * wm.score + (fp && fp.publication_id === wm.publication_id ? 0.05 : 0) : fp ? 0.5 + 0.25 * fp.score : 0;
  }
  return Math.round(Math.min(def.confidence_cap ?? 1, score) * 1000) / 1000;
}

function developerExplanation(code: StatusCode, input: VerdictInput, signals: Signals): string {
  const parts: string[] = [`status ${code} (${STATUS_VOCABULARY[code].summary})`];
  const m = input.manifest;
  if (m.state === "read") {
    parts.push(`c2pa-rs validation_state ${m.validation_state} for ${m.active_manifest_label}`);
    if (m.failure_codes.length) parts.push(`failure codes: ${m.failure_codes.join(", ")}`);
    parts.push(`success codes: ${m.success_codes.join(", ") || "none"}`);
    if (m.informational_codes.length) parts.push(`informational codes: ${m.informational_codes.join(", ")}`);
    if (m.ingredient_failure_codes.length) parts.push(`ingredient failure codes: ${m.ingredient_failure_codes.join(", ")}`);
  } else if (m.state === "remote") parts.push(`remote manifest reference${m.url ? ` ${m.url}` : ""} not fetched`);
  else if (m.state === "unreadable") parts.push(`manifest store present but unreadable: ${m.message}`);
  else if (m.state === "tampered")
    parts.push(`manifest store altered after signing${m.active_manifest_label ? ` (${m.active_manifest_label})` : ""}: ${m.message}`);
  else parts.push("no C2PA manifest store in the bytes");
  if (signals.ocsp_status) parts.push(`OCSP ${signals.ocsp_status}`);
  const wm = input.durable.watermark;
  parts.push(
    wm
      ? `watermark ${wm.present ? (wm.match ? `matched ${wm.match.publication_id}` : wm.payload_valid ? "payload valid, unregistered" : "present") : "not detected"}`
      : "watermark not computed",
  );
  const fp = input.durable.fingerprint;
  const view = fingerprintView(input);
  parts.push(
    fp
      ? view.match
        ? `fingerprint ${view.match.algorithm} matched ${view.match.publication_id} at distance ${view.match.distance}`
        : input.manifest.state === "absent"
          ? "no fingerprint match"
          : "no fingerprint match of this manifest's publication"
      : "fingerprints not computed",
  );
  if (view.related.length) parts.push(`${view.related.length} related publication(s) with similar content (informational)`);
  parts.push(
    signals.anchor_match === undefined
      ? "anchor not checked"
      : signals.anchor_match
        ? "anchor inclusion proof verified"
        : "manifest hash not in a sealed anchor batch",
  );
  return `${parts.join("; ")}.`;
}

/** The verdict for a set of facts. Invariant: the same facts always give the same verdict. */
export function decideVerdict(input: VerdictInput): Verdict {
  const signals = signalsOf(input);
  const status = statusOf(input, signals);
  const def = STATUS_VOCABULARY[status];
  const view = fingerprintView(input);
  const matches = [input.durable.watermark?.match, view.match].filter((x): x is SoftBindingMatch => Boolean(x));
  return {
    status,
    status_vocabulary_version: STATUS_VOCABULARY_VERSION,
    overall: def.overall,
    confidence: confidenceOf(status, input, signals),
    signals,
    matches,
    related: view.related,
    warnings: input.warnings,
    developer_explanation: developerExplanation(status, input, signals),
    user_explanation: def.user_explanation,
    proves: def.proves,
    does_not_prove: def.does_not_prove,
  };
}
