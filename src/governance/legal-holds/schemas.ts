import { z } from "@hono/zod-openapi";
import { idSchema } from "../../platform/ids";
import { Timestamp } from "../../platform/openapi";
import { NextCursorSchema } from "../../platform/pagination";

export const LegalHoldSchema = z
  .object({
    legal_hold_id: idSchema("legalHold", "Legal hold id."),
    scope: z.enum(["account", "asset"]).openapi({
      description: "`account`: every asset of the tenant, and the account itself, is held; `asset`: one asset is held.",
      example: "asset",
    }),
    asset_id: idSchema("asset", "The held asset (scope `asset`); null for an account hold.").nullable(),
    active: z.boolean().openapi({ description: "True until the operator releases the hold.", example: true }),
    reason: z.string().openapi({
      description: "Why the hold was placed, as the operator wrote it (a matter or case reference; never personal data).",
      example: "Litigation hold, matter 2026-117",
    }),
    placed_by: z.string().openapi({ description: "The operator who placed it.", example: "ops.alice" }),
    placed_at: Timestamp("When it was placed."),
    released_by: z.string().nullable().openapi({ description: "The operator who released it; null while active.", example: null }),
    released_at: Timestamp("When it was released; null while active.").nullable(),
  })
  .openapi("LegalHold", {
    description:
      "A legal hold: while active, nothing it covers can be deleted (deletions answer 409 `svc.governance.legal_hold_active`), retention expiry skips the held assets, and captures into a held asset are refused. Holds are placed and released by the service operator, not through this API.",
  });

export const LegalHoldPageSchema = z
  .object({
    items: z.array(LegalHoldSchema).openapi({ description: "Holds, most recently placed first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("LegalHoldPage");
