import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { CreateIdentityRequestSchema, IdentityCreatedResponseSchema } from "../schemas";
import { completeEnrollment } from "../service";
import { captureTrustOf } from "../trust";

const route = createRoute({
  method: "post",
  path: "/v1/capture-identities",
  operationId: "createCaptureIdentity",
  tags: ["Capture"],
  summary: "Complete a capture identity enrolment",
  description:
    "Verifies the device's attestation `statement` against the enrolment's challenge (expected challenge = the 32 bytes `challenge_secret` encodes) under the configured trust snapshot, and on success stores the identity with its attested facts as version 1 (**201**). Completing the same enrolment again with the same secret and the same statement answers **200** with the same result, even after expiry. Refusals create nothing: 404 unknown enrolment (or another tenant's); 422 `svc.capture.challenge_secret_mismatch` (checked first, in constant time), `svc.capture.attestation_kind_mismatch`, `svc.capture.evidence_invalid` (does not verify: format, signature, chain, binding, revoked chain), `svc.capture.app_untrusted` (verifies but names an app, signing certificate or environment the deployment does not trust); 409 `svc.capture.enrollment_expired`, `svc.capture.enrollment_completed` (completed with a different statement), `svc.capture.identity_conflict` (the attested key or the installation already belongs to an active identity of this tenant); 503 `svc.capture.trust_unavailable` or `svc.capture.evidence_unavailable` (nothing configured to check this kind). A failed attempt leaves the enrolment open until it expires.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateIdentityRequestSchema } }, required: true },
  },
  responses: {
    201: json(IdentityCreatedResponseSchema, "The new identity."),
    200: json(IdentityCreatedResponseSchema, "The identity this enrolment already created with this statement."),
    ...NOT_FOUND,
    409: errorResponse("`svc.capture.enrollment_expired`, `svc.capture.enrollment_completed` or `svc.capture.identity_conflict`."),
    503: errorResponse("`svc.capture.trust_unavailable` or `svc.capture.evidence_unavailable`. Retry later."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const trust = captureTrustOf(c.env);
    if (trust.status !== "ok") throw new ApiError("svc.capture.trust_unavailable");
    const result = await completeEnrollment(c.var.db, trust.trust, { tenantId: principalOf(c).tenantId, ...c.req.valid("json") });
    switch (result.status) {
      case "created":
        return c.json(result.identity, 201);
      case "replayed":
        return c.json(result.identity, 200);
      case "not_found":
        throw notFound("capture identity enrolment");
      case "secret_mismatch":
        throw new ApiError("svc.capture.challenge_secret_mismatch");
      case "kind_mismatch":
        throw new ApiError("svc.capture.attestation_kind_mismatch");
      case "expired":
        throw new ApiError("svc.capture.enrollment_expired");
      case "completed_otherwise":
        throw new ApiError("svc.capture.enrollment_completed");
      case "evidence_unavailable":
        throw new ApiError("svc.capture.evidence_unavailable", `Attestation cannot be checked: ${result.detail}.`);
      case "evidence_invalid":
        throw new ApiError("svc.capture.evidence_invalid", `The attestation does not verify: ${result.detail}.`);
      case "app_untrusted":
        throw new ApiError("svc.capture.app_untrusted");
      case "conflict":
        throw new ApiError("svc.capture.identity_conflict");
    }
  });
}
