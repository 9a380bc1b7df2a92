import type { OpenAPIHono } from "@hono/zod-openapi";
import { VERIFY_FILE_MAXIMUM_BYTES as VERIFY_MAX_BYTES } from "../catalog/limits";
import type { AppEnv } from "../platform/context";
import { buildVerifyPage, type VerifyPage } from "./page";

let built: Promise<VerifyPage> | null = null;

/** The page and its hashes, built once per isolate (everything in it is static). */
function verifyPage(): Promise<VerifyPage> {
  built ??= buildVerifyPage({ maxBytes: VERIFY_MAX_BYTES }).catch((err: unknown) => {
    built = null;
    throw err;
  });
  return built;
}

/**
 * GET /verify: the public verify page. A plain Hono route like /docs, so it stays out of the OpenAPI API
 * operations (listed in META_PATHS; `GET /verify` is `auth: none` in the policy table).
 */
export function registerVerifyPage(app: OpenAPIHono<AppEnv>) {
  app.get("/verify", async (c) => {
    const page = await verifyPage();
    return c.body(page.html, 200, page.headers);
  });
}
