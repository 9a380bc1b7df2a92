import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { governanceAuthorities } from "../probes";
import { GovernanceReadinessResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/readyz/governance",
  operationId: "getReadyzGovernance",
  tags: ["Health"],
  summary: "Governance readiness",
  description: "Readiness of the governance authorities. 200 when all are ready, otherwise 503; both carry the same body.",
  responses: {
    200: json(GovernanceReadinessResponseSchema, "All authorities ready."),
    503: json(GovernanceReadinessResponseSchema, "At least one authority is not ready."),
  },
});

export function registerGetReadyzGovernance(app: Router) {
  app.openapi(route, (c) => {
    const authorities = governanceAuthorities();
    const ready = Object.values(authorities).every(Boolean);
    return ready
      ? c.json({ ...authorities, status: "ready" as const }, 200)
      : c.json({ ...authorities, status: "not_ready" as const }, 503);
  });
}
