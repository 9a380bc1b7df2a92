import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../platform/context";
import { onError } from "../platform/error-mapper";
import { ApiError } from "../platform/errors";
import { registerGetManifest } from "./routes/get-manifest";
import { registerGetSupportedAlgorithms } from "./routes/get-supported-algorithms";
import { registerQueryByBinding } from "./routes/query-by-binding";
import { registerQueryByContent } from "./routes/query-by-content";
import { registerQueryByLargeBinding } from "./routes/query-by-large-binding";

import { resolutionHook } from "./routes/shared";

export { BY_CONTENT_PATH, RESOLUTION_PREFIX } from "./routes/shared";

/**
 * The C2PA Soft Binding Resolution API (C2PA 2.2 "Soft Binding API" §1.4), served under
 * `/v1/soft-binding-resolution` with the C2PA paths, parameters, fields and status codes unchanged below it.
 */
export function softBindingResolutionRoutes() {
  // Contract violations answer 400 `svc.resolution.invalid_request` here (C2PA), not the usual 422.
  const app = new OpenAPIHono<AppEnv>({ defaultHook: resolutionHook });
  registerQueryByBinding(app);
  registerQueryByLargeBinding(app);
  registerQueryByContent(app);
  registerGetManifest(app);
  registerGetSupportedAlgorithms(app);
  // Unparsable JSON is a contract violation, which this API answers with 400 (C2PA), not the usual 422.
  app.onError((err, c) =>
    onError(
      err instanceof HTTPException && err.status === 400
        ? new ApiError("svc.resolution.invalid_request", "The request body could not be parsed.", {
            fieldDetails: [{ location: "body", field: "(root)", code: "invalid_body", message: err.message }],
          })
        : err,
      c,
    ),
  );
  return app;
}
