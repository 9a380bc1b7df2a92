import { z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import type { AppContext } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { Timestamp } from "../../platform/openapi";
import { type KeyRetention, retentionCeilingDays, retentionOf } from "../controls";
import { type ApiKeyRow, getKey } from "../repo";
import { controlResponseFields, registerKeyControl } from "./key-control";

const RetentionResponseSchema = z
  .object({
    ...controlResponseFields(1),
    output_retention_days: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Days the published outputs of jobs this key admits are kept; null: until deleted.", example: 30 }),
    ceiling_days: z.number().int().openapi({
      description: "The most this key may set: the tenant ceiling, or less if the key that created it keeps less.",
      example: 3650,
    }),
    updated_at: Timestamp("When it last changed.").nullable(),
  })
  .openapi("ApiKeyRetentionResponse");

const PutRetentionSchema = z
  .object({
    output_retention_days: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({ description: "Days to keep outputs of future admissions; null to keep them until deleted.", example: 30 }),
    expected_version: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: "The version last read; refused (409) if it moved since.", example: 0 }),
  })
  .openapi("PutApiKeyRetentionRequest");

/** The key's creator, whose retention bounds what this key may set. */
async function creatorOf(c: AppContext, key: ApiKeyRow) {
  return key.createdByKeyId ? await getKey(c.var.db, key.tenantId, key.createdByKeyId) : null;
}

/** GET and PUT /v1/api-keys/{api_key_id}/retention. */
export function registerRetentionRoutes(app: Router) {
  registerKeyControl<KeyRetention, z.infer<typeof PutRetentionSchema>, { ceiling_days: number }>(app, {
    segment: "retention",
    noun: "Retention",
    column: "retention",
    read: retentionOf,
    responseSchema: RetentionResponseSchema,
    bodySchema: PutRetentionSchema,
    get: { summary: "Get a key's output retention", ok: "The retention." },
    put: {
      summary: "Replace a key's output retention",
      description:
        "Applies to jobs admitted from now on (admitted jobs keep theirs): their published outputs (signed file, sidecar, preview) and the uploaded source are deleted that many days after publication, and the asset becomes `retention_expired`; records and receipts stay. Bounded by the tenant ceiling and, for a key created by another key, by what the creator keeps.",
      ok: "The new retention.",
    },
    fields: (body) => ({ output_retention_days: body.output_retention_days }),
    shown: async (c, key) => ({ ceiling_days: retentionCeilingDays(await creatorOf(c, key)) }),
    admit: async (c, key, body) => {
      const creator = await creatorOf(c, key);
      const ceiling = retentionCeilingDays(creator);
      // Keeping outputs indefinitely (null) is only allowed when the creator key keeps them indefinitely too.
      const creatorKeepsForever = !creator || retentionOf(creator.retention).output_retention_days === null;
      if (body.output_retention_days === null ? !creatorKeepsForever : body.output_retention_days > ceiling) {
        throw new ApiError("svc.api_keys.retention_exceeds_ceiling", `This key may keep outputs at most ${ceiling} days.`, {
          fieldDetails: [{ location: "body", field: "output_retention_days", code: "too_big", message: `At most ${ceiling}.` }],
        });
      }
      return { ceiling_days: ceiling };
    },
    view: (keyId, retention, extra) => ({ api_key_id: keyId, ...retention, ceiling_days: extra!.ceiling_days }),
  });
}
