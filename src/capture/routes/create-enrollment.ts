import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { CreateEnrollmentRequestSchema, EnrollmentResponseSchema } from "../schemas";
import { createEnrollment, withdrawChallenge } from "../service";
import { captureTrustOf } from "../trust";

const route = createRoute({
  method: "post",
  path: "/v1/capture-identity-enrollments",
  operationId: "createCaptureIdentityEnrollment",
  tags: ["Capture"],
  summary: "Start a capture identity enrolment",
  description:
    "Issues a single-use enrolment challenge for one app installation and one attestation kind. `challenge_secret` is returned only here, once (only its SHA-256 is stored; a retried Idempotency-Key answers 409 `secret_not_replayable`). The app binds its attestation to the secret's 32 decoded bytes and completes the enrolment with POST /v1/capture-identities within 10 minutes (`expires_at`). Without a configured capture trust snapshot: 503 `svc.capture.trust_unavailable`.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateEnrollmentRequestSchema } }, required: true },
  },
  responses: {
    201: json(EnrollmentResponseSchema, "The enrolment challenge."),
    503: errorResponse("`svc.capture.trust_unavailable`: no capture trust snapshot is configured. Retry later."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    if (captureTrustOf(c.env).status !== "ok") throw new ApiError("svc.capture.trust_unavailable");
    const principal = principalOf(c);
    const { tenantId } = principal;
    // The column names a key; a console session's acts are attributed to its user (usr_…).
    const apiKeyId = actingIdOf(principal);
    const { row, secret } = await createEnrollment(c.var.db, { tenantId, apiKeyId, ...c.req.valid("json") });
    // Withheld if the issue cannot be audited: the challenge then expires at once; the retry issues a new one.
    c.set("withdrawSecret", () => withdrawChallenge(c.var.db, "enrollment", tenantId, row.id));
    return c.json(
      {
        capture_identity_enrollment_id: row.id,
        attestation_kind: row.attestationKind,
        challenge_secret: secret,
        expires_at: new Date(row.expiresAt).toISOString(),
      },
      201,
    );
  });
}
