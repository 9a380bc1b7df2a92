import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { databaseAnswers } from "../probes";
import { DatabaseHealthResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/healthz/db",
  operationId: "getHealthzDb",
  tags: ["Health"],
  summary: "Database connectivity",
  description: "Runs one trivial D1 query bounded to 2 seconds.",
  responses: {
    200: json(DatabaseHealthResponseSchema, "D1 answered."),
    503: json(DatabaseHealthResponseSchema, "D1 did not answer in time."),
  },
});

export function registerGetHealthzDb(app: Router) {
  app.openapi(route, async (c) =>
    (await databaseAnswers(c.env)) ? c.json({ status: "ok" as const }, 200) : c.json({ status: "unavailable" as const }, 503),
  );
}
