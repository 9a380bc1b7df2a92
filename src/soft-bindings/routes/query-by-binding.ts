import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { AlgParam, MaxResultsParam, ScopeParam, SoftBindingQueryResultSchema, ValueParam } from "../schemas";
import { matchByBinding } from "../service";
import { chargeContentLookup, lookupOptions, MAX_QUERY_STRING, matchesOrThrow, RESOLUTION_PREFIX, registry, TAG } from "./shared";

/** A query string too long for GET answers 414 before it is parsed. */
const queryLengthGuard: MiddlewareHandler = async (c, next) => {
  const url = c.req.url;
  const at = url.indexOf("?");
  if (at >= 0 && url.length - at - 1 > MAX_QUERY_STRING) {
    throw new ApiError(
      "svc.resolution.query_too_long",
      `The query string is longer than ${MAX_QUERY_STRING} characters; send the query with POST ${RESOLUTION_PREFIX}/matches/byBinding.`,
    );
  }
  await next();
};

const route = createRoute({
  method: "get",
  path: `${RESOLUTION_PREFIX}/matches/byBinding`,
  operationId: "queryByBinding",
  tags: [TAG],
  middleware: [queryLengthGuard] as const,
  summary: "Returns C2PA Manifest identifiers corresponding to a soft binding.",
  description:
    "Given one soft binding, find zero or more manifest identifiers of published assets matching it (C2PA Soft Binding Resolution API, `queryByBinding`). " +
    "Watermark payloads and ISCC codes match exactly; a PDQ hash matches every published hash within Hamming distance 31, nearest first. " +
    "Anonymous: every tenant's published assets. With an API key holding `recovery:read`, `scope=tenant` narrows the search to your own publications. " +
    "If the value is too large to fit in a URL, use POST.",
  request: {
    query: z.object({ value: ValueParam, alg: AlgParam, maxResults: MaxResultsParam, scope: ScopeParam }),
  },
  responses: {
    200: json(SoftBindingQueryResultSchema, "Successful operation."),
    400: errorResponse(
      "Invalid query value: a missing or malformed parameter (`svc.resolution.invalid_request`, with `field_details`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`).",
    ),
    401: errorResponse(
      "`scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`).",
    ),
    414: errorResponse("Query too long, consider using POST instead (`svc.resolution.query_too_long`)."),
  },
});

export function registerQueryByBinding(app: Router) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const options = lookupOptions(c, query);
    await chargeContentLookup(c, "binding");
    const result = await matchByBinding(c.env.DB, registry(c), { alg: query.alg, value: query.value }, options);
    return c.json(matchesOrThrow(result, "query"), 200);
  });
}
