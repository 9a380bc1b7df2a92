import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { NextCursorSchema } from "../platform/pagination";
import { Timestamp } from "../platform/openapi";
import { AssetIdSchema, ObjectIdSchema, Sha256Schema } from "../uploads/schemas";

const ObjectRef = z
  .object({
    object_id: ObjectIdSchema,
    sha256: Sha256Schema,
    byte_length: z.number().int().openapi({ description: "Size in bytes.", example: 52310 }),
  })
  .openapi("ReceiptObjectRef");

export const ReceiptEvidenceSchema = z
  .object({
    variant: z
      .enum(["legacy_signing", "signing", "sidecar_signing", "recovered_signing", "binding"])
      .openapi({ description: "Evidence variant. This deployment issues `signing` (embedded manifest) and `sidecar_signing` (.c2pa beside the unchanged file).", example: "signing" }),
    output: ObjectRef.extend({ media_type: z.string().openapi({ description: "Media type of the published bytes.", example: "image/jpeg" }) }).openapi({
      description: "The published object; `output.object_id` names the signed object (for sidecars, the unchanged file).",
    }),
    source: ObjectRef.openapi({ description: "The uploaded object the job started from." }),
    sidecar_manifest: ObjectRef.nullable().openapi({ description: "The .c2pa manifest store (sidecar_signing only)." }),
    manifest: z
      .object({
        active_manifest_label: z.string().openapi({ description: "Label of the active manifest.", example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6" }),
        validation_state: z.enum(["Trusted", "Valid", "Invalid"]).openapi({ description: "The reference engine's verdict on the output at publication.", example: "Trusted" }),
      })
      .openapi({ description: "The manifest written." }),
    recipe: z
      .object({
        recipe_id: z.string().openapi({ description: "Recipe.", example: "rcp_system_sign_only" }),
        version: z.number().int().openapi({ description: "Recipe version.", example: 1 }),
      })
      .openapi({ description: "The recipe version applied." }),
    publication_id: z.string().openapi({ description: "Publication id.", example: "pub_abcdefghij234567" }),
    verification_id: idSchema("verification", "The publication-time verification of the output."),
    published_at: Timestamp("When the output was published."),
  })
  .openapi("ReceiptEvidence");

export const ReceiptResponseSchema = z
  .object({
    receipt_id: idSchema("receipt", "Receipt id."),
    asset_id: AssetIdSchema,
    job_id: idSchema("job", "The job that published."),
    created_at: Timestamp("When the receipt was issued."),
    evidence: ReceiptEvidenceSchema,
  })
  .openapi("ReceiptResponse");

export const ReceiptPageSchema = z
  .object({ items: z.array(ReceiptResponseSchema).openapi({ description: "Receipts, newest first." }), next_cursor: NextCursorSchema })
  .openapi("ReceiptPage");
