import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { recipeById } from "../catalog/recipes";
import { database } from "../db/client";
import { notFound, principalOf } from "../platform/context";
import { errorResponse, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { type SigningProfile, signingProfileOf } from "./controls";
import { ApiKeyParams } from "./get-api-key";
import { requireAuthorityOver } from "./guard";
import { getKey } from "./queries";
import { replaceControl } from "./versioned-control";

const RecipeId = z.string().regex(/^rcp_[a-z0-9_]{3,64}$/).refine((id) => recipeById(id) !== undefined, { message: "No such recipe." });

const ProfileResponseSchema = z
  .object({
    api_key_id: z.string().openapi({ description: "The key.", example: "key_abcdefghij234567" }),
    version: z.number().int().min(0).openapi({ description: "Bumped by every change; 0 until first set.", example: 1 }),
    default_recipe_id: z.string().nullable().openapi({ description: "Recipe POST /v1/sign uses when the request names none.", example: "rcp_system_sign_only" }),
    allowed_recipe_ids: z.array(z.string()).nullable().openapi({ description: "Recipes this key may sign with; null for any available recipe.", example: ["rcp_system_sign_only"] }),
    updated_at: Timestamp("When it last changed.").nullable(),
  })
  .openapi("ApiKeySigningProfileResponse");

const PutProfileSchema = z
  .object({
    default_recipe_id: RecipeId.nullable().openapi({ description: "Default recipe; must be allowed.", example: "rcp_system_sign_only" }),
    allowed_recipe_ids: z.array(RecipeId).min(1).max(50).nullable().openapi({ description: "Allowed recipes; null for any.", example: ["rcp_system_sign_only"] }),
    expected_version: z.number().int().min(0).optional().openapi({ description: "The version last read; refused (409) if it moved since.", example: 0 }),
  })
  .refine((p) => !p.default_recipe_id || !p.allowed_recipe_ids || p.allowed_recipe_ids.includes(p.default_recipe_id), {
    message: "The default recipe must be one of the allowed recipes.",
    path: ["default_recipe_id"],
  })
  .openapi("PutApiKeySigningProfileRequest");

const view = (keyId: string, p: SigningProfile) => ({ api_key_id: keyId, ...p });

const getRoute = createRoute({
  method: "get",
  path: "/v1/api-keys/{api_key_id}/signing-profile",
  operationId: "getApiKeySigningProfile",
  tags: ["API keys"],
  summary: "Get a key's signing profile",
  request: { params: ApiKeyParams },
  responses: { 200: json(ProfileResponseSchema, "The signing profile."), ...NOT_FOUND },
});

const putRoute = createRoute({
  method: "put",
  path: "/v1/api-keys/{api_key_id}/signing-profile",
  operationId: "putApiKeySigningProfile",
  tags: ["API keys"],
  summary: "Replace a key's signing profile",
  description: "Signing defaults and the allowed recipe set for POST /v1/sign with this key, effective from its next sign; admitted jobs keep what they were admitted with.",
  request: { params: ApiKeyParams, body: { content: { "application/json": { schema: PutProfileSchema } }, required: true } },
  responses: { 200: json(ProfileResponseSchema, "The new profile."), ...NOT_FOUND, 409: errorResponse("expected_version is stale (`svc.api_keys.version_conflict`).") },
});

export function registerSigningProfileRoutes(app: Router) {
  app.openapi(getRoute, async (c) => {
    const key = await getKey(database(c.env.DB), principalOf(c).tenantId, c.req.valid("param").api_key_id);
    if (!key) throw notFound("API key");
    return c.json(view(key.id, signingProfileOf(key.signingProfile)), 200);
  });
  app.openapi(putRoute, async (c) => {
    const db = database(c.env.DB);
    const tenantId = principalOf(c).tenantId;
    const body = c.req.valid("json");
    const key = await getKey(db, tenantId, c.req.valid("param").api_key_id);
    if (!key) throw notFound("API key");
    await requireAuthorityOver(c, [key]);
    const next = await replaceControl<SigningProfile>(db, key, "signingProfile", signingProfileOf(key.signingProfile), body.expected_version, {
      default_recipe_id: body.default_recipe_id,
      allowed_recipe_ids: body.allowed_recipe_ids,
    });
    return c.json(view(key.id, next), 200);
  });
}
