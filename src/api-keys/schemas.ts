import { z } from "@hono/zod-openapi";
import { SCOPES, type Scope } from "../platform/auth/scopes";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";

export const ScopeSchema = z.enum(Object.keys(SCOPES) as [Scope, ...Scope[]]).openapi("Scope", { description: "An API-key scope.", example: "capabilities:read" });

export const ApiKeyIdSchema = idSchema("apiKey", "API key id.");

export const ApiKeyResponseSchema = z
  .object({
    api_key_id: ApiKeyIdSchema,
    name: z.string().openapi({ description: "Label chosen at creation.", example: "CI pipeline" }),
    display_prefix: z.string().openapi({ description: "First characters of the secret, to tell keys apart. The secret itself is never returned again.", example: "svc_live_abcdef" }),
    scopes: z.array(ScopeSchema).openapi({ description: "Scopes the key holds." }),
    status: z.enum(["active", "revoked"]).openapi({ description: "Key status.", example: "active" }),
    created_at: Timestamp("When the key was created."),
    expires_at: Timestamp("When the key stops working; null for no expiry.").nullable(),
    revoked_at: Timestamp("When the key was revoked.").nullable(),
    last_used_at: Timestamp("Last successful authentication, to the minute.").nullable(),
    rotation: z
      .object({
        successor_key_id: z.string().openapi({ description: "The successor issued by rotate.", example: "key_bcdefghij2345678" }),
        overlap_ends_at: Timestamp("When this key stops working unless the rotation is cancelled first."),
      })
      .nullable()
      .openapi({ description: "A rotation in progress on this (outgoing) key." }),
    predecessor_key_id: z.string().nullable().openapi({ description: "The key this one succeeded, if it was issued by a rotation.", example: null }),
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
    expires_at: z.string().datetime().nullable().optional().openapi({ description: "Optional expiry (must be in the future).", example: "2027-01-01T00:00:00Z" }),
  })
  .openapi("CreateApiKeyRequest");

export const IssuedApiKeyResponseSchema = z
  .object({
    api_key: ApiKeyResponseSchema,
    secret: z.string().regex(/^svc_live_[a-z2-7]{52}$/).openapi({ description: "The key. Shown once; store it as a server-side secret (SVC_API_KEY).", example: "svc_live_" + "a".repeat(52) }),
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
          description: z.string().openapi({ description: "What the scope allows.", example: "Read capabilities, image profiles and the recipe catalog." }),
        }),
      )
      .openapi({ description: "Every scope a key can hold." }),
  })
  .openapi("ScopeListResponse");
