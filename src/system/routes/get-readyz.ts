import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { checkDeployment } from "../deployment";
import { databaseAnswers } from "../probes";
import { ReadinessResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/readyz",
  operationId: "getReadyz",
  tags: ["Health"],
  summary: "Readiness",
  description:
    "200 when D1 answers and the deployment is completely configured (required secrets present; in production also the signing credentials and no development material); otherwise 503 with a bounded body that names no dependency.",
  responses: {
    200: json(ReadinessResponseSchema, "Ready to serve."),
    503: json(ReadinessResponseSchema, "A required adapter is unavailable."),
  },
});

export function registerGetReadyz(app: Router) {
  app.openapi(route, async (c) =>
    checkDeployment(c.env).ready && (await databaseAnswers(c.env))
      ? c.json({ status: "ready" as const }, 200)
      : c.json({ status: "unavailable" as const }, 503),
  );
}
