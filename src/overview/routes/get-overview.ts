import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { OVERVIEW_RANGES, OverviewResponseSchema } from "../schemas";
import { computeOverview } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/overview",
  operationId: "getOverview",
  tags: ["Overview"],
  summary: "Tenant overview",
  description:
    "The tenant's dashboard over a range ending now: jobs by state, verification outcomes, media kinds, webhook health, plan and wallet, governance flags, an activity series, what needs attention, a health summary and a comparison with the previous range of equal length. Each figure group is read live with one statement (`freshness` says when); a group that cannot be read now is null and named in `unavailable`, never invented. Scope `overview:read`. An unknown `range` answers 422.",
  request: {
    query: z.object({
      range: z
        .enum(OVERVIEW_RANGES)
        .default("7d")
        .openapi({ description: "`7d` (default) or `30d`: days back from now; `12m`: twelve calendar months back.", example: "30d" }),
    }),
  },
  responses: { 200: json(OverviewResponseSchema, "The overview.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const { range } = c.req.valid("query");
    return c.json(await computeOverview(c.env.DB, tenantId, range, Date.now(), c.var.log), 200);
  });
}
