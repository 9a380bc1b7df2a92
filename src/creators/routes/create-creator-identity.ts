import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, IdempotencyKeyHeader, json } from "../../platform/openapi";
import { actingIdOf } from "../../platform/principal";
import { CreateCreatorIdentityRequestSchema, CreatorIdentityResponseSchema } from "../schemas";
import { creatorView, enrolCreator } from "../service";

const route = createRoute({
  method: "post",
  path: "/v1/creator-identities",
  operationId: "createCreatorIdentity",
  tags: ["Creators"],
  summary: "Enrol a creator identity",
  description:
    "Enrols a creator with the tenant's attestation of a lawful basis (`consent`, recorded as given with the time and the API key). The e-mail and name are stored only encrypted; the identity gets an opaque `creator_ref` and a salted commitment that manifests carry instead of the person. Enrolling an e-mail that already has an `active` identity in this tenant (same address after trimming and lowercasing) is not a conflict: it answers **200** with that existing identity unchanged (its name and consent stay as first recorded); a new identity answers **201**. Without a configured data master key: 503 `svc.creators.sealing_unavailable`.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: CreateCreatorIdentityRequestSchema } }, required: true },
  },
  responses: {
    201: json(CreatorIdentityResponseSchema, "The new identity."),
    200: json(CreatorIdentityResponseSchema, "The tenant's existing active identity for this e-mail."),
    503: errorResponse(
      "`svc.creators.sealing_unavailable`: personal data cannot be encrypted now (no data master key configured, or the tenant's data key cannot be unwrapped); or credential verification is unavailable (`svc.auth.unavailable`). Retry later.",
    ),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    // The column names a key; a console session's acts are attributed to its user (usr_…).
    const apiKeyId = actingIdOf(principal);
    const result = await enrolCreator(c.var.db, c.env, { tenantId, apiKeyId, ...c.req.valid("json") });
    if (result.status === "unavailable") throw new ApiError("svc.creators.sealing_unavailable");
    return c.json(creatorView(result.row), result.status === "created" ? 201 : 200);
  });
}
