import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { captureCapability } from "../../capture/trust";
import { registryFor } from "../../catalog/installed";
import { json } from "../../platform/openapi";
import { CapabilitiesResponseSchema } from "../schemas";
import { capabilitiesView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/capabilities",
  operationId: "getCapabilities",
  tags: ["Capabilities"],
  summary: "Capability discovery",
  description:
    "The authority for what this deployment accepts now: formats, recipes, watermark and fingerprint algorithms, each with its availability.",
  responses: { 200: json(CapabilitiesResponseSchema, "Capabilities of this deployment.") },
});

export function registerGetCapabilities(app: Router) {
  app.openapi(route, (c) => c.json(capabilitiesView(registryFor(c.env), captureCapability(c.env)), 200));
}
