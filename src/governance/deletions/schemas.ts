import { z } from "@hono/zod-openapi";
import { idSchema } from "../../platform/ids";
import { Timestamp } from "../../platform/openapi";
import { NextCursorSchema } from "../../platform/pagination";

export const DELETION_STATES = ["queued", "running", "completed", "refused", "failed"] as const;

export const CreateDeletionSchema = z
  .discriminatedUnion("scope", [
    z
      .object({
        scope: z.literal("asset").openapi({ description: "Delete one asset and everything derived from it.", example: "asset" }),
        asset_id: idSchema("asset", "The asset to delete."),
      })
      .strict()
      .openapi("AssetDeletionRequest", { description: "Deletes one asset." }),
    z
      .object({
        scope: z.literal("account").openapi({ description: "Delete the whole account.", example: "account" }),
        confirm: z.string().max(64).openapi({
          description: "The tenant's own id (`ten_…`, the `public_id` GET /v1/me answers), to confirm: any other value answers 422.",
          example: "ten_abcdefghij234567",
        }),
      })
      .strict()
      .openapi("AccountDeletionRequest", { description: "Deletes the whole account; confirmed with the tenant's id." }),
  ])
  .openapi("DeletionRequest", {
    description: 'What to delete: `{ scope: "asset", asset_id }` or `{ scope: "account", confirm: <the tenant id> }`.',
  });

export const DeletionSchema = z
  .object({
    deletion_id: idSchema("governanceDeletion", "Deletion id."),
    scope: z.enum(["account", "asset"]).openapi({ description: "What is deleted: one asset, or the whole account.", example: "asset" }),
    asset_id: idSchema("asset", "The asset deleted (scope `asset`); null for an account deletion.").nullable(),
    state: z.enum(DELETION_STATES).openapi({
      description:
        "`queued` → `running` → `completed`; `refused`: a legal hold covers the target (nothing was removed, or, for a hold placed while it ran, nothing more); `failed`: it stopped after repeated failures (ask again to resume: every step only removes what is still there).",
      example: "completed",
    }),
    reason_code: z.string().nullable().openapi({
      description: "Why it was refused or failed (`svc.governance.legal_hold_active`, `svc.governance.deletion_failed`); else null.",
      example: null,
    }),
    legal_hold_id: idSchema(
      "legalHold",
      "The legal hold that refused it; on a completed account deletion, a hold placed after the account was already closed (too late to keep anything: the deletion finished); null otherwise.",
    ).nullable(),
    removed: z.record(z.string(), z.number().int().min(0)).openapi({
      description:
        "What was removed so far, counted per kind: `assets`, `objects` (object records), `stored_objects` (stored bytes: originals, outputs, previews, sidecars, intermediate files), `uploads`, `jobs`, `job_steps`, `receipts`, `verifications`, `verification_reports`, `verification_shares`, `verification_requests`, `soft_bindings`, `pdq_bands`, `pdq_regions`, `chromaprint_frames` and `video_frames` (the watermark and fingerprint recovery index), `webhook_events`, `webhook_deliveries`, `webhook_attempts`, `capture_admissions`; for an account also `api_keys_revoked`, `creators_erased`, `webhook_endpoints`, `capture_identities`, and the other records of the account.",
      example: { assets: 1, stored_objects: 4, jobs: 1, receipts: 1, soft_bindings: 2, pdq_bands: 16 },
    }),
    retained: z
      .array(
        z
          .object({
            kind: z.string().openapi({ description: "What is kept.", example: "audit_log" }),
            reason: z.string().openapi({ description: "Why it is kept.", example: "The audit log is kept: the law requires it." }),
          })
          .openapi({ description: "One kind of record a deletion keeps." }),
      )
      .openapi({
        description:
          "What a deletion keeps, and why: the audit log, billing records the law requires, transparency-log entries, governance records.",
      }),
    requested_at: Timestamp("When the deletion was requested."),
    completed_at: Timestamp("When it reached `completed`, `refused` or `failed`; null before.").nullable(),
  })
  .openapi("Deletion", { description: "A deletion request and its progress." });

export const DeletionPageSchema = z
  .object({
    items: z.array(DeletionSchema).openapi({ description: "Deletions, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("DeletionPage");

export const DeletionParams = z.object({
  deletion_id: idSchema("governanceDeletion", "Deletion id.").openapi({ param: { name: "deletion_id", in: "path" } }),
});
