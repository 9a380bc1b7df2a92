import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../platform/context";
import { insertRequestLog } from "./repo/request-logs";

/**
 * Records each request made with an API key after it is answered: method, operation template, status and
 * duration. Best effort (a failed write is dropped, never the request) and off the response path.
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = Date.now();
  await next();
  const principal = c.get("principal");
  const operation = c.get("operation");
  if (principal?.kind !== "api_key" || !operation) return;
  const row = {
    requestId: c.get("requestId"),
    tenantId: principal.tenantId,
    apiKeyId: principal.apiKeyId,
    method: c.req.method,
    operation: operation.key.split(" ")[1] ?? operation.key,
    status: c.res.status,
    durationMs: Date.now() - started,
    createdAt: started,
  };
  c.executionCtx.waitUntil(
    insertRequestLog(c.var.db, row).then(
      () => undefined,
      () => undefined,
    ),
  );
};
