import { canonicalJson } from "../catalog/canonical-json";
import { DISCLOSURE_STATES } from "../creators/schemas";
import type { verifications } from "../db/schema";
import { STATUS_CODES, STATUS_VOCABULARY, type StatusCode } from "./vocabulary";

/*
 * Verification reports: a pure function of one stored verification row. No clock, no random ids, no locale and
 * no request data go into a document, so the same evidence always renders byte-identical HTML and JSON (the
 * report record keeps their SHA-256). Changing any output of this file or of ./report/, including the fixed texts below, is a
 * new REPORT_VERSION: stored reports keep their bytes, new ones say which renderer made them.
 *
 * Two kinds of record are rendered:
 *  - `verification`: a verify call or a stored-object check; its evidence holds the verdict (`result`) with its
 *    status of the closed vocabulary, signals, claims, signer and the engine's codes (in the developer explanation);
 *  - `publication_check`: a signing job's check of its own output at publication; its evidence holds the reference
 *    engine's validation (`check`) and carries no status, so the texts come from PUBLICATION_CHECK_TEXT.
 */

import { REPORT_VERSION, type ReportDocument } from "./report/document-schema";

// The JSON document's schema lives in ./report/document-schema.ts, the HTML components in ./report/*.tsx.

export type VerificationRow = typeof verifications.$inferSelect;

// ---------------------------------------------------------------------------------------------------------------
// Fixed texts (part of REPORT_VERSION)
// ---------------------------------------------------------------------------------------------------------------

const STATUS_TITLES: Record<StatusCode, string> = {
  verified_manifest_and_watermark_match: "Verified: credentials and watermark agree",
  verified_manifest_and_fingerprint_match: "Verified: credentials and fingerprint agree",
  verified_manifest: "Verified Content Credentials",
  conflicting_provenance: "Conflicting provenance",
  valid_manifest_untrusted_signer: "Intact credentials from an untrusted signer",
  signer_revoked: "Signer certificate revoked",
  signer_certificate_expired: "Signer certificate expired",
  manifest_tampered: "Credentials altered after signing",
  asset_tampered: "File changed after signing",
  ingredient_invalid: "Ingredient provenance does not validate",
  unsupported_manifest: "Credentials in an unsupported form",
  remote_manifest_unavailable: "Remote credentials not retrieved",
  watermark_only: "Recovered through the watermark",
  fingerprint_match_only: "Recovered through a fingerprint match",
  durable_credential_unresolved: "Unresolved watermark",
  no_provenance_found: "No provenance found",
};

const NOT_TRUTH = "That the content is true, or that the scene or event it shows happened as shown.";
const NOT_THIS_COPY = "That a copy you hold now is the same file: verify that copy itself.";

/** What a signing job's publication-time check shows, by what the reference engine computed. */
const PUBLICATION_CHECK_TEXT = {
  trusted: {
    title: "Checked at publication: trusted credentials",
    user_explanation:
      "When this file was published, the service re-read its Content Credentials with the reference C2PA engine: the signature validated and the signer chains to a trusted authority.",
    proves: ["At publication, the manifest's signature validated and the signing certificate chained to a configured trust anchor."],
  },
  valid: {
    title: "Checked at publication: intact credentials, untrusted signer",
    user_explanation:
      "When this file was published, the service re-read its Content Credentials with the reference C2PA engine: the signature validated, but the signer is not on the trust list the engine used.",
    proves: ["At publication, the manifest's signature validated."],
  },
  invalid: {
    title: "Checked at publication: credentials did not validate",
    user_explanation: "When this file was published, the reference C2PA engine did not validate its Content Credentials.",
    proves: [],
  },
  no_manifest: {
    title: "Checked at publication: no Content Credentials",
    user_explanation:
      "This file was published without Content Credentials (its recipe adds none); the publication check covers what the recipe did add.",
    proves: [],
  },
} as const;
const BINDING_PROVEN = "The published bytes were byte-for-byte what was signed (the hard binding matched).";
const WATERMARK_PROVEN = "The watermark embedded at publication was read back from the published output.";

// ---------------------------------------------------------------------------------------------------------------
// The model: the stored row → one document
// ---------------------------------------------------------------------------------------------------------------

type Loose = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const obj = (v: unknown): Loose | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Loose) : null);
const isStatus = (v: unknown): v is StatusCode => typeof v === "string" && (STATUS_CODES as readonly string[]).includes(v);
const validationState = (v: unknown): "Trusted" | "Valid" | "Invalid" | null =>
  v === "Trusted" || v === "Valid" || v === "Invalid" ? v : null;

