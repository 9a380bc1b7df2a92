import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import type { ManifestCheck } from "../../media/types";
import { notFound, principalOf } from "../../platform/context";
import { iso, json, NOT_FOUND } from "../../platform/openapi";
import { findVerification } from "../repo";
import { VerificationIdParams as Params, VerificationEvidenceResponseSchema } from "../schemas";

const evidenceRoute = createRoute({
  method: "get",
  path: "/v1/verification-evidence/{verification_id}",
  operationId: "getVerificationEvidence",
  tags: ["Verification"],
  summary: "Verification evidence",
  description:
    "The complete, privacy-safe evidence of a verification: what was checked and every code the engine reported. Readable at once for a completed job's own `verification_id`.",
  request: { params: Params },
  responses: { 200: json(VerificationEvidenceResponseSchema, "The evidence."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(evidenceRoute, async (c) => {
    const row = await findVerification(c.var.db, principalOf(c).tenantId, c.req.valid("param").verification_id);
    if (!row) throw notFound("verification");
    const stored = JSON.parse(row.evidence) as {
      check?: ManifestCheck | null;
      engine: string | null;
      result?: {
        status: string;
        status_vocabulary_version: string;
        confidence: number | null;
        signals: Record<string, boolean | string>;
        manifest_id: string | null;
        warnings: string[];
        developer_explanation: string;
      };
    };
    const r = stored.result;
    return c.json(
      {
        verification_id: row.id,
        subject_type: row.subjectType,
        overall: row.overall,
        validated_at: iso(row.validatedAt),
        asset_id: row.assetId,
        job_id: row.jobId,
        object: { object_id: row.objectId, media_type: row.sourceMediaType, byte_length: row.sourceByteLength },
        validation_path: row.validationPath,
        manifest: stored.check ?? null,
        verdict: r
          ? {
              status: r.status,
              status_vocabulary_version: r.status_vocabulary_version,
              confidence: r.confidence,
              signals: r.signals,
              manifest_id: r.manifest_id,
              warnings: r.warnings,
              developer_explanation: r.developer_explanation,
            }
          : null,
        engine: stored.engine ?? "svc",
        policy_version: row.policyVersion,
      },
      200,
    );
  });
}
