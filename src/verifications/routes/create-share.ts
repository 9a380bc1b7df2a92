import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { VerificationIdParams } from "../schemas";
import { CreateShareRequestSchema, IssuedShareSchema } from "../share-schemas";
import { closeVerificationShare, issueShare, SHARE_DEFAULT_SECONDS, shareView } from "../shares";

const createShareRoute = createRoute({
  method: "post",
  path: "/v1/verification-evidence/{verification_id}/shares",
  operationId: "createVerificationShare",
  tags: ["Verification"],
  summary: "Issue a share capability",
  description:
    "Issues an expiring, revocable token that lets anyone holding it read the minimal projection of this verification at `url`, without an API key. " +
    "The token is shown once and only its SHA-256 is stored, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable`: list the shares, or issue a new one.",
  request: {
    params: VerificationIdParams,
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateShareRequestSchema } }, required: false },
  },
  responses: { 201: json(IssuedShareSchema, "The share and its one-time token."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(createShareRoute, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const verificationId = c.req.valid("param").verification_id;
    const body = c.req.header("content-type")?.includes("json")
      ? c.req.valid("json")
      : { expires_in_seconds: SHARE_DEFAULT_SECONDS, label: null };
    const issued = await issueShare(c.var.db, tenantId, verificationId, {
      expiresInSeconds: body.expires_in_seconds,
      label: body.label ?? null,
    });
    if (issued.kind === "verification_not_found") throw notFound("verification");
    const { share, token } = issued;
    // Withheld if the issue cannot be audited: the share is closed then (nobody holds its token); the retry issues one.
    c.set("withdrawSecret", () => closeVerificationShare(c.var.db, tenantId, share.id).then(() => undefined));
    c.header("Cache-Control", "no-store");
    return c.json({ ...shareView(share, share.createdAt), token, url: `/v1/shared-verifications/${token}` }, 201);
  });
}
