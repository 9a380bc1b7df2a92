import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { notFound, principalOf, publicOrigin } from "../../../platform/context";
import { json, NOT_FOUND } from "../../../platform/openapi";
import { findExport } from "../repo";
import { ExportIdParams, GovernanceExportSchema } from "../schemas";
import { exportView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/governance/exports/{export_id}",
  operationId: "getGovernanceExport",
  tags: ["Governance"],
  summary: "Get an export",
  description:
    "One export. While `completed`, `download` holds a fresh presigned URL of the archive (valid 15 minutes; read the export again for another). Check the archive against `archive_sha256`, each member against `manifest.json`, and `manifest.json` against the signature (`signature.note`, verifiable with `signature.verifier_key`, the transparency log's checkpoint key).",
  request: { params: ExportIdParams },
  responses: { 200: json(GovernanceExportSchema, "The export."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const row = await findExport(c.var.db, principalOf(c).tenantId, c.req.valid("param").export_id);
    if (!row) throw notFound("export");
    return c.json(await exportView(c.env, publicOrigin(c), row), 200);
  });
}
