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
  description:
    "Readiness of the governance authorities, each from a real check: `capture_authority` (capture trust is configured and trusts at least one attestation kind), `commercial_authority` (a payments adapter is composed; for Stripe, Stripe answers an authenticated read with its key, checked at most once a minute; the development simulation counts), `derived_index_reconciler` (the soft-binding index reconciler succeeded within the last 15 minutes; it runs with every 5-minute cron). 200 when all are true, otherwise 503; both carry the same body, so the false field names what is missing.",
  responses: {
    200: json(GovernanceReadinessResponseSchema, "All authorities ready."),
    503: json(GovernanceReadinessResponseSchema, "At least one authority is not ready."),
  },
});

export function registerGetReadyzGovernance(app: Router) {
  app.openapi(route, async (c) => {
    const { ready, ...authorities } = await governanceAuthorities(c.env);
    return ready
      ? c.json({ ...authorities, status: "ready" as const }, 200)
      : c.json({ ...authorities, status: "not_ready" as const }, 503);
  });
}
