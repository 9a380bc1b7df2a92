/**
 * The closed vocabulary of verification statuses (SPEC "Verification result": 16 codes, four of them named by
 * SPEC). Each code has a fixed confidence rule, fixed `proves` / `does_not_prove` lists and a plain-language
 * explanation; the table is published at /docs/verification-statuses with its version. Hard failures (overall
 * `invalid`) prove nothing: their `proves` is empty and their confidence null, as SPEC shows for a tampered manifest. Changing any text or
 * rule here is a new `STATUS_VOCABULARY_VERSION`.
 */

export const STATUS_VOCABULARY_VERSION = "svc.verification-status.v1";

export const STATUS_CODES = [
  "verified_manifest_and_watermark_match",
  "verified_manifest_and_fingerprint_match",
  "verified_manifest",
  "conflicting_provenance",
  "valid_manifest_untrusted_signer",
  "signer_revoked",
  "signer_certificate_expired",
  "manifest_tampered",
  "asset_tampered",
  "ingredient_invalid",
  "unsupported_manifest",
  "remote_manifest_unavailable",
  "watermark_only",
  "fingerprint_match_only",
  "durable_credential_unresolved",
  "no_provenance_found",
] as const;

export type StatusCode = (typeof STATUS_CODES)[number];

/** How the confidence of a code is computed; `null` codes are hard failures (confidence null). */
export type ConfidenceRule = "weighted_signals" | "recovered_match" | null;

export interface StatusDefinition {
  code: StatusCode;
  /** The verification record's `overall` for this code. */
  overall: "valid" | "invalid" | "indeterminate" | "recovered";
  confidence_rule: ConfidenceRule;
  /** Upper bound of confidence for the code (a weaker status never outranks a stronger one). */
  confidence_cap: number | null;
  summary: string;
  user_explanation: string;
  proves: string[];
  does_not_prove: string[];
}

const NOT_TRUTH = "That the content is true, or that the scene or event it shows happened as shown.";
const NOT_EDITS_BEFORE = "Anything about edits made before the credential was signed, beyond what the manifest itself records.";

