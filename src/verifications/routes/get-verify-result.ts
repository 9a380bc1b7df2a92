import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { latestVerificationOfManifest } from "../repo";
import { VerificationResultSchema } from "../schemas";
import type { StoredResult } from "../verify-subject";

const getRoute = createRoute({
  method: "get",
  path: "/v1/verify/{manifest_id}",
  operationId: "getVerifyResult",
  tags: ["Verification"],
  summary: "The stored result for a manifest",
  description:
    "The most recent result your verifications computed for this manifest (its active manifest label, e.g. `urn:c2pa:...`). A manifest never changes, so the result is cached for its lifetime: until the signing certificate expires (Cache-Control says how long).",
  request: {
    params: z.object({
      manifest_id: z
        .string()
        .min(1)
        .max(200)
        .openapi({
          param: { name: "manifest_id", in: "path" },
          description: "Active manifest label.",
          example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6",
        }),
    }),
  },
  responses: { 200: json(VerificationResultSchema, "The stored result."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(getRoute, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const row = await latestVerificationOfManifest(c.var.db, tenantId, c.req.valid("param").manifest_id);
    if (!row) throw notFound("verification");
    const stored = (JSON.parse(row.evidence) as { result?: StoredResult }).result;
    if (!stored) throw notFound("verification");
    const notAfter = stored.signer?.not_after ? Date.parse(stored.signer.not_after) : NaN;
    const seconds = Number.isFinite(notAfter) ? Math.max(0, Math.floor((notAfter - Date.now()) / 1000)) : 0;
    c.header("Cache-Control", `private, max-age=${seconds}`);
    // Results stored before related publications were reported carry none.
    return c.json({ ...stored, related_publications: stored.related_publications ?? [], verification_id: row.id }, 200);
  });
}
