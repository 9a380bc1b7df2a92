import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { resolvableAlgorithms } from "../algorithms";
import { SoftBindingAlgListSchema } from "../schemas";
import { RESOLUTION_PREFIX, registry, TAG } from "./shared";

const route = createRoute({
  method: "get",
  path: `${RESOLUTION_PREFIX}/services/supportedAlgorithms`,
  operationId: "getSupportedBindings",
  tags: [TAG],
  summary: "Returns a list of the soft binding algorithms supported by the service.",
  description:
    "The soft binding algorithms this deployment resolves (C2PA `getSupportedBindings`), by the `alg` its manifests carry: exactly those byBinding and byContent accept. Algorithms that are not available here (learned models without weights) are not listed.",
  responses: { 200: json(SoftBindingAlgListSchema, "Successful operation.") },
});

export function registerGetSupportedAlgorithms(app: Router) {
  app.openapi(route, (c) => {
    const all = resolvableAlgorithms(registry(c));
    return c.json(
      {
        watermarks: all.filter((a) => a.kind === "watermark").map((a) => ({ alg: a.alg })),
        fingerprints: all.filter((a) => a.kind === "fingerprint").map((a) => ({ alg: a.alg })),
      },
      200,
    );
  });
}
