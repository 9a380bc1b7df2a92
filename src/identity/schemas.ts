import { z } from "@hono/zod-openapi";
import { ScopeSchema } from "../api-keys/schemas";
import { Timestamp } from "../platform/openapi";

export const MeResponseSchema = z
  .object({
    email: z.string().nullable().openapi({
      description:
        "For a console session, the signed-in user's e-mail (as verified by the identity provider); for an API key, the account's contact e-mail when one is recorded (accounts provisioned by a console sign-in record none).",
      example: "dev@localhost",
    }),
    public_id: z.string().openapi({ description: "Public id of the account (tenant).", example: "ten_abcdefghij234567" }),
    tenant_name: z.string().openapi({ description: "Account name.", example: "Development" }),
    credential: z
      .object({
        kind: z.enum(["api_key", "session"]).openapi({
          description: "Kind of credential used for this request: an API key, or a signed-in console session.",
          example: "api_key",
        }),
        api_key_id: z
          .string()
          .nullable()
          .openapi({ description: "The key used; null for a console session.", example: "key_abcdefghij234567" }),
        user_id: z
          .string()
          .nullable()
          .openapi({ description: "The console user signed in; null for an API key.", example: "usr_abcdefghij234567" }),
        scopes: z.array(ScopeSchema).openapi({ description: "Scopes the credential holds (a console session holds every scope)." }),
      })
      .openapi({ description: "The credential behind this request." }),
  })
  .openapi("MeResponse");

const Step = z.object({
  step: z
    .enum(["create_api_key", "read_capabilities", "upload", "sign", "verify", "webhooks"])
    .openapi({ description: "Onboarding step.", example: "create_api_key" }),
  available: z.boolean().openapi({ description: "Whether this deployment can perform the step now.", example: true }),
  completed: z
    .boolean()
    .nullable()
    .openapi({ description: "Whether the tenant has done it; null where the service does not track it.", example: true }),
  operation: z.string().openapi({ description: "The operation that performs it.", example: "POST /v1/api-keys" }),
});

export const DeveloperOnboardingResponseSchema = z
  .object({
    api_keys: z
      .object({
        active_count: z.number().int().min(0).openapi({ description: "Active keys of the tenant.", example: 1 }),
        newest_created_at: Timestamp("Creation time of the newest active key.").nullable(),
        last_used_at: Timestamp("Most recent use of any active key.").nullable(),
      })
      .openapi({ description: "Key state, never secrets." }),
    environment_variables: z
      .array(
        z.object({
          name: z.string().openapi({ description: "Variable name.", example: "SVC_API_KEY" }),
          description: z.string().openapi({ description: "What it holds.", example: "A server-side API key." }),
        }),
      )
      .openapi({ description: "Variables SDKs and examples read." }),
    steps: z.array(Step).openapi({ description: "Setup checklist, in order." }),
  })
  .openapi("DeveloperOnboardingResponse");

export const IdpCallbackResponseSchema = z
  .object({
    status: z.literal("received").openapi({ description: "The callback was verified and recorded.", example: "received" }),
    result: z.enum(["applied", "unchanged", "unknown_user", "ignored"]).openapi({
      description:
        "`applied`: the user changed (deactivated, reactivated, deleted, e-mail changed). `unchanged`: the user already was so. `unknown_user`: no user of ours has that subject (a deactivation or deletion is still kept: that subject cannot sign up until reactivated, or ever once deleted). `ignored`: an event type we do not act on.",
      example: "applied",
    }),
    duplicate: z.boolean().openapi({
      description: "True when this `idp-id` was already received: the answer repeats the first result and nothing changed.",
      example: false,
    }),
  })
  .openapi("IdpCallbackResponse");
