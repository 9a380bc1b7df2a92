import { z } from "@hono/zod-openapi";
import { ScopeSchema } from "../api-keys/schemas";
import { Timestamp } from "../platform/openapi";

export const MeResponseSchema = z
  .object({
    email: z.string().nullable().openapi({ description: "Contact e-mail of the account, when one is recorded.", example: "dev@localhost" }),
    public_id: z.string().openapi({ description: "Public id of the account (tenant).", example: "ten_abcdefghij234567" }),
    tenant_name: z.string().openapi({ description: "Account name.", example: "Development" }),
    credential: z
      .object({
        kind: z.literal("api_key").openapi({ description: "Kind of credential used for this request." }),
        api_key_id: z.string().openapi({ description: "The key used.", example: "key_abcdefghij234567" }),
        scopes: z.array(ScopeSchema).openapi({ description: "Scopes of the key." }),
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
