import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { newId } from "./ids";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** Every response, errors included, carries a fresh request id (never taken from the client). */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  await next();
  c.res.headers.set(REQUEST_ID_HEADER, id);
};
