import type { Hook } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { registryFor } from "../../catalog/installed";
import { CONTENT_LOOKUP_MAXIMUM_BYTES, PUBLIC_VERIFY_PER_MINUTE } from "../../catalog/limits";
import type { AppContext } from "../../platform/context";
import { ApiError, FORBIDDEN_SCOPE_DETAIL, HttpProblem } from "../../platform/errors";
import { chargeCaller } from "../../platform/rate-limit";
import { fieldDetailsOf } from "../../platform/validation";
import { MAX_MATCHES } from "../repo";
import type { ContentMatchResult, LookupOptions, ResolutionMatch } from "../service";
import { lookupScope, type RequestedLookupScope } from "../service";

/** Where the C2PA paths are served: the API's `servers[].url` for a C2PA client is `<origin>/v1/soft-binding-resolution`. */
export const RESOLUTION_PREFIX = "/v1/soft-binding-resolution";
/** The one operation that takes media (bounded like POST /v1/verify, not by the 1 MiB JSON limit). */
export const BY_CONTENT_PATH = `${RESOLUTION_PREFIX}/matches/byContent`;
export const BY_CONTENT_MAX_BYTES = CONTENT_LOOKUP_MAXIMUM_BYTES;
/** Longer query strings answer 414 (C2PA: "Query too long, consider using POST instead"). */
export const MAX_QUERY_STRING = 4096;
export const TAG = "Soft binding resolution (C2PA)";

/** Contract violations answer 400 `svc.resolution.invalid_request`, as the C2PA API specifies (not our usual 422). */
// biome-ignore lint: generic hook signature
export const resolutionHook: Hook<any, any, any, any> = (result) => {
  if (!result.success) {
    const details = fieldDetailsOf(result.error as ZodError, result.target);
    throw new ApiError(
      "svc.resolution.invalid_request",
      `The request ${details[0]?.location ?? "input"} is invalid: ${details.map((d) => d.field).join(", ")}.`,
      {
        fieldDetails: details,
      },
    );
  }
};

/** The lookup options of a request: its scope (by the lookupScope policy) and its bounded maxResults. */
export function lookupOptions(c: AppContext, query: { scope?: RequestedLookupScope; maxResults: number }): LookupOptions {
  const decision = lookupScope(c.get("principal"), query.scope);
  if (decision.status === "credential_required") throw new ApiError("svc.resolution.credential_required");
  if (decision.status === "scope_missing") throw new HttpProblem(403, FORBIDDEN_SCOPE_DETAIL);
  return { filter: decision.filter, maxResults: Math.min(query.maxResults, MAX_MATCHES) };
}

export function registry(c: AppContext) {
  return registryFor(c.env);
}

/** The matches of a lookup, or its refusal as an error envelope; `location` is where `alg` and `value` were sent. */
export function matchesOrThrow(result: ContentMatchResult, location: "query" | "body"): { matches: ResolutionMatch[] } {
  switch (result.status) {
    case "ok":
      return { matches: result.matches };
    case "algorithm_unsupported":
      throw new ApiError("svc.resolution.algorithm_unsupported", result.message);
    case "invalid_value":
      throw new ApiError("svc.resolution.invalid_request", result.message, {
        fieldDetails: [{ location, field: result.field, code: "invalid_value", message: result.message }],
      });
    case "unsupported_asset_type":
      throw new ApiError("svc.resolution.unsupported_asset_type", result.message);
    case "too_large":
      throw new ApiError("svc.request.too_large", result.message);
  }
}

/**
 * Lookups (by content: decoding and analysing media; by binding: index reads) are rate limited like POST /v1/verify, in their own
 * RateLimiter buckets: per tenant with a key (SVC_VERIFY_TENANT_RATE_PER_MINUTE, default 600), else per
 * network address (a keyed hash of it, never the address; PUBLIC_VERIFY_PER_MINUTE).
 */
/** Anonymous byBinding lookups per minute per network address. */
export const PUBLIC_BINDING_LOOKUPS_PER_MINUTE = 120;

export function chargeContentLookup(c: AppContext, kind: "content" | "binding" = "content") {
  // Without a key: the caller's network address, or the unattributed buckets when none is known (client-address.ts).
  // A binding lookup reads the index only (no media work): a looser public limit than content lookups.
  const publicPerMinute = kind === "content" ? PUBLIC_VERIFY_PER_MINUTE : PUBLIC_BINDING_LOOKUPS_PER_MINUTE;
  return chargeCaller(c, {
    family: `sbr_${kind}`,
    publicPerMinute,
    code: "svc.resolution.rate_limited",
    noun: "lookups",
    policy: `soft-binding-${kind}`,
  });
}