function signerOf(v: unknown): ReportDocument["signer"] {
  const s = obj(v);
  if (!s) return null;
  return {
    common_name: str(s.common_name),
    organization: str(s.organization),
    issuer: str(s.issuer),
    serial_number: str(s.serial_number),
    not_after: str(s.not_after),
    timestamp: str(s.timestamp),
    timestamp_authority: str(s.timestamp_authority),
  };
}

function claimsOf(v: unknown): ReportDocument["claims"] {
  const c = obj(v);
  if (!c) return null;
  return {
    origin: str(c.origin),
    generator: str(c.generator),
    model: str(c.model),
    ai_generated: bool(c.ai_generated),
    ai_assisted: bool(c.ai_assisted),
    created_at: str(c.created_at),
    ...("creator" in c ? { creator: creatorOf(c.creator) } : {}),
    ...("capture" in c ? { capture: captureOf(c.capture) } : {}),
  };
}

function captureOf(v: unknown): NonNullable<ReportDocument["claims"]>["capture"] {
  const c = obj(v);
  const id = c ? str(c.capture_admission_id) : null;
  const provider = c ? str(c.provider_class) : null;
  const classes = ["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"] as const;
  const providerClass = classes.find((k) => k === provider);
  if (!c || !id || !providerClass) return null;
  return {
    capture_admission_id: id,
    provider_class: providerClass,
    verifier_version: str(c.verifier_version) ?? "",
    decided_at: str(c.decided_at) ?? "",
    media_sha256: str(c.media_sha256) ?? "",
    attested_by_service: c.attested_by_service === true,
  };
}

function creatorOf(v: unknown): NonNullable<ReportDocument["claims"]>["creator"] {
  const c = obj(v);
  if (!c || typeof c.creator_ref !== "string" || typeof c.commitment !== "string") return null;
  const state = str(c.disclosure_state);
  return {
    creator_ref: c.creator_ref,
    commitment: c.commitment,
    attributed_by_service: c.attributed_by_service === true,
    disclosure_state: DISCLOSURE_STATES.find((s) => s === state) ?? null,
    name: str(c.name),
    brand_name: str(c.brand_name),
  };
}

function signalsOf(v: unknown): Record<string, boolean | string> {
  const out: Record<string, boolean | string> = {};
  for (const [k, value] of Object.entries(obj(v) ?? {})) if (typeof value === "boolean" || typeof value === "string") out[k] = value;
  return out;
}

function matchesOf(v: unknown): ReportDocument["matches"] {
  return (Array.isArray(v) ? v : []).flatMap((m) => {
    const o = obj(m);
    if (!o) return [];
    return [
      {
        kind: str(o.kind) ?? "",
        algorithm: str(o.algorithm) ?? "",
        publication_id: str(o.publication_id) ?? "",
        manifest_id: str(o.manifest_id),
        distance: num(o.distance) ?? 0,
        score: num(o.score) ?? 0,
      },
    ];
  });
}

const CODE = /^[A-Za-z0-9._:-]+$/;

/**
 * The C2PA codes a verdict's developer explanation names (src/verifications/verdict.ts writes it as `; `-separated
 * segments such as `failure codes: a, b`). Only well-formed code tokens are kept; nothing is inferred.
 */
export function codesFromExplanation(explanation: string) {
  const segments = explanation.replace(/\.$/, "").split("; ");
  const list = (label: string) => {
    const seg = segments.find((s) => s.startsWith(`${label}: `));
    return seg
      ? seg
          .slice(label.length + 2)
          .split(", ")
          .filter((c) => CODE.test(c))
      : [];
  };
  const state = /(?:^|; )c2pa-rs validation_state (Trusted|Valid|Invalid)\b/.exec(explanation)?.[1] ?? null;
  return {
    validation_state: validationState(state),
    success_codes: list("success codes"),
    informational_codes: list("informational codes"),
    failure_codes: list("failure codes"),
    ingredient_failure_codes: list("ingredient failure codes"),
  };
}

