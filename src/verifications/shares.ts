import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { releasedCheck } from "../history/repo";
import { base64url, utf8 } from "../platform/bytes";
import { notFound, principalOf } from "../platform/context";
import { sha256Hex, timingSafeEqual } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { idSchema, newId } from "../platform/ids";
import { errorResponse, IdempotencyKeyHeader, iso, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { NextCursorSchema, pageOf, pageQuerySchema, pageRequest } from "../platform/pagination";
import { closeShare, findVerification, insertShare, listShares, type ShareRow, shareByTokenHash } from "./repo";
import { reportDocument, sharedProjection } from "./report-render";

/*
 * Share capabilities of a verification. Issuing one returns a random token once (32 bytes from the CSPRNG,
 * base64url); only its SHA-256 is stored, so neither the database nor an idempotent replay can give it back.
 * Whoever holds the token reads a minimal projection of the outcome (no ids, no codes, no evidence) until the
 * share expires or is closed. Every unusable token (malformed, unknown, expired, closed, its verification or
 * tenant gone) answers one identical 404.
 */

export const SHARE_DEFAULT_SECONDS = 7 * 24 * 3600;
export const SHARE_MIN_SECONDS = 60;
export const SHARE_MAX_SECONDS = 30 * 24 * 3600;
/** 32 random bytes in unpadded base64url. */
/** 32 bytes in canonical base64url: 43 chars, the last one's 2 unused bits zero (no other spelling of the bytes). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

const VerificationParams = z.object({
  verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }),
});
const ShareParams = z.object({ share_id: idSchema("verificationShare", "Share id.").openapi({ param: { name: "share_id", in: "path" } }) });

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

const IssuedShareSchema = VerificationShareSchema.extend({
  token: z.string().regex(TOKEN_PATTERN).openapi({
    description: "The capability: 32 random bytes, base64url. Shown once; only its SHA-256 is stored.",
    example: "q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
  }),
  url: z.string().openapi({
    description: "Path that serves the shared projection to anyone holding the token (no API key).",
    example: "/v1/shared-verifications/q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
  }),
}).openapi("IssuedVerificationShare", { description: "A new share and its one-time token." });

const CreateShareRequestSchema = z
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

const SharePageSchema = z
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

const listRouteDef = createRoute({
  method: "get",
  path: "/v1/verification-evidence/{verification_id}/shares",
  operationId: "listVerificationShares",
  tags: ["Verification"],
  summary: "List share metadata",
  description: "Every share of the verification, newest first, snapshot-consistent; tokens are never shown again.",
  request: { params: VerificationParams, query: z.object({ ...pageQuerySchema(100, 25) }) },
  responses: { 200: json(SharePageSchema, "One page."), ...NOT_FOUND },
});

const createRouteDef = createRoute({
  method: "post",
  path: "/v1/verification-evidence/{verification_id}/shares",
  operationId: "createVerificationShare",
  tags: ["Verification"],
  summary: "Issue a share capability",
  description:
    "Issues an expiring, revocable token that lets anyone holding it read the minimal projection of this verification at `url`, without an API key. " +
    "The token is shown once and only its SHA-256 is stored, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable`: list the shares, or issue a new one.",
  request: {
    params: VerificationParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateShareRequestSchema } }, required: false },
  },
  responses: { 201: json(IssuedShareSchema, "The share and its one-time token."), ...NOT_FOUND },
});

const closeRouteDef = createRoute({
  method: "post",
  path: "/v1/verification-shares/{share_id}/close",
  operationId: "closeVerificationShare",
  tags: ["Verification"],
  summary: "Close a share",
  description:
    "Revokes the share at once: its token answers 404 from now on. Closing a closed share changes nothing and answers the same `closed_at`.",
  request: { params: ShareParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: { 200: json(VerificationShareSchema, "The closed share."), ...NOT_FOUND },
});

const NOT_SHARED = "No verification is shared under this token.";

const sharedRouteDef = createRoute({
  method: "get",
  path: "/v1/shared-verifications/{token}",
  operationId: "getSharedVerification",
  tags: ["Verification"],
  summary: "Read a shared verification",
  description:
    "Anonymous: the token is the credential. Answers the minimal projection while the share is unexpired and not closed. " +
    "A malformed, unknown, expired or closed token answers one identical 404. Responses carry `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.",
  request: {
    params: z.object({
      token: z.string().openapi({
        param: { name: "token", in: "path" },
        description: "The share token (43 base64url chars).",
        example: "q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
      }),
    }),
  },
  responses: {
    200: json(SharedVerificationSchema, "The shared outcome."),
    404: errorResponse(`Every unusable token: \`svc.resource.not_found\`, "${NOT_SHARED}"`),
  },
});

export function shareView(row: ShareRow, now = Date.now()) {
  return {
    share_id: row.id,
    verification_id: row.verificationId,
    label: row.label,
    state: row.closedAt !== null ? ("closed" as const) : row.expiresAt <= now ? ("expired" as const) : ("active" as const),
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    closed_at: iso(row.closedAt),
  };
}

/** What is stored for a token: SHA-256 (hex) of its ASCII. 256 random bits need no pepper to resist guessing. */
export function shareTokenHash(token: string): Promise<string> {
  return sha256Hex(token);
}

const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" };

export function registerShares(app: Router) {
  app.openapi(listRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const verificationId = c.req.valid("param").verification_id;
    const { cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    if (!(await findVerification(db, tenantId, verificationId))) throw notFound("verification");
    const binding = { tenantId, collection: `verification_shares?verification_id=${verificationId}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const rows = await listShares(db, tenantId, verificationId, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    const now = Date.now();
    return c.json({ items: items.map((r) => shareView(r, now)), next_cursor: nextCursor }, 200);
  });

  app.openapi(createRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const verificationId = c.req.valid("param").verification_id;
    const body = c.req.header("content-type")?.includes("json")
      ? c.req.valid("json")
      : { expires_in_seconds: SHARE_DEFAULT_SECONDS, label: null };
    const db = c.var.db;
    if (!(await findVerification(db, tenantId, verificationId))) throw notFound("verification");
    const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const now = Date.now();
    const row = await insertShare(db, {
      id: newId("verificationShare"),
      tenantId,
      verificationId,
      tokenHash: await shareTokenHash(token),
      label: body.label ?? null,
      expiresAt: now + body.expires_in_seconds * 1000,
      closedAt: null,
      createdAt: now,
    });
    c.header("Cache-Control", "no-store");
    return c.json({ ...shareView(row, now), token, url: `/v1/shared-verifications/${token}` }, 201);
  });

  app.openapi(closeRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const shareId = c.req.valid("param").share_id;
    // Only the first close sets closed_at; later ones (and concurrent ones) leave it as it is.
    const row = await closeShare(c.var.db, tenantId, shareId, Date.now());
    if (!row) throw notFound("share");
    return c.json(shareView(row), 200);
  });

  app.openapi(sharedRouteDef, async (c) => {
    const presented = c.req.valid("param").token;
    const wellFormed = TOKEN_PATTERN.test(presented);
    // Hash and look up even a malformed token, so the time taken does not tell malformed from unknown.
    const hash = await shareTokenHash(wellFormed ? presented : "malformed");
    const db = c.var.db;
    const found = await shareByTokenHash(db, hash);
    const gone = () => new ApiError("svc.resource.not_found", NOT_SHARED, { headers: PRIVATE_HEADERS });
    const share = found?.share;
    if (!wellFormed || !share || !timingSafeEqual(utf8(share.tokenHash), utf8(hash))) throw gone();
    if (share.closedAt !== null || share.expiresAt <= Date.now() || found.tenantStatus !== "active") throw gone();
    const verification = await findVerification(db, share.tenantId, share.verificationId);
    if (!verification) throw gone();
    for (const [k, v] of Object.entries(PRIVATE_HEADERS)) c.header(k, v);
    return c.json(sharedProjection(reportDocument(verification)), 200);
  });
}
