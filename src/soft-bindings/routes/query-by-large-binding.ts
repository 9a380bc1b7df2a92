import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { MaxResultsParam, ScopeParam, SoftBindingQueryResultSchema, SoftBindingQuerySchema } from "../schemas";
import { matchByBinding } from "../service";
import { chargeContentLookup, lookupOptions, matchesOrThrow, RESOLUTION_PREFIX, registry, TAG } from "./shared";

/** The body is JSON: anything else answers 415 before it is parsed. */
const jsonOnly: MiddlewareHandler = async (c, next) => {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!/^application\/([\w.-]+\+)?json$/.test(type))
    throw new ApiError("svc.request.unsupported_media_type", "Send the soft binding query as application/json.");
  await next();
};

const route = createRoute({
  method: "post",
  path: `${RESOLUTION_PREFIX}/matches/byBinding`,
  operationId: "queryByLargeBinding",
  tags: [TAG],
  middleware: [jsonOnly] as const,
  summary: "Returns C2PA Manifest identifiers corresponding to a large soft binding value.",
  description:
    "The same query as GET /matches/byBinding with `alg` and `value` in a JSON body (C2PA `queryByLargeBinding`), for values too large for a URL. `maxResults` and `scope` stay in the query string.",
  request: {
    query: z.object({ maxResults: MaxResultsParam, scope: ScopeParam }),
    body: {
      required: true,
      description: "Soft binding query JSON document.",
      content: { "application/json": { schema: SoftBindingQuerySchema } },
    },
  },
  responses: {
    200: json(SoftBindingQueryResultSchema, "Successful operation."),
    400: errorResponse(
      "Invalid query value: a missing or malformed field or unparsable JSON (`svc.resolution.invalid_request`, with `field_details`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`).",
    ),
    401: errorResponse(
      "`scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`).",
    ),
    413: errorResponse("The body is larger than 1 MiB (`svc.request.too_large`)."),
    415: errorResponse("The body is not application/json (`svc.request.unsupported_media_type`)."),
  },
});

export function registerQueryByLargeBinding(app: Router) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const body = c.req.valid("json");
    const options = lookupOptions(c, query);
    await chargeContentLookup(c, "binding");
    const result = await matchByBinding(c.env.DB, registry(c), { alg: body.alg, value: body.value }, options);
    return c.json(matchesOrThrow(result, "body"), 200);
  });
}
