import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { SharedVerificationSchema } from "../share-schemas";
import { readSharedVerification } from "../shares";

const NOT_SHARED = "No verification is shared under this token.";

const getSharedRoute = createRoute({
  method: "get",
  path: "/v1/shared-verifications/{token}",
  operationId: "getSharedVerification",
  tags: ["Verification"],
  summary: "Read a shared verification",
  description:
    "Anonymous: the token is the credential. Answers the minimal projection while the share is unexpired and not closed. " +
    "A malformed, unknown, expired or closed token answers one identical 404. Responses carry `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.",
  request: {
    params: z.object({
      token: z.string().openapi({
        param: { name: "token", in: "path" },
        description: "The share token (43 base64url chars).",
        example: "q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw",
      }),
    }),
  },
  responses: {
    200: json(SharedVerificationSchema, "The shared outcome."),
    404: errorResponse(`Every unusable token: \`svc.resource.not_found\`, "${NOT_SHARED}"`),
  },
});

/** A capability's answers are for its holder only: never cached, never sent on as a referrer, never indexed. */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" };

export function register(app: Router) {
  app.openapi(getSharedRoute, async (c) => {
    const read = await readSharedVerification(c.var.db, c.req.valid("param").token);
    if (read.kind === "unusable") throw new ApiError("svc.resource.not_found", NOT_SHARED, { headers: PRIVATE_HEADERS });
    for (const [k, v] of Object.entries(PRIVATE_HEADERS)) c.header(k, v);
    return c.json(read.projection, 200);
  });
}
