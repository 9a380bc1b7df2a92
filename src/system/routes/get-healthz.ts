import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { HealthResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealthz",
  tags: ["Health"],
  summary: "Liveness",
  description: "200 whenever the Worker answers. Probes no dependency.",
  responses: { 200: json(HealthResponseSchema, "The Worker is alive.") },
});

export function registerGetHealthz(app: Router) {
  app.openapi(route, (c) => c.json({ service: "svc", source_revision: c.var.config.sourceRevision, status: "ok" as const }, 200));
}
