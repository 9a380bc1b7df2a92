import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { OPERATION_POLICIES } from "../../platform/auth/policy";
import { principalOf } from "../../platform/context";
import { iso, json } from "../../platform/openapi";
import { keyStats } from "../repo";
import { DeveloperOnboardingResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/developer-onboarding",
  operationId: "getDeveloperOnboarding",
  tags: ["Identity"],
  summary: "Developer onboarding state",
  description: "Secret-free setup state of the tenant: its API keys and which steps of the typical flow this deployment can do.",
  responses: { 200: json(DeveloperOnboardingResponseSchema, "Onboarding state.") },
});

export function registerGetDeveloperOnboarding(app: Router) {
  app.openapi(route, async (c) => {
    const stats = await keyStats(c.var.db, principalOf(c).tenantId);
    const signing = registryFor(c.env)
      .recipes()
      .some((r) => r.available);
    return c.json(
      {
        api_keys: {
          active_count: stats.active,
          newest_created_at: iso(stats.newestCreatedAt),
          last_used_at: iso(stats.lastUsedAt),
        },
        environment_variables: [
          { name: "SVC_API_BASE_URL", description: "Base URL of the API, e.g. http://127.0.0.1:8787 locally." },
          { name: "SVC_API_KEY", description: "A server-side API key (svc_live_...). Never ship it to browsers or apps." },
        ],
        steps: [
          { step: "create_api_key" as const, operation: "POST /v1/api-keys", available: true, completed: stats.active > 0 },
          { step: "read_capabilities" as const, operation: "GET /v1/capabilities", available: true, completed: null },
          { step: "upload" as const, operation: "POST /v1/uploads", available: signing, completed: null },
          { step: "sign" as const, operation: "POST /v1/sign", available: signing, completed: null },
          // Served operations are exactly the classified ones, so these follow the build rather than a flag.
          { step: "verify" as const, operation: "POST /v1/verify", available: "POST /v1/verify" in OPERATION_POLICIES, completed: null },
          {
            step: "webhooks" as const,
            operation: "POST /v1/webhook-endpoints",
            available: "POST /v1/webhook-endpoints" in OPERATION_POLICIES,
            completed: null,
          },
        ],
      },
      200,
    );
  });
}
