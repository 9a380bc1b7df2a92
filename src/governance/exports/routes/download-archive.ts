import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../app-types";
import { ApiError } from "../../../platform/errors";
import { idSchema } from "../../../platform/ids";
import { errorResponse } from "../../../platform/openapi";
import { servedObjectHeaders } from "../../../platform/served-object";
import { CapabilityQuery } from "../../../storage/schemas";
import { verifySignedUrl, workerServesObjects } from "../../../storage/signed-urls";
import { exportById } from "../repo";
import { archiveFilename } from "../service";

/*
 * The Worker-served location of an export's archive, behind the download URL when R2's S3 credentials are not
 * configured (development, tests). Like GET /storage/objects/{object_id}: the HMAC over method, R2 key and expiry is
 * the authority, checked in constant time; production never serves archives from the API origin.
 */

const route = createRoute({
  method: "get",
  path: "/storage/exports/{export_id}",
  operationId: "getExportArchive",
  tags: ["Storage"],
  summary: "Download an export's archive (presigned)",
  description: "The `download.url` of a completed export (development only). GET it before it expires; check it against `archive_sha256`.",
  request: {
    params: z.object({ export_id: idSchema("governanceExport", "Export id.").openapi({ param: { name: "export_id", in: "path" } }) }),
    query: CapabilityQuery,
  },
  responses: {
    200: {
      description: "The archive, as an attachment, with `X-Content-Type-Options: nosniff` and the sandbox CSP.",
      content: { "application/x-tar": { schema: z.string().openapi({ format: "binary", description: "The tar archive." }) } },
    },
    403: errorResponse("Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`)."),
    404: errorResponse("The archive is gone (`svc.resource.not_found`)."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { export_id } = c.req.valid("param");
    const { expires, signature } = c.req.valid("query");
    if (!workerServesObjects(c.env) || !c.env.SVC_CAPABILITY_SECRET) throw new ApiError("svc.storage.capability_invalid");
    // An unknown export answers like a bad signature: a capability never reveals what exists.
    const row = await exportById(c.var.db, export_id);
    if (!row) throw new ApiError("svc.storage.capability_invalid");
    const check = await verifySignedUrl(
      c.env.SVC_CAPABILITY_SECRET,
      { method: "GET", resource: row.r2Key, expiresAt: Number(expires), byteLength: null },
      signature,
    );
    if (check.status === "invalid") throw new ApiError("svc.storage.capability_invalid");
    if (check.status === "expired") throw new ApiError("svc.storage.capability_expired");
    const stored = row.state === "completed" ? await c.env.OBJECTS.get(row.r2Key) : null;
    if (!stored) throw new ApiError("svc.resource.not_found", "The archive is not available.");
    return c.body(stored.body, 200, {
      ...servedObjectHeaders({ mediaType: "application/x-tar", filename: archiveFilename(row.id), disposition: "attachment" }),
      "Content-Length": String(stored.size),
      "Cache-Control": "private, no-store",
    });
  });
}
