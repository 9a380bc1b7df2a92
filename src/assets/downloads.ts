import type { z } from "@hono/zod-openapi";
import { formatOf } from "../catalog/formats";
import type { Database } from "../db/client";
import type { objects } from "../db/schema";
import type { Bindings } from "../env";
import { sha256Hex } from "../platform/crypto";
import { presign } from "../storage/signed-urls";
import { objectOf } from "./repo";
import type { DownloadResponseSchema } from "./schemas";

/** Download capabilities are short-lived: request a new one after expiry. */
export const DOWNLOAD_TTL_MS = 15 * 60 * 1000;

/**
 * A fresh download capability for a published asset's bytes (and its sidecar manifest), or null when the
 * published object is missing. Shared by POST /v1/assets/{id}/download and the express sign answer.
 */
export async function downloadOf(
  env: Bindings,
  origin: string,
  db: Database,
  tenantId: string,
  asset: { id: string; publishedObjectId: string | null; sidecarObjectId: string | null },
): Promise<z.infer<typeof DownloadResponseSchema> | null> {
  if (!asset.publishedObjectId) return null;
  const output = await objectOf(db, tenantId, asset.publishedObjectId);
  if (!output) return null;
  const sidecar = asset.sidecarObjectId ? await objectOf(db, tenantId, asset.sidecarObjectId) : null;
  return downloadFor(env, origin, asset, output, sidecar);
}

/** The object fields a download capability is minted from. */
type DownloadObject = Pick<typeof objects.$inferSelect, "id" | "r2Key" | "mediaType" | "byteLength" | "sha256" | "etag">;

/**
 * The download capability of objects already read (the express answer reads them with its job, in one batch).
 * `output` and `sidecar` must be the asset's published objects of the same tenant: the caller read them by the
 * ids the asset row holds.
 */
export async function downloadFor(
  env: Bindings,
  origin: string,
  asset: { id: string },
  output: DownloadObject,
  sidecar: DownloadObject | null,
): Promise<z.infer<typeof DownloadResponseSchema>> {
  const expiresAt = Date.now() + DOWNLOAD_TTL_MS;
  const filename = `${asset.id}.${formatOf(output.mediaType)!.extension}`;
  // Served as attachments under these names wherever the URL points (R2 presigned origin or, locally, the Worker).
  const [request, sidecarRequest, storageVersion] = await Promise.all([
    presign(env, origin, {
      method: "GET",
      key: output.r2Key,
      workerPath: `/storage/objects/${output.id}`,
      expiresAt,
      byteLength: null,
      headers: {},
      served: { mediaType: output.mediaType, filename, disposition: "attachment" },
    }),
    sidecar
      ? presign(env, origin, {
          method: "GET",
          key: sidecar.r2Key,
          workerPath: `/storage/objects/${sidecar.id}`,
          expiresAt,
          byteLength: null,
          headers: {},
          served: { mediaType: sidecar.mediaType, filename: `${filename}.c2pa`, disposition: "attachment" },
        })
      : null,
    sha256Hex(`${output.id}:${output.etag}`),
  ]);
  return {
    url: request.url,
    method: "GET" as const,
    headers: request.headers,
    expires_at: request.expires_at,
    byte_length: output.byteLength,
    sha256: output.sha256,
    filename,
    media_type: output.mediaType,
    storage_version_sha256: storageVersion,
    sidecar_manifest:
      sidecar && sidecarRequest
        ? {
            url: sidecarRequest.url,
            headers: sidecarRequest.headers,
            sha256: sidecar.sha256,
            byte_length: sidecar.byteLength,
            filename: `${filename}.c2pa`,
          }
        : null,
  };
}
