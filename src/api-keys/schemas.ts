import { z } from "@hono/zod-openapi";
import { SCOPES, type Scope } from "../platform/auth/scopes";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";

export const ScopeSchema = z
  .enum(Object.keys(SCOPES) as [Scope, ...Scope[]])
  .openapi("Scope", { description: "An API-key scope.", example: "capabilities:read" });

export const ApiKeyIdSchema = idSchema("apiKey", "API key id.");

export const ApiKeyResponseSchema = z
  .object({
    api_key_id: ApiKeyIdSchema,
    name: z.string().openapi({ description: "Label chosen at creation.", example: "CI pipeline" }),
    display_prefix: z.string().openapi({
      description: "First characters of the secret, to tell keys apart. The secret itself is never returned again.",
      example: "svc_live_abcdef",
    }),
    scopes: z.array(ScopeSchema).openapi({ description: "Scopes the key holds." }),
    status: z.enum(["active", "expired", "revoked"]).openapi({
      description:
        "`active`: the key authenticates. `expired`: its expiry passed, or it was rotated and the overlap ended without a completion. `revoked`: revoked, or retired by a completed rotation.",
      example: "active",
    }),
    created_at: Timestamp("When the key was created."),
    expires_at: Timestamp("When the key stops working; null for no expiry.").nullable(),
    revoked_at: Timestamp("When the key was revoked.").nullable(),
    last_used_at: Timestamp("Last successful authentication, to the minute.").nullable(),
    rotation: z
      .object({
        state: z.enum(["overlapping", "completed", "canceled", "lapsed"]).openapi({
          description:
            "The rotation this key began: `overlapping` (both secrets work until overlap_ends_at), then `completed` (this key retired), `canceled` (the successor revoked; this key works as before and may be rotated again) or `lapsed` (the overlap ended without a completion; this key stopped). Nothing moves out of completed, canceled or lapsed.",
          example: "overlapping",
        }),
        successor_key_id: z.string().openapi({ description: "The successor issued by rotate.", example: "key_bcdefghij2345678" }),
        overlap_ends_at: Timestamp(
          "When this key stops (or stopped) working unless the rotation is finished first; null once canceled.",
        ).nullable(),
      })
      .nullable()
      .openapi({ description: "The latest rotation this (outgoing) key began, or null." }),
    predecessor_key_id: z
      .string()
      .nullable()
      .openapi({ description: "The key this one succeeded, if it was issued by a rotation.", example: null }),
  })
  .openapi("ApiKeyResponse");

export const CreateApiKeyRequestSchema = z
  .object({
    name: z.string().min(1).max(200).openapi({ description: "Label for the key.", example: "CI pipeline" }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .refine((s) => new Set(s).size === s.length, { message: "Each scope may be named once." })
      .openapi({ description: "Scopes to grant; each must be held by the calling key.", example: ["capabilities:read", "uploads:write"] }),
    expires_at: z.string().datetime().nullable().optional().openapi({
      description:
        "Expiry (in the future). Omitted: the calling key's own expiry (none if it has none). null: no expiry, which only a key without expiry may grant; a key never outlives the key that creates it. The new key also inherits the calling key's IP allowlist and rate limit.",
      example: "2027-01-01T00:00:00Z",
    }),
  })
  .openapi("CreateApiKeyRequest");

export const IssuedApiKeyResponseSchema = z
  .object({
    api_key: ApiKeyResponseSchema,
    secret: z
      .string()
      .regex(/^svc_live_[a-z2-7]{52}$/)
      .openapi({
        description: "The key. Shown once; store it as a server-side secret (SVC_API_KEY).",
        example: `svc_live_${"a".repeat(52)}`,
      }),
  })
  .openapi("IssuedApiKeyResponse");

export const ApiKeyPageSchema = z
  .object({ items: z.array(ApiKeyResponseSchema).openapi({ description: "Keys, newest first." }), next_cursor: NextCursorSchema })
  .openapi("ApiKeyPage");

export const ScopeListResponseSchema = z
  .object({
    scopes: z
      .array(
        z.object({
          scope: ScopeSchema,
          description: z
            .string()
            .openapi({ description: "What the scope allows.", example: "Read capabilities, image profiles and the recipe catalog." }),
        }),
      )
      .openapi({ description: "Every scope a key can hold." }),
  })
  .openapi("ScopeListResponse");
