import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
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
    variant: z.enum(["legacy_signing", "signing", "sidecar_signing", "recovered_signing", "binding", "watermarking"]).openapi({
      description:
        "Evidence variant. This deployment issues `signing` (embedded manifest), `sidecar_signing` (.c2pa beside the unchanged file) and `watermarking` (watermark-only recipe: no manifest).",
      example: "signing",
    }),
    output: ObjectRef.extend({
      media_type: z.string().openapi({ description: "Media type of the published bytes.", example: "image/jpeg" }),
    }).openapi({
      description: "The published object; `output.object_id` names the signed object (for sidecars, the unchanged file).",
    }),
    source: ObjectRef.openapi({ description: "The uploaded object the job started from." }),
    sidecar_manifest: ObjectRef.nullable().openapi({ description: "The .c2pa manifest store (sidecar_signing only)." }),
    manifest: z
      .object({
        active_manifest_label: z
          .string()
          .openapi({ description: "Label of the active manifest.", example: "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6" }),
        validation_state: z
          .enum(["Trusted", "Valid", "Invalid"])
          .openapi({ description: "The reference engine's verdict on the output at publication.", example: "Trusted" }),
      })
      .nullable()
      .openapi({ description: "The manifest written (null for watermark-only publications)." }),
    watermark: z
      .object({
        algorithm: z.string().openapi({
          description: "Our watermark algorithm (svc-wm-tiledss-1 for images, svc-awm-stdm-1 for audio).",
          example: "svc-wm-tiledss-1",
        }),
        strength: z.enum(["subtle", "balanced", "robust"]).openapi({ description: "Strength applied.", example: "balanced" }),
        payload: z
          .string()
          .regex(/^[0-9a-f]{16}$/)
          .openapi({
            description: "The 64-bit payload (hex) the soft-binding index maps to this publication.",
            example: "9f2c4e1a7b3d5c60",
          }),
        psnr_db: z.number().openapi({
          description:
            "Measured PSNR of the marked luma against the original (images), or SNR of the marked samples against the original (audio).",
          example: 44.1,
        }),
        read_back: z
          .literal(true)
          .openapi({ description: "The payload was read back from the encoded output before publication.", example: true }),
      })
      .nullable()
      .optional()
      .openapi({ description: "The watermark embedded (watermark recipes)." }),
    fingerprints: z
      .array(
        z.object({
          algorithm: z.string().openapi({ description: "Fingerprint algorithm.", example: "iscc-image" }),
          value: z.string().openapi({ description: "Its canonical value (ISCC code, PDQ hex).", example: "ISCC:EEAZ2T3MSSYSFDVS" }),
          quality: z.number().nullable().openapi({ description: "PDQ quality (0-100); null for others.", example: null }),
        }),
      )
      .optional()
      .openapi({ description: "Fingerprints recorded in the soft-binding index." }),
    anchor: z
      .object({
        status: z
          .enum(["pending", "sealed"])
          .openapi({ description: "Sealed once a checkpoint includes the manifest (cron, about a minute).", example: "sealed" }),
        leaf_index: z.number().int().nullable().openapi({ description: "Position in the manifest transparency log.", example: 41 }),
        tree_size: z.number().int().nullable().openapi({ description: "Size of the checkpoint the proof is against.", example: 42 }),
        leaf_hash: z.string().openapi({
          description: "RFC 6962 leaf hash (hex) of the versioned leaf (manifest SHA-256 + publication id).",
          example: "3f0a…",
        }),
        inclusion_proof: z.array(z.string()).openapi({ description: "RFC 6962 inclusion path (hex), bottom-up.", example: [] }),
        checkpoint: z.string().nullable().openapi({
          description: "The signed checkpoint note (C2SP signed-note / tlog-checkpoint) the proof verifies against.",
          example: null,
        }),
      })
      .nullable()
      .optional()
      .openapi({ description: "The manifest's entry in the transparency log (null for unsigned publications)." }),
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
