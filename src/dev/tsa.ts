import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { isDevelopment } from "../env";
import type { DevTimestampResponder } from "../media/c2pa/tsa-dev-port";
import { ApiError } from "../platform/errors";
import { errorResponse } from "../platform/openapi";
import { respondTimestamp } from "./tsa-responder";

/** What the wiring installs into media's port (tsa-dev-port.ts): the signer's TSA URL "internal" answers here. */
export const devTsa: DevTimestampResponder = respondTimestamp;

/** RFC 3161 requests are a few hundred bytes; anything much larger is not one. */
const MAX_REQUEST_BYTES = 16 * 1024;

const route = createRoute({
  method: "post",
  path: "/dev/tsa",
  operationId: "postDevTimestamp",
  tags: ["Development"],
  summary: "Development time-stamping authority (RFC 3161)",
  description:
    "Development deployments only: answers an RFC 3161 TimeStampReq (`application/timestamp-query`) with a TimeStampResp signed by the dev TSA certificate (chained to `.svc/dev-root.pem`), so local tools can timestamp as the signer does. Absent (404) in production.",
  request: {
    body: {
      content: { "application/timestamp-query": { schema: z.string().openapi({ format: "binary", description: "DER TimeStampReq." }) } },
      required: true,
    },
  },
  responses: {
    200: {
      description: "DER TimeStampResp.",
      content: { "application/timestamp-reply": { schema: z.string().openapi({ format: "binary", description: "DER TimeStampResp." }) } },
    },
    404: errorResponse("Not a development deployment, or no dev TSA configured."),
  },
});

export function registerPostDevTsa(app: Router) {
  app.openapi(route, async (c) => {
    if (!isDevelopment(c.env) || !c.env.SVC_TSA_CHAIN_PEM || !c.env.SVC_TSA_KEY_PEM) {
      throw new ApiError("svc.route.not_found", "No operation at POST /dev/tsa in this deployment.");
    }
    const body = new Uint8Array(await c.req.arrayBuffer());
    if (body.length === 0 || body.length > MAX_REQUEST_BYTES) throw new ApiError("svc.request.invalid", "Send one DER TimeStampReq.");
    let reply: Uint8Array;
    try {
      reply = await respondTimestamp(body, { chainPem: c.env.SVC_TSA_CHAIN_PEM, keyPkcs8Pem: c.env.SVC_TSA_KEY_PEM }, new Date());
    } catch {
      throw new ApiError("svc.request.invalid", "The body is not a valid RFC 3161 TimeStampReq.");
    }
    return c.body(reply as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/timestamp-reply" });
  });
}
