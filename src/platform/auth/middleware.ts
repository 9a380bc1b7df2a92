import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { findKeyByHash, touchLastUsed } from "../../api-keys/queries";
import { database } from "../../db/client";
import type { AppEnv } from "../context";
import {
  ApiError,
  FORBIDDEN_IDENTITY_DETAIL,
  FORBIDDEN_SCOPE_DETAIL,
  FORBIDDEN_UNCLASSIFIED_DETAIL,
  HttpProblem,
  UNAUTHORIZED_DETAIL,
} from "../errors";
import { bearerKeyOf, hashApiKeySecret, hashesEqual } from "./keys";
import { openApiPath, policyFor } from "./policy";
import { isScope, type Scope } from "./scopes";

/** The OpenAPI path of the handler that will answer this request, or null when no operation matches. */
function operationPathOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const route = matchedRoutes(c).find((r) => r.method === method);
  return route ? openApiPath(route.path) : null;
}

/**
 * Resolves the caller and enforces the policy table before any handler runs.
 * Invariant: a handler of a bearer operation only ever runs with an authenticated principal that holds the
 * operation's scope; every credential failure answers the same 401 body.
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("principal", { kind: "anonymous" });
  const path = operationPathOf(c);
  if (path === null) {
    c.set("operation", null);
    return next(); // no operation here: the not-found handler answers
  }
  const { key, policy } = policyFor(c.req.method === "HEAD" ? "GET" : c.req.method, path);
  if (!policy) throw new HttpProblem(403, FORBIDDEN_UNCLASSIFIED_DETAIL);
  c.set("operation", { key, policy });
  if (policy.auth === "none" || policy.auth === "capability") return next();

  const pepper = c.env.SVC_KEY_PEPPER;
  if (!pepper) throw new ApiError("svc.auth.unavailable", "Credential verification is unavailable: no key pepper is configured.");

  const presented = bearerKeyOf(c.req.header("authorization"));
  // Hash even a malformed credential so the time taken does not tell malformed from unknown.
  const hash = await hashApiKeySecret(pepper, presented ?? "svc_live_malformed");
  if (!presented) throw new HttpProblem(401, UNAUTHORIZED_DETAIL);

  const db = database(c.env.DB);
  const found = await findKeyByHash(db, hash);
  const now = Date.now();
  if (
    !found ||
    !hashesEqual(found.key.secretHash, hash) ||
    found.key.status !== "active" ||
    (found.key.expiresAt !== null && found.key.expiresAt <= now)
  ) {
    throw new HttpProblem(401, UNAUTHORIZED_DETAIL);
  }
  if (found.tenantStatus !== "active") throw new HttpProblem(403, FORBIDDEN_IDENTITY_DETAIL);

  const scopes = new Set((JSON.parse(found.key.scopes) as string[]).filter(isScope)) as ReadonlySet<Scope>;
  if (!scopes.has(policy.scope)) throw new HttpProblem(403, FORBIDDEN_SCOPE_DETAIL);

  c.set("principal", { kind: "api_key", tenantId: found.key.tenantId, apiKeyId: found.key.id, scopes });
  c.executionCtx.waitUntil(touchLastUsed(db, found.key.id, now).catch(() => undefined));
  return next();
};
