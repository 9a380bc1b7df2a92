import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";

export const UploadIdSchema = idSchema("upload", "Upload id.");
export const AssetIdSchema = idSchema("asset", "Asset id (the tenant-visible id; never an `aob_` object id).");
export const ObjectIdSchema = idSchema("object", "Immutable stored object id.");
export const Sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .openapi({ description: "Lowercase hex SHA-256.", example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" });

export const UploadStatusSchema = z.enum(["initiated", "completed", "aborted", "expired", "failed"]).openapi({
  description:
    "Upload status. `failed`: a multipart upload whose assembled bytes did not match what was declared (its parts are spent); create a new upload.",
  example: "initiated",
});

const HeadersSchema = z
  .record(z.string(), z.string())
  .openapi({ description: "Send exactly these headers (and never the API key).", example: { "Content-Type": "image/jpeg" } });

export const PresignedRequestResponseSchema = z
  .object({
    method: z.literal("PUT").openapi({ description: "HTTP method." }),
    url: z.string().url().openapi({
      description: "Where to send the bytes.",
      example: "http://127.0.0.1:8787/storage/uploads/upl_abcdefghij234567?expires=1763800000000&signature=...",
    }),
    headers: HeadersSchema,
  })
  .openapi("PresignedRequestResponse");

export const PresignedPartResponseSchema = z
  .object({
    part_number: z.number().int().min(1).openapi({ description: "Part number, from 1.", example: 1 }),
    byte_length: z.number().int().min(1).openapi({ description: "Exact size of this part.", example: 5242880 }),
    method: z.literal("PUT").openapi({ description: "HTTP method." }),
    url: z.string().url().openapi({ description: "Where to send this part. Its response carries the part's ETag header." }),
    headers: HeadersSchema,
  })
  .openapi("PresignedPartResponse");

export const MultipartPartRequestSchema = z
  .object({
    part_number: z.number().int().min(1).max(10000).openapi({ description: "Part number, 1..n in order.", example: 1 }),
    byte_length: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "Exact part size; every part but the last at least 5 MiB.", example: 5242880 }),
  })
  .openapi("MultipartPartRequest");

export const CreateUploadRequestSchema = z
  .object({
    byte_length: z.number().int().min(1).openapi({ description: "Exact size of the bytes.", example: 48213 }),
    declared_media_type: z
      .string()
      .max(127)
      .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/)
      .openapi({
        description: "Media type of the bytes (`type/subtype`); must be enabled in GET /v1/capabilities.",
        example: "image/jpeg",
      }),
    mode: z
      .enum(["single", "multipart"])
      .openapi({ description: "`single`: one PUT; `multipart`: one PUT per declared part.", example: "single" }),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .openapi({
        description: "Lowercase hex SHA-256 of the exact bytes (uppercase is accepted and lowercased).",
        example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      }),
    filename: z.string().max(255).nullable().optional().openapi({ description: "Original file name, for display.", example: "photo.jpg" }),
    parts: z.array(MultipartPartRequestSchema).max(10000).default([]).openapi({ description: "Multipart only: the parts, in order." }),
  })
  .openapi("CreateUploadRequest");

export const CreateUploadResponseSchema = z
  .object({
    upload_id: UploadIdSchema,
    asset_id: AssetIdSchema,
    expires_at: Timestamp("When the upload (and its URLs) expire."),
    mode: z.enum(["single", "multipart"]).openapi({ description: "Upload mode.", example: "single" }),
    status: UploadStatusSchema,
    parts: z.array(PresignedPartResponseSchema).openapi({ description: "Multipart: one request per part." }),
    upload: PresignedRequestResponseSchema.nullable().openapi({ description: "Single: the request that sends the bytes." }),
  })
  .openapi("CreateUploadResponse");

export const CompletePartRequestSchema = z
  .object({
    part_number: z.number().int().min(1).max(10000).openapi({ description: "Part number.", example: 1 }),
    etag: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: "The ETag header the part's PUT returned.", example: '"3858f62230ac3c915f300c664312c63f"' }),
  })
  .openapi("CompletePartRequest");

export const CompleteUploadRequestSchema = z
  .object({
    parts: z
      .array(CompletePartRequestSchema)
      .max(10000)
      .default([])
      .openapi({ description: "Multipart: every part with its ETag. Single: omit (send `{}`)." }),
  })
  .openapi("CompleteUploadRequest");

export const CompleteUploadResponseSchema = z
  .object({
    upload_id: UploadIdSchema,
    asset_id: AssetIdSchema,
    asset_object_id: ObjectIdSchema,
    byte_length: z.number().int().openapi({ description: "Pinned size.", example: 48213 }),
    sha256: Sha256Schema,
    status: UploadStatusSchema,
  })
  .openapi("CompleteUploadResponse");

export const AbortUploadResponseSchema = z.object({ upload_id: UploadIdSchema, status: UploadStatusSchema }).openapi("AbortUploadResponse");

export const UploadParams = z.object({ upload_id: UploadIdSchema.openapi({ param: { name: "upload_id", in: "path" } }) });
