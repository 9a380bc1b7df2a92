import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type Database, database } from "../db/client";
import { guardStorage } from "../db/storage-guard";
import type { Bindings } from "../env";
import type { OperationPolicy } from "./auth/policy";
import { type Config, configOf } from "./config";
import { ApiError } from "./errors";
import { type Logger, withFields } from "./logger";
import type { AuthenticatedPrincipal, Principal } from "./principal";
import { validationHook } from "./validation";

export interface Variables {
  requestId: string;
  /** The deployment's settings, parsed from env once per env object (set by `contextServices`). */
  config: Config;
  /** The D1 database through drizzle, built once per request (set by `contextServices`). */
  db: Database;
  /** The structured logger; every line carries this request's id. */
  log: Logger;
  principal: Principal;
  /** The policy entry of the operation being served (set by the auth middleware). */
  operation: { key: string; policy: OperationPolicy } | null;
  /**
   * Set by the idempotency middleware before a keyed write runs: it awaits the write's audit append together with
   * its own completion (one wait instead of two in a row), so the audit middleware hands its append over here
   * instead of awaiting it (except a one-time secret's: that answer waits for its entry in the audit middleware).
   * Never rejects: resolves false when the entry could not be appended.
   */
  auditAppend?: { join: true; pending?: Promise<boolean> };
  /**
   * Set by a handler that issued a one-time secret whose issue a retry cannot repeat (a rotation, a create without
   * an Idempotency-Key): undoes what the secret opens (cancels the rotation, revokes or deletes the new resource).
   * The audit middleware calls it when the write's audit entry could not be appended, so the withheld secret leaves
   * no live credential nobody holds and the retry can run the operation again.
   */
  withdrawSecret?: () => Promise<void>;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;

/**
 * Puts the request's typed services on the context, once: `c.var.config`, `c.var.db`, `c.var.log`, over the
 * storage-guarded bindings. Runs right
 * after the request id.
 */
export const contextServices: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Storage calls through guarded bindings, so an outage of D1, R2 or a queue answers 503, not 500 (db/storage-guard.ts).
  c.env = guardStorage(c.env);
  c.set("config", configOf(c.env));
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
  if (principal?.kind !== "api_key" && principal?.kind !== "session")
    throw new Error("bearer operation reached without an authenticated principal");
  return principal;
}

/** Public origin for absolute links. Reads configOf, not c.var.config: error envelopes need it before contextServices ran. */
export function publicOrigin(c: AppContext): string {
  return configOf(c.env).publicBaseUrl ?? new URL(c.req.url).origin;
}

export function notFound(what = "resource"): ApiError {
  return new ApiError("svc.resource.not_found", `The ${what} does not exist for this tenant.`);
}
