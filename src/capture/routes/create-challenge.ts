import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { ChallengeResponseSchema, CreateChallengeRequestSchema } from "../schemas";
import { createChallenge, withdrawChallenge } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/capture-admission-challenges",
  operationId: "createCaptureAdmissionChallenge",
  tags: ["Capture"],
  summary: "Issue a capture admission challenge",
  description:
    "Issues a single-use challenge for one active capture identity: the app binds the evidence of its next admission to the secret's 32 decoded bytes. `challenge_secret` is returned only here, once (only its SHA-256 is stored; a retried Idempotency-Key answers 409 `secret_not_replayable`); it expires after 10 minutes. Idempotency-Key is required. A revoked identity answers 409 `svc.capture.identity_revoked`; an unknown one (or another tenant's) 404.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateChallengeRequestSchema } }, required: true },
  },
  responses: {
    201: json(ChallengeResponseSchema, "The challenge."),
    ...NOT_FOUND,
    409: errorResponse("`svc.capture.identity_revoked`: the identity is revoked."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    // The column names a key; a console session's acts are attributed to its user (usr_…).
    const apiKeyId = actingIdOf(principal);
    const result = await createChallenge(c.var.db, { tenantId, apiKeyId, ...c.req.valid("json") });
    if (result.status === "not_found") throw notFound("capture identity");
    if (result.status === "revoked") throw new ApiError("svc.capture.identity_revoked");
    // Withheld if the issue cannot be audited: the challenge then expires at once; the retry issues a new one.
    const challengeId = result.row.id;
    c.set("withdrawSecret", () => withdrawChallenge(c.var.db, "admission", tenantId, challengeId));
    return c.json(
      {
        capture_identity_id: result.row.captureIdentityId,
        challenge_id: result.row.id,
        challenge_secret: result.secret,
        expires_at: new Date(result.row.expiresAt).toISOString(),
      },
      201,
    );
  });
}