/** The report document of one stored verification row. Pure and deterministic. */
export function reportDocument(row: VerificationRow): ReportDocument {
  let evidence: Loose;
  try {
    evidence = obj(JSON.parse(row.evidence)) ?? {};
  } catch {
    evidence = {};
  }
  const subject: ReportDocument["subject"] = {
    type: row.subjectType,
    media_type: row.sourceMediaType,
    byte_length: row.sourceByteLength,
    validation_path: row.validationPath,
    asset_id: row.assetId,
    job_id: row.jobId,
    object_id: row.objectId,
    policy_version: row.policyVersion,
  };
  const base = {
    report_version: REPORT_VERSION as typeof REPORT_VERSION,
    verification_id: row.id,
    validated_at: new Date(row.validatedAt).toISOString(),
    overall: row.overall,
    subject,
  };
  const engine = str(evidence.engine);

  const result = obj(evidence.result);
  if (result) {
    const status = str(result.status) ?? row.status;
    const explanation = str(result.developer_explanation);
    const known = isStatus(status) ? STATUS_VOCABULARY[status] : null;
    return {
      ...base,
      kind: "verification",
      title: isStatus(status) ? STATUS_TITLES[status] : `Status ${status ?? "unknown"}`,
      status,
      status_vocabulary_version: str(result.status_vocabulary_version) ?? row.statusVocabularyVersion,
      status_summary: known?.summary ?? null,
      confidence: num(result.confidence),
      user_explanation: str(result.user_explanation) ?? known?.user_explanation ?? "",
      proves: strings(result.proves),
      does_not_prove: strings(result.does_not_prove),
      signer: signerOf(result.signer),
      claims: claimsOf(result.claims),
      signals: signalsOf(result.signals),
      matches: matchesOf(result.matches),
      warnings: strings(result.warnings),
      c2pa: {
        engine,
        manifest_id: str(result.manifest_id) ?? row.manifestId,
        ...codesFromExplanation(explanation ?? ""),
        asset_binding_checked: null,
      },
      watermark_read_back: null,
      developer_explanation: explanation,
    };
  }

  // A signing job's publication-time check of its own output.
  const check = obj(evidence.check);
  const state = validationState(check?.validation_state);
  const failures = strings(check?.failure_codes);
  const bindingChecked = check ? bool(check.asset_binding_checked) : null;
  const wm = obj(evidence.watermark_read_back);
  const watermark =
    wm && str(wm.algorithm) !== null && bool(wm.payload_matches) !== null
      ? { algorithm: str(wm.algorithm)!, payload_matches: bool(wm.payload_matches)! }
      : null;
  const text = !check
    ? PUBLICATION_CHECK_TEXT.no_manifest
    : state === "Trusted"
      ? PUBLICATION_CHECK_TEXT.trusted
      : state === "Valid"
        ? PUBLICATION_CHECK_TEXT.valid
        : PUBLICATION_CHECK_TEXT.invalid;
  const validated = check !== null && state !== "Invalid" && state !== null && failures.length === 0;
  const proves = [
    ...(validated ? text.proves : []),
    ...(validated && bindingChecked ? [BINDING_PROVEN] : []),
    ...(watermark?.payload_matches ? [WATERMARK_PROVEN] : []),
  ];
  return {
    ...base,
    kind: "publication_check",
    title: text.title,
    status: null,
    status_vocabulary_version: null,
    status_summary: null,
    confidence: null,
    user_explanation: text.user_explanation,
    proves,
    does_not_prove: [
      NOT_THIS_COPY,
      NOT_TRUTH,
      "Who took the photo or made the content, unless the manifest names them and that identity was verified.",
    ],
    signer: null,
    claims: null,
    signals: {},
    matches: [],
    warnings: [],
    c2pa: {
      engine,
      manifest_id: str(check?.active_manifest_label) ?? row.manifestId,
      validation_state: state,
      success_codes: strings(check?.success_codes),
      informational_codes: strings(check?.informational_codes),
      failure_codes: failures,
      ingredient_failure_codes: [],
      asset_binding_checked: bindingChecked,
    },
    watermark_read_back: watermark,
    developer_explanation: null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------------

export function renderReportJson(doc: ReportDocument): string {
  return canonicalJson(doc);
}

/** The escaping the report applies to evidence (hono/jsx escapes the same five characters with the same entities); tests use it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The minimal projection a share exposes: the outcome and its explanations, and who signed. No ids, no codes. */
export function sharedProjection(doc: ReportDocument) {
  return {
    status: doc.status,
    status_vocabulary_version: doc.status_vocabulary_version,
    overall: doc.overall,
    confidence: doc.confidence,
    user_explanation: doc.user_explanation,
    proves: doc.proves,
    does_not_prove: doc.does_not_prove,
    validated_at: doc.validated_at,
    signer_organization: doc.signer?.organization ?? null,
  };
}
