import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { auditRequestEvent } from "../../platform/audit";
import { notFound, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json, NOT_FOUND } from "../../platform/openapi";
import { discloseCreator } from "../disclosure";
import { CreatorDisclosureResponseSchema, CreatorIdParams, DisclosureQuerySchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/creator-identities/{creator_identity_id}/disclosure",
  operationId: "getCreatorDisclosure",
  tags: ["Creators"],
  summary: "Disclose a creator identity",
  description:
    "The only operation that decrypts a creator's name and e-mail; it needs scope `creators:disclose`. Answers what the tenant's disclosure policy lets the `audience` see: `owning_tenant` per `console_disclosure`, `public` per `share_disclosure` (what a verifier would be shown). `end_user` carries only the allowed fields; `commitment` lets a verifier check a disclosed identity against the value in a manifest: SHA-256(salt ‖ UTF-8 canonical identity) equals `commitment.value`, with the salt given only when the whole canonical identity (name and e-mail) is disclosed. A withdrawn or erased identity answers its state with no personal data. Every disclosure is recorded in the audit log (`creator.disclosure_read`: who, which audience, which state; never the disclosed values). When the identity would be disclosed but cannot be decrypted now (no data master key configured, or its data key unusable) the state is `unavailable` (200): retry later.",
  request: { params: CreatorIdParams, query: DisclosureQuerySchema },
  responses: {
    200: json(CreatorDisclosureResponseSchema, "The disclosure for this audience."),
    403: errorResponse(
      "`svc.creators.audience_not_allowed`: the `operator` audience is reserved to the service operator and never reachable with an API key.",
    ),
    ...NOT_FOUND,
    503: errorResponse("`svc.audit.unavailable`: the disclosure could not be recorded in the audit log, so nothing was disclosed; retry."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { audience } = c.req.valid("query");
    // Refused whatever the id: the answer says nothing about which identities exist.
    if (audience === "operator")
      throw new ApiError("svc.creators.audience_not_allowed", "The operator audience is not reachable with an API key.", {
        fieldDetails: [
          { location: "query", field: "audience", code: "audience_not_allowed", message: "Reserved to the service operator." },
        ],
      });
    const target = { tenantId: principalOf(c).tenantId, creatorId: c.req.valid("param").creator_identity_id };
    const result = await discloseCreator(c.var.db, c.env, target, audience);
    if (result.status === "not_found") throw notFound("creator identity");
    // A disclosure decrypts personal data: who read it, for which audience and what was shown is audited before
    // the answer leaves (a failed append fails the read rather than disclosing unrecorded).
    await auditRequestEvent(c, target.tenantId, {
      action: "creator.disclosure_read",
      targetType: "creator_identity",
      targetId: target.creatorId,
      detail: { audience, disclosure_state: result.disclosure.disclosure_state },
    });
    return c.json(result.disclosure, 200);
  });
}
