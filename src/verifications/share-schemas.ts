import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
import { SHARE_DEFAULT_SECONDS, SHARE_MAX_SECONDS, SHARE_MIN_SECONDS, TOKEN_PATTERN } from "./shares";

/* Verification shares: share metadata, the one-time token, and the minimal projection a token reads. */

/** The `share_id` path parameter. */
export const ShareParams = z.object({
  share_id: idSchema("verificationShare", "Share id.").openapi({ param: { name: "share_id", in: "path" } }),
});

export const VerificationShareSchema = z
  .object({
    share_id: idSchema("verificationShare", "Share id."),
    verification_id: idSchema("verification", "The verification it shares."),
    label: z.string().nullable().openapi({
      description: "Your label for the share (who it was given to); never shown to its holder.",
      example: "Fact-check desk, Example Daily",
    }),
    state: z
      .enum(["active", "expired", "closed"])
      .openapi({ description: "`active` until `expires_at` or until closed; `closed` wins over `expired`.", example: "active" }),
    created_at: Timestamp("When the share was issued."),
    expires_at: Timestamp("When the token stops working."),
    closed_at: Timestamp("When the share was closed; null while it is not.").nullable(),
  })
  .openapi("VerificationShare", { description: "Share metadata. The token is never stored and never shown again after issue." });

export const IssuedShareSchema = VerificationShareSchema.extend({
  token: z.string().regex(TOKEN_PATTERN).openapi({
    description: "The capability: 32 random bytes, base64url. Shown once; only its SHA-256 is stored.",
    example: "q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
  }),
  url: z.string().openapi({
    description: "Path that serves the shared projection to anyone holding the token (no API key).",
    example: "/v1/shared-verifications/q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
  }),
}).openapi("IssuedVerificationShare", { description: "A new share and its one-time token." });

export const CreateShareRequestSchema = z
  .object({
    expires_in_seconds: z
      .number()
      .int()
      .min(SHARE_MIN_SECONDS)
      .max(SHARE_MAX_SECONDS)
      .default(SHARE_DEFAULT_SECONDS)
      .openapi({ description: `Lifetime of the token: ${SHARE_MIN_SECONDS} s to 30 days (default 7 days).`, example: 86400 }),
    label: z.string().trim().min(1).max(200).nullable().optional().openapi({
      description: "Your label for the share (at most 200 chars); never shown to its holder.",
      example: "Fact-check desk, Example Daily",
    }),
  })
  .openapi("CreateVerificationShareRequest");

export const SharePageSchema = z
  .object({
    items: z.array(VerificationShareSchema).openapi({ description: "Shares of the verification, newest first (every state)." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("VerificationSharePage");

export const SharedVerificationSchema = z
  .object({
    status: z.string().nullable().openapi({
      description: "Status code of the closed vocabulary (null for a signing job's publication-time check, which has none).",
      example: "verified_manifest",
    }),
    status_vocabulary_version: z.string().nullable().openapi({
      description: "Status vocabulary of `status` (table at /docs/verification-statuses).",
      example: "svc.verification-status.v1",
    }),
    overall: z.enum(["valid", "invalid", "indeterminate", "recovered"]).openapi({ description: "Overall outcome.", example: "valid" }),
    confidence: z
      .number()
      .nullable()
      .openapi({ description: "Confidence, 0 to 1 (null for hard failures and publication checks).", example: 0.95 }),
    user_explanation: z.string().openapi({
      description: "Plain-language summary.",
      example: "This file carries intact Content Credentials from a trusted signer. Nothing in the file has changed since it was signed.",
    }),
    proves: z.array(z.string()).openapi({
      description: "What the evidence supports.",
      example: ["The file is byte-for-byte what the signer signed (the hard binding matches)."],
    }),
    does_not_prove: z.array(z.string()).openapi({
      description: "What it does not.",
      example: ["That the content is true, or that the scene or event it shows happened as shown."],
    }),
    validated_at: Timestamp("When validation ran."),
    signer_organization: z
      .string()
      .nullable()
      .openapi({ description: "Organization (O) of the signing certificate, when the verification read one.", example: "Example News" }),
  })
  .openapi("SharedVerification", {
    description:
      "The minimal projection a share grants: the outcome and who signed. No tenant, asset, object or manifest ids, no codes, no evidence.",
  });
