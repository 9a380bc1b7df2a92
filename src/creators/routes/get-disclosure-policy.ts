import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { CreatorDisclosurePolicySchema } from "../schemas";
import { effectivePolicy, policyView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/creator-disclosure-policy",
  operationId: "getCreatorDisclosurePolicy",
  tags: ["Creators"],
  summary: "Get the creator disclosure policy",
  description:
    "The policy in effect. Until the tenant replaces it: `console_disclosure` `name_and_email`, `share_disclosure` `name`, no notice version, the tenant's name as `brand_name`, and `updated_at` null.",
  responses: { 200: json(CreatorDisclosurePolicySchema, "The policy.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => c.json(policyView(await effectivePolicy(c.var.db, principalOf(c).tenantId)), 200));
}
