import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type Database, database } from "../db/client";
import type { Bindings } from "../env";
import type { OperationPolicy } from "./auth/policy";
import { ApiError } from "./errors";
import { type Logger, withFields } from "./logger";
import type { AuthenticatedPrincipal, Principal } from "./principal";
import { validationHook } from "./validation";

export interface Variables {
  requestId: string;
  /** The D1 database through drizzle, built once per request (set by `contextServices`). */
  db: Database;
  /** The structured logger; every line carries this request's id. */
  log: Logger;
  principal: Principal;
  /** The policy entry of the operation being served (set by the auth middleware). */
  operation: { key: string; policy: OperationPolicy } | null;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;

/** Puts the request's typed services on the context, once: `c.var.db`, `c.var.log`. Runs right after the request id. */
export const contextServices: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("db", database(c.env.DB));
  c.set("log", withFields({ request_id: c.get("requestId") }));
  await next();
};

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
