import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Bindings } from "../env";
import type { OperationPolicy } from "./auth/policy";
import { ApiError } from "./errors";
import type { AuthenticatedPrincipal, Principal } from "./principal";
import { validationHook } from "./validation";

export interface Variables {
  requestId: string;
  principal: Principal;
  /** The policy entry of the operation being served (set by the auth middleware). */
  operation: { key: string; policy: OperationPolicy } | null;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;

/** A router for one API area; mounted with `app.route()`. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** The authenticated caller of a bearer operation (the auth middleware guarantees one). */
export function principalOf(c: AppContext): AuthenticatedPrincipal {
  const principal = c.get("principal");
  if (principal?.kind !== "api_key") throw new Error("bearer operation reached without an authenticated principal");
  return principal;
}

/** Public origin for absolute links. */
export function publicOrigin(c: AppContext): string {
  return (c.env.SVC_PUBLIC_BASE_URL ?? new URL(c.req.url).origin).replace(/\/+$/, "");
}

export function notFound(what = "resource"): ApiError {
  return new ApiError("svc.resource.not_found", `The ${what} does not exist for this tenant.`);
}
