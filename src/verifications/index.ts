import { createRoute, z } from "@hono/zod-openapi";
import { verificationHistoryView } from "../assets/view";
import { releasedCheck } from "../history/snapshots";
import type { ManifestCheck } from "../media/types";
import { createRouter, notFound, principalOf } from "../platform/context";
import { idSchema } from "../platform/ids";
import { iso, json, NOT_FOUND } from "../platform/openapi";
import { NextCursorSchema, pageOf, pageQuerySchema, pageRequest } from "../platform/pagination";
import { findVerification, listVerifications } from "./repo";
import { registerReports } from "./reports";
import { VerificationEvidenceResponseSchema, VerificationHistoryResponseSchema } from "./schemas";
import { registerShares } from "./shares";
import { registerStoredVerifications } from "./stored";
import { registerVerify } from "./verify";

/*
 * Read side of verification records: a completed job's check of its own output (made with the reference engine
 * at publication), an authenticated POST /v1/verify, and a completed stored-object verification. All share one
 * `vfy_` namespace, so every id resolves here (evidence, history) and at GET /v1/verifications/{id} (stored.ts).
 */

const Params = z.object({
  verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }),
});

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

const historyRoute = createRoute({
  method: "get",
  path: "/v1/verification-history/{verification_id}",
  operationId: "getVerificationHistory",
  tags: ["History"],
  summary: "Verification history record",
  request: { params: Params },
  responses: { 200: json(VerificationHistoryResponseSchema, "The history summary."), ...NOT_FOUND },
});

const listRoute = createRoute({
  method: "get",
  path: "/v1/verifications",
  operationId: "listVerifications",
  tags: ["History"],
  summary: "List verifications",
  description: "Newest first, snapshot-consistent.",
  request: {
    query: z.object({
      overall: z
        .enum(["valid", "invalid", "indeterminate", "recovered"])
        .optional()
        .openapi({ description: "Only this outcome.", example: "valid" }),
      subject_type: z
        .enum(["uploaded_object", "stored_object", "public_url", "asset", "manifest", "receipt"])
        .optional()
        .openapi({ description: "Only this subject type.", example: "asset" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          items: z.array(VerificationHistoryResponseSchema).openapi({ description: "Newest first." }),
          next_cursor: NextCursorSchema,
        })
        .openapi("VerificationPage"),
      "One page.",
    ),
  },
});

export function verificationRoutes() {
  const app = createRouter();
  registerVerify(app);
  registerStoredVerifications(app);
  registerReports(app);
  registerShares(app);
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
  app.openapi(historyRoute, async (c) => {
    const row = await findVerification(c.var.db, principalOf(c).tenantId, c.req.valid("param").verification_id);
    if (!row) throw notFound("verification");
    return c.json(verificationHistoryView(row), 200);
  });
  app.openapi(listRoute, async (c) => {
    const { overall, subject_type, cursor, limit } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const binding = { tenantId, collection: `verifications?overall=${overall ?? ""}&subject_type=${subject_type ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const rows = await listVerifications(db, tenantId, { overall, subjectType: subject_type }, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(verificationHistoryView), next_cursor: nextCursor }, 200);
  });
  return app;
}
