import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { notFound, principalOf } from "../platform/context";
import { ApiError } from "../platform/errors";
import { errorResponse, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { type KeyRetention, retentionCeilingDays, retentionOf } from "./controls";
import { ApiKeyParams } from "./get-api-key";
import { requireAuthorityOver } from "./guard";
import { getKey } from "./repo";
import { replaceControl } from "./versioned-control";

const RetentionResponseSchema = z
  .object({
    api_key_id: z.string().openapi({ description: "The key.", example: "key_abcdefghij234567" }),
    version: z.number().int().min(0).openapi({ description: "Bumped by every change; 0 until first set.", example: 1 }),
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

const getRoute = createRoute({
  method: "get",
  path: "/v1/api-keys/{api_key_id}/retention",
  operationId: "getApiKeyRetention",
  tags: ["API keys"],
  summary: "Get a key's output retention",
  request: { params: ApiKeyParams },
  responses: { 200: json(RetentionResponseSchema, "The retention."), ...NOT_FOUND },
});

const putRoute = createRoute({
  method: "put",
  path: "/v1/api-keys/{api_key_id}/retention",
  operationId: "putApiKeyRetention",
  tags: ["API keys"],
  summary: "Replace a key's output retention",
  description:
    "Applies to jobs admitted from now on (admitted jobs keep theirs): their published outputs (signed file, sidecar, preview) and the uploaded source are deleted that many days after publication, and the asset becomes `retention_expired`; records and receipts stay. Bounded by the tenant ceiling and, for a key created by another key, by what the creator keeps.",
  request: { params: ApiKeyParams, body: { content: { "application/json": { schema: PutRetentionSchema } }, required: true } },
  responses: {
    200: json(RetentionResponseSchema, "The new retention."),
    ...NOT_FOUND,
    409: errorResponse("expected_version is stale (`svc.api_keys.version_conflict`)."),
  },
});

export function registerRetentionRoutes(app: Router) {
  app.openapi(getRoute, async (c) => {
    const db = c.var.db;
    const tenantId = principalOf(c).tenantId;
    const key = await getKey(db, tenantId, c.req.valid("param").api_key_id);
    if (!key) throw notFound("API key");
    const creator = key.createdByKeyId ? await getKey(db, tenantId, key.createdByKeyId) : null;
    return c.json({ api_key_id: key.id, ...retentionOf(key.retention), ceiling_days: retentionCeilingDays(creator) }, 200);
  });
  app.openapi(putRoute, async (c) => {
    const db = c.var.db;
    const tenantId = principalOf(c).tenantId;
    const body = c.req.valid("json");
    const key = await getKey(db, tenantId, c.req.valid("param").api_key_id);
    if (!key) throw notFound("API key");
    const proposedRetention = { ...retentionOf(key.retention), output_retention_days: body.output_retention_days };
    // The key as it is and as it would be: no key lengthens its own (or a covered key's) retention past its own.
    await requireAuthorityOver(c, [key, { ...key, retention: JSON.stringify(proposedRetention) }]);
    const creator = key.createdByKeyId ? await getKey(db, tenantId, key.createdByKeyId) : null;
    const ceiling = retentionCeilingDays(creator);
    // Keeping outputs indefinitely (null) is only allowed when the creator key keeps them indefinitely too.
    const creatorKeepsForever = !creator || retentionOf(creator.retention).output_retention_days === null;
    if (body.output_retention_days === null ? !creatorKeepsForever : body.output_retention_days > ceiling) {
      throw new ApiError("svc.api_keys.retention_exceeds_ceiling", `This key may keep outputs at most ${ceiling} days.`, {
        fieldDetails: [{ location: "body", field: "output_retention_days", code: "too_big", message: `At most ${ceiling}.` }],
      });
    }
    const next = await replaceControl<KeyRetention>(db, key, "retention", retentionOf(key.retention), body.expected_version, {
      output_retention_days: body.output_retention_days,
    });
    return c.json({ api_key_id: key.id, ...next, ceiling_days: ceiling }, 200);
  });
}
