import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { ensureAccount, findWallet, monthOf } from "../repo/accounts";
import { chargesInPeriod } from "../repo/wallet";
import { UsageSchema } from "../schemas";
import { usageView } from "../service/usage";

const route = createRoute({
  method: "get",
  path: "/v1/usage",
  operationId: "getUsage",
  tags: ["Billing"],
  summary: "Get usage and availability",
  description:
    "Authoritative usage for the current metering period (the UTC calendar month): the period's charges (the same settled reservations GET /v1/billing/charges lists) by media family and operation, with job counts, exact unit totals and amounts; `total_usd` equals the sum of those charges. Availability: `credit_balance_usd` (balance − reserved) for a metered tenant (wallet opted in and enabled), or the plan's hard `caps` for an unmetered one.",
  responses: { 200: json(UsageSchema, "Usage and availability.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const now = Date.now();
    const period = monthOf(now);
    const [account, wallet, rows] = await Promise.all([
      ensureAccount(c.var.db, tenantId, now),
      findWallet(c.var.db, tenantId),
      chargesInPeriod(c.var.db, tenantId, period.start, period.end),
    ]);
    return c.json(usageView(account, wallet, rows, period), 200);
  });
}
