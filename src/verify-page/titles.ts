import type { StatusCode } from "../verifications/vocabulary";

/**
 * How the public verify page (GET /verify) names each status of the closed vocabulary: a short, friendly
 * title and a tone that picks the colour and icon. The explanation shown under the title is the result's own
 * `user_explanation` (the vocabulary's text), so only the headline lives here. Typed against StatusCode: a new
 * code does not compile until it has a title.
 */
export type Tone = "good" | "warn" | "bad" | "info" | "neutral";

export const STATUS_TITLES: Record<StatusCode, { title: string; tone: Tone }> = {
  verified_manifest_and_watermark_match: { title: "Verified: credentials and watermark agree", tone: "good" },
  verified_manifest_and_fingerprint_match: { title: "Verified: credentials and fingerprint agree", tone: "good" },
  verified_manifest: { title: "Verified Content Credentials", tone: "good" },
  conflicting_provenance: { title: "Conflicting provenance", tone: "warn" },
  valid_manifest_untrusted_signer: { title: "Intact, but the signer is not trusted", tone: "warn" },
  signer_revoked: { title: "The signer's certificate was revoked", tone: "bad" },
  signer_certificate_expired: { title: "The signer's certificate had expired", tone: "bad" },
  manifest_tampered: { title: "The credentials were tampered with", tone: "bad" },
  asset_tampered: { title: "Changed after signing", tone: "bad" },
  ingredient_invalid: { title: "Signed, but its history does not check out", tone: "warn" },
  unsupported_manifest: { title: "Credentials in a form we cannot check", tone: "neutral" },
  remote_manifest_unavailable: { title: "Online credentials not retrieved", tone: "neutral" },
  watermark_only: { title: "Original found through its invisible watermark", tone: "info" },
  fingerprint_match_only: { title: "Original found through a content match", tone: "info" },
  durable_credential_unresolved: { title: "Watermark found, origin unknown", tone: "neutral" },
  no_provenance_found: { title: "No provenance found", tone: "neutral" },
};
