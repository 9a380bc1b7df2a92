import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse } from "../../platform/openapi";
import { servedObjectHeaders } from "../../platform/served-object";
import { MANIFEST_ID_EXAMPLE } from "../schemas";
import { manifestStore } from "../service";
import { RESOLUTION_PREFIX, TAG } from "./shared";

/**
 * C2PA unique identifiers (C2PA 2.x "Unique identifiers"): `urn:c2pa:<UUID>` with an optional claim generator
 * identifier and version/reason, or the 1.x `urn:uuid:<UUID>`. The length bound keeps lookups cheap.
 */
const MANIFEST_ID = /^urn:(c2pa|uuid):[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(:[!-~]*)?$/;

const route = createRoute({
  method: "get",
  path: `${RESOLUTION_PREFIX}/manifests/{manifestId}`,
  operationId: "getManifestById",
  tags: [TAG],
  summary: "Returns a full C2PA Manifest Store or an active C2PA Manifest.",
  description:
    "The C2PA Manifest Store (`application/c2pa`, the JUMBF bytes the asset was published with: embedded in it, or its `.c2pa` sidecar) of the published asset whose active manifest is `manifestId` (C2PA `getManifestById`); with `returnActiveManifest=true`, a store holding only that active manifest. " +
    "Public: a published asset's provenance is public. A publication past its retention is no longer served (404). The bytes never change: `ETag` is their SHA-256.",
  request: {
    params: z.object({
      manifestId: z
        .string()
        .max(256)
        .regex(MANIFEST_ID)
        .openapi({
          param: { name: "manifestId", in: "path" },
          description: "Identifier of the C2PA Manifest to return (its label, URL-encoded), as a match's `manifestId`.",
          example: MANIFEST_ID_EXAMPLE,
        }),
    }),
    query: z.object({
      returnActiveManifest: z
        .enum(["true", "false"])
        .default("false")
        .openapi({
          // Documented as the C2PA boolean; the query string carries `true` or `false`.
          type: "boolean",
          default: false as never,
          description: "Specifies if only the active manifest should be returned. By default the entire C2PA Manifest Store is returned.",
          example: false as never,
        }),
    }),
  },
  responses: {
    200: {
      description: "Successful operation: the manifest store.",
      headers: {
        ETag: { description: "SHA-256 (hex) of the returned bytes, quoted.", schema: { type: "string" } },
        "Content-Disposition": { description: '`attachment; filename="manifest.c2pa"`.', schema: { type: "string" } },
      },
      content: {
        "application/c2pa": {
          schema: z.string().openapi({ type: "string", format: "binary", description: "A C2PA Manifest Store (JUMBF)." }),
        },
      },
    },
    400: errorResponse("Invalid C2PA Manifest Id supplied (`svc.resolution.invalid_request`)."),
    404: errorResponse("C2PA Manifest Id not found among published assets (`svc.resource.not_found`)."),
  },
});

export function registerGetManifest(app: Router) {
  app.openapi(route, async (c) => {
    const { manifestId } = c.req.valid("param");
    const activeOnly = c.req.valid("query").returnActiveManifest === "true";
    const found = await manifestStore(c.env, manifestId, { activeOnly });
    if (found.status === "not_found") throw new ApiError("svc.resource.not_found", "No published asset has a C2PA manifest with this id.");
    // Public bytes a signer wrote: an attachment with nosniff and the sandbox CSP, like every served object.
    return c.body(found.store as Uint8Array<ArrayBuffer>, 200, {
      ...servedObjectHeaders({ mediaType: "application/c2pa", filename: "manifest.c2pa", disposition: "attachment" }),
      "content-length": String(found.store.length),
      etag: `"${found.sha256}"`,
      "cache-control": "public, max-age=300",
    });
  });
}