export const STATUS_VOCABULARY: Record<StatusCode, StatusDefinition> = {
  verified_manifest_and_watermark_match: {
    code: "verified_manifest_and_watermark_match",
    overall: "valid",
    confidence_rule: "weighted_signals",
    confidence_cap: 1,
    summary: "Valid, trusted manifest; the invisible watermark points to the same publication.",
    user_explanation:
      "This file carries intact Content Credentials from a trusted signer, and its invisible watermark points to the same signed publication. The file is unchanged since it was signed.",
    proves: [
      "The file is byte-for-byte what the signer signed (the hard binding matches).",
      "The credentials were signed by a certificate that chains to a trusted anchor.",
      "The invisible watermark in the pixels points to this same publication, so the credential belongs to these pixels.",
    ],
    does_not_prove: [
      NOT_TRUTH,
      "Who took the photo or made the content, unless the manifest names them and that identity was verified.",
      NOT_EDITS_BEFORE,
    ],
  },
  verified_manifest_and_fingerprint_match: {
    code: "verified_manifest_and_fingerprint_match",
    overall: "valid",
    confidence_rule: "weighted_signals",
    confidence_cap: 0.97,
    summary: "Valid, trusted manifest; a fingerprint of the content matches the same publication.",
    user_explanation:
      "This file carries intact Content Credentials from a trusted signer, and its content matches the fingerprint recorded when it was published. The file is unchanged since it was signed.",
    proves: [
      "The file is byte-for-byte what the signer signed (the hard binding matches).",
      "The credentials were signed by a certificate that chains to a trusted anchor.",
      "The content matches the fingerprint recorded for this publication.",
    ],
    does_not_prove: [
      NOT_TRUTH,
      "Who took the photo or made the content, unless the manifest names them and that identity was verified.",
      NOT_EDITS_BEFORE,
    ],
  },
  verified_manifest: {
    code: "verified_manifest",
    overall: "valid",
    confidence_rule: "weighted_signals",
    confidence_cap: 0.95,
    summary: "Valid manifest from a trusted signer; the file is unchanged since signing.",
    user_explanation:
      "This file carries intact Content Credentials from a trusted signer. Nothing in the file has changed since it was signed.",
    proves: [
      "The file is byte-for-byte what the signer signed (the hard binding matches).",
      "The credentials were signed by a certificate that chains to a trusted anchor.",
    ],
    does_not_prove: [
      NOT_TRUTH,
      "Who took the photo or made the content, unless the manifest names them and that identity was verified.",
      NOT_EDITS_BEFORE,
    ],
  },
  conflicting_provenance: {
    code: "conflicting_provenance",
    overall: "indeterminate",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The manifest is valid, but the watermark decoded from the file names a different publication.",
    user_explanation:
      "This file has valid Content Credentials, but its invisible watermark belongs to a different signed publication. Someone may have re-signed content that was first published by someone else.",
    proves: ["The manifest in the file is intact and was signed.", "The content was previously published with different credentials."],
    does_not_prove: ["Which of the two publications is the original.", NOT_TRUTH],
  },
  valid_manifest_untrusted_signer: {
    code: "valid_manifest_untrusted_signer",
    overall: "indeterminate",
    confidence_rule: "weighted_signals",
    confidence_cap: 0.6,
    summary: "Intact manifest, but the signer's certificate does not chain to a trusted anchor.",
    user_explanation:
      "This file's Content Credentials are intact and the file has not changed since signing, but the signer is not on the trust list this service uses, so we cannot tell you who signed it.",
    proves: ["The file is byte-for-byte what the holder of the signing key signed."],
    does_not_prove: ["Who the signer is: their certificate is not issued by a trusted authority.", NOT_TRUTH],
  },
  signer_revoked: {
    code: "signer_revoked",
    overall: "invalid",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The signer's certificate was revoked by its issuer.",
    user_explanation:
      "The certificate used to sign this file has been revoked by the authority that issued it, so these Content Credentials should not be trusted.",
    proves: [],
    does_not_prove: ["That the file was tampered with.", "Who signed the file."],
  },
  signer_certificate_expired: {
    code: "signer_certificate_expired",
    overall: "invalid",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The signing certificate had expired and no trusted timestamp shows it was signed in time.",
    user_explanation:
      "The certificate used to sign this file had expired, and the file has no trusted timestamp proving it was signed while the certificate was still valid.",
    proves: [],
    does_not_prove: ["That the file was tampered with.", "Who signed the file."],
  },
  manifest_tampered: {
    code: "manifest_tampered",
    overall: "invalid",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The manifest's signature or its assertions do not match: the credentials were altered.",
    user_explanation: "The Content Credentials in this file were altered after they were signed. Nothing they say can be relied on.",
    proves: [],
    does_not_prove: ["Who changed it, or whether the content itself was changed."],
  },
  asset_tampered: {
    code: "asset_tampered",
    overall: "invalid",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The manifest is intact, but the file's content no longer matches its hard binding.",
    user_explanation: "This file was changed after it was signed: its content no longer matches the Content Credentials attached to it.",
    proves: [],
    does_not_prove: ["What was changed, or whether the change was malicious (a re-save can also cause this)."],
  },
  ingredient_invalid: {
    code: "ingredient_invalid",
    overall: "indeterminate",
    confidence_rule: "weighted_signals",
    confidence_cap: 0.5,
    summary: "The active manifest is valid, but an ingredient's provenance does not validate or is missing.",
    user_explanation:
      "This file's own Content Credentials are intact, but the history it claims for the material it was made from does not check out, so that part of its story cannot be confirmed.",
    proves: ["The latest signer signed this file as it is."],
    does_not_prove: ["The history of the ingredients the file was made from.", NOT_TRUTH],
  },
  unsupported_manifest: {
    code: "unsupported_manifest",
    overall: "indeterminate",
    confidence_rule: null,
    confidence_cap: null,
    summary: "A manifest is present but uses a version, structure or algorithm the validator does not support.",
    user_explanation: "This file has Content Credentials in a form this service cannot check, so we can neither confirm nor reject them.",
    proves: ["The file carries a C2PA manifest store."],
    does_not_prove: ["Anything the manifest says."],
  },
  remote_manifest_unavailable: {
    code: "remote_manifest_unavailable",
    overall: "indeterminate",
    confidence_rule: null,
    confidence_cap: null,
    summary: "The file points to a remote manifest that was not fetched.",
    user_explanation:
      "This file says its Content Credentials are stored online, but they were not retrieved, so they could not be checked.",
    proves: ["The file refers to Content Credentials stored elsewhere."],
    does_not_prove: ["Anything those credentials say."],
  },
  watermark_only: {
    code: "watermark_only",
    overall: "recovered",
    confidence_rule: "recovered_match",
    confidence_cap: 0.85,
    summary: "No manifest in the file, but its invisible watermark points to a publication signed here.",
    user_explanation:
      "This copy has no Content Credentials attached, but an invisible watermark in the content points to an original that was signed and published. The linked credentials describe that original.",
    proves: [
      "The file carries our watermark with a payload registered to the matched publication.",
      "The matched original was published with the credentials linked here.",
    ],
    does_not_prove: [
      "That this copy is unchanged: a watermark survives re-encoding, resizing and cropping, so the copy may differ from the original.",
      NOT_TRUTH,
    ],
  },
  fingerprint_match_only: {
    code: "fingerprint_match_only",
    overall: "recovered",
    confidence_rule: "recovered_match",
    confidence_cap: 0.75,
    summary: "No manifest and no watermark, but the content's fingerprint matches a publication signed here.",
    user_explanation:
      "This copy has no Content Credentials attached, but its content closely matches an original that was signed and published. The linked credentials describe that original.",
    proves: ["The content is perceptually identical or very close to the matched publication."],
    does_not_prove: [
      "That this copy came from that original: a close fingerprint match is strong evidence, not proof.",
      "That this copy is unchanged.",
      NOT_TRUTH,
    ],
  },
  durable_credential_unresolved: {
    code: "durable_credential_unresolved",
    overall: "indeterminate",
    confidence_rule: null,
    confidence_cap: null,
    summary: "A watermark with a valid payload was found, but it maps to no publication known here.",
    user_explanation:
      "This file carries an invisible watermark of the kind this service uses, but it does not point to any publication we know about, so its origin cannot be shown.",
    proves: ["The file carries a watermark with an intact payload."],
    does_not_prove: ["Who marked it or where the original is."],
  },
  no_provenance_found: {
    code: "no_provenance_found",
    overall: "indeterminate",
    confidence_rule: null,
    confidence_cap: null,
    summary: "No manifest, no watermark and no fingerprint match.",
    user_explanation:
      "We found no Content Credentials, watermark or matching publication for this file. That does not mean it is fake: most files carry no provenance at all.",
    proves: [],
    does_not_prove: ["That the file is fake or manipulated.", "That it is authentic."],
  },
};

/**
 * Signal weights of the `weighted_signals` rule (sum 1): confidence is the weighted share of the signals that
 * came out positive, counting a not-computed signal as 0, capped by the code's `confidence_cap`.
 */
export const SIGNAL_WEIGHTS = {
  c2pa_signature_valid: 0.35,
  signer_trusted: 0.2,
  timestamp_valid: 0.1,
  ocsp_good: 0.05,
  watermark_match: 0.15,
  fingerprint_match: 0.1,
  anchor_match: 0.05,
} as const;
