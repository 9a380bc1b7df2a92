import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { CreatorDisclosurePolicySchema, PutCreatorDisclosurePolicySchema } from "../schemas";
import { policyView, replacePolicy } from "../service";

const route = createRoute({
  method: "put",
  path: "/v1/creator-disclosure-policy",
  operationId: "putCreatorDisclosurePolicy",
  tags: ["Creators"],
  summary: "Replace the creator disclosure policy",
  description:
    "Replaces the whole policy (omitted fields take their defaults: `console_disclosure` `name_and_email`, `share_disclosure` `name`, `notice_version` null). Effective for every disclosure from now on, including identities enrolled earlier. Replacing it with the same body changes nothing but `updated_at`.",
  request: { body: { content: { "application/json": { schema: PutCreatorDisclosurePolicySchema } }, required: true } },
  responses: { 200: json(CreatorDisclosurePolicySchema, "The policy now in effect.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    // The column names a key; a console session's acts are attributed to its user (usr_…).
    const apiKeyId = actingIdOf(principal);
    return c.json(policyView(await replacePolicy(c.var.db, tenantId, apiKeyId, c.req.valid("json"))), 200);
  });
}
