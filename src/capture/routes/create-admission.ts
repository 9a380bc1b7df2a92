import { createRoute, z } from "@hono/zod-openapi";
import { signingProfileOf } from "../../api-keys/controls";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { getJob } from "../../jobs/repo";
import { handOver } from "../../jobs/runner";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { admissionResult } from "../admission-records";
import { submitAdmission } from "../admissions";
import { AdmissionResultSchema, CreateAdmissionRequestSchema } from "../schemas";
import { captureTrustOf } from "../trust";

const route = createRoute({
  method: "post",
  path: "/v1/capture-admissions",
  operationId: "createCaptureAdmission",
  tags: ["Capture"],
  summary: "Submit a capture for admission",
  description:
    "Verifies the device's evidence for one captured upload and runs the admission gates in their fixed order (see `reason`). A **pass** creates the signing job (`job_id`, asynchronous, within the calling key's signing profile: `rcp_system_sign` where available, else `rcp_system_sign_only` or the format's sidecar recipe; none allowed or available → `capture_work_unavailable`; the manifest carries an `svc.capture` assertion naming the provider class, verifier, trust and policy versions and the attested media SHA-256) and consumes the challenge, in one transaction. A **reject** creates no job; it consumes the challenge when the challenge itself was right (the identity's own, unused, unexpired, secret matching). Both are terminal and stored: **201**. The same submission again (every member, the same secret and statement) answers **200** with the identical stored decision, whatever changed since; anything else reusing a consumed challenge is a new submission rejected with `request_mismatch`. 404: unknown `capture_identity_id` or `upload_object_id` (or another tenant's). 422 `svc.capture.upload_object_invalid` (the object is an output, not an upload), `svc.capture.sensor_evidence_invalid`. 503 `svc.capture.trust_unavailable`. `commercial_rejected`: the tenant is metered by the prepaid wallet and the capture's signing job does not fit it (balance minus reserved, monthly limit) or has no price; a pass reserves the job's quote in the same transaction. `governance_rejected` (rule `svc.governance-capture.v1`, named in `governance_policy_version`): a deletion of the account or of the upload's asset is queued or running, or an active legal hold is placed on that asset (an account-wide hold alone does not stop captures).",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader.optional() }),
    body: { content: { "application/json": { schema: CreateAdmissionRequestSchema } }, required: true },
  },
  responses: {
    201: json(AdmissionResultSchema, "The new decision."),
    200: json(AdmissionResultSchema, "The decision already stored for this exact submission."),
    ...NOT_FOUND,
    422: errorResponse("`svc.capture.upload_object_invalid` or `svc.capture.sensor_evidence_invalid` (or a field error)."),
    503: errorResponse("`svc.capture.trust_unavailable`. Retry later."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const trust = captureTrustOf(c.env);
    const outcome = await submitAdmission(
      {
        db: c.var.db,
        registry: registryFor(c.env),
        trust: trust.status === "ok" ? { trust: trust.trust, policy: trust.policy } : null,
        queueAvailable: c.env.JOBS_QUEUE !== undefined,
      },
      {
        tenantId: principal.tenantId,
        apiKeyId: actingIdOf(principal),
        outputRetentionDays: principal.outputRetentionDays,
        signingProfile: signingProfileOf(principal.signingProfile),
      },
      c.req.valid("json"),
    );
    switch (outcome.status) {
      case "created": {
        if (outcome.row.jobId) {
          // `accepted` until its queue message is sent; a failed send is retried by the cron sweep.
          const job = await getJob(c.var.db, principal.tenantId, outcome.row.jobId);
          if (job) await handOver(c.env, job);
        }
        return c.json(admissionResult(outcome.row), 201);
      }
      case "replayed":
        return c.json(admissionResult(outcome.row), 200);
      case "identity_not_found":
        throw notFound("capture identity");
      case "upload_not_found":
        throw notFound("upload object");
      case "not_an_upload":
        throw new ApiError("svc.capture.upload_object_invalid");
      case "sensor_evidence_invalid":
        throw new ApiError("svc.capture.sensor_evidence_invalid", outcome.message);
      case "trust_unavailable":
        throw new ApiError("svc.capture.trust_unavailable");
    }
  });
}
