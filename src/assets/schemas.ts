import { z } from "@hono/zod-openapi";
import { MediaTypeSchema } from "../capabilities/schemas";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
import { AssetIdSchema, ObjectIdSchema, Sha256Schema } from "../uploads/schemas";

export const ASSET_STATUSES = [
  "awaiting_upload",
  "uploaded",
  "processing",
  "published",
  "failed",
  "upload_aborted",
  "upload_expired",
  "upload_failed",
  "retention_expired",
] as const;

export const PublicationResponseSchema = z
  .object({
    publication_id: z
      .string()
      .regex(/^pub_[a-z2-7]{16}$/)
      .openapi({ description: "Publication id.", example: "pub_abcdefghij234567" }),
    published_at: Timestamp("When the output was published."),
    job_id: idSchema("job", "The job that published it."),
    recipe_id: z.string().openapi({ description: "Recipe applied.", example: "rcp_system_sign_only" }),
    object_id: ObjectIdSchema,
    manifest_delivery: z
      .enum(["embedded", "sidecar"])
      .openapi({ description: "Whether the manifest is inside the file or a .c2pa beside it.", example: "embedded" }),
    active_manifest_label: z
      .string()
      .nullable()
      .openapi({ description: "Label of the active C2PA manifest.", example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6" }),
  })
  .openapi("PublicationResponse");

export const AssetResponseSchema = z
  .object({
    asset_id: AssetIdSchema,
    created_at: Timestamp("When the asset was created (its upload began)."),
    kind: z.string().openapi({ description: "Media family: image, audio, video, document, font, model or text.", example: "image" }),
    media_type: z
      .string()
      .nullable()
      .openapi({ description: "Media type (sniffed from the bytes once the upload completed).", example: "image/jpeg" }),
    publication: PublicationResponseSchema.nullable().openapi({ description: "The publication, once a job published the asset." }),
    status: z.enum(ASSET_STATUSES).openapi({ description: "Asset status.", example: "published" }),
  })
  .openapi("AssetResponse");

export const AssetParams = z.object({ asset_id: AssetIdSchema.openapi({ param: { name: "asset_id", in: "path" } }) });

const Headers = z
  .record(z.string(), z.string())
  .openapi({ description: "Send exactly these headers with the GET (never the API key).", example: {} });

export const SidecarManifestResponseSchema = z
  .object({
    url: z.string().url().openapi({ description: "Where to GET the .c2pa manifest store." }),
    headers: Headers,
    sha256: Sha256Schema,
    byte_length: z.number().int().openapi({ description: "Exact size.", example: 14230 }),
    filename: z.string().openapi({ description: "The asset's download filename plus `.c2pa`.", example: "ast_abcdefghij234567.pdf.c2pa" }),
  })
  .openapi("SidecarManifestResponse");

export const DownloadResponseSchema = z
  .object({
    url: z.string().url().openapi({ description: "Where to GET the published bytes, before `expires_at`." }),
    method: z.literal("GET").openapi({ description: "HTTP method." }),
    headers: Headers,
    expires_at: Timestamp("When the URL stops working; request a new one after."),
    byte_length: z.number().int().openapi({ description: "Exact published size.", example: 52310 }),
    sha256: Sha256Schema,
    filename: z.string().openapi({ description: "Asset id plus the container's own extension.", example: "ast_abcdefghij234567.jpg" }),
    media_type: MediaTypeSchema,
    storage_version_sha256: Sha256Schema.openapi({
      description:
        "Identifies the stored version served (SHA-256 of object id and storage etag); changes only if the stored object were replaced.",
    }),
    sidecar_manifest: SidecarManifestResponseSchema.nullable().openapi({ description: "Present only for sidecar formats." }),
  })
  .openapi("DownloadResponse");

export const WorkspaceGovernanceSchema = z
  .object({
    legal_hold: z.boolean().openapi({
      description:
        "An account-wide legal hold is active (GET /v1/governance/legal-holds): nothing of the tenant can be deleted and retention expiry is suspended. It does not withhold delivery.",
      example: false,
    }),
    deletion_pending: z.boolean().openapi({
      description: "An account deletion is queued or running: assets disappear as it proceeds and new captures are refused.",
      example: false,
    }),
    delivery_allowed: z.boolean().openapi({
      description:
        "Whether downloads are currently allowed tenant-wide (no governance rule withholds them: a hold preserves, a deletion removes).",
      example: true,
    }),
  })
  .openapi("WorkspaceGovernance");

export const AssetPageSchema = z
  .object({
    items: z.array(AssetResponseSchema).openapi({ description: "Assets, newest first." }),
    next_cursor: NextCursorSchema,
    total_count: z.number().int().min(0).openapi({ description: "Assets matching the filters in this snapshot.", example: 3 }),
    workspace_governance: WorkspaceGovernanceSchema,
  })
  .openapi("AssetPage");
