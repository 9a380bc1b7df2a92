import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { ensureAccount, findWallet } from "../repo/accounts";
import { AccountSchema } from "../schemas";
import { accountView, paymentsModeOf } from "../service/views";

const route = createRoute({
  method: "get",
  path: "/v1/billing/account",
  operationId: "getBillingAccount",
  tags: ["Billing"],
  summary: "Get the billing account",
  description:
    "The tenant's plan, status, caps and periods. The account is created with the default plan (`payg`) on first read. `current_service_period_*` is the UTC calendar month usage and month-to-date spend count. `portal_available` is true only when a sandbox or live payments provider is configured and the account has a provider customer.",
  responses: { 200: json(AccountSchema, "The account.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const now = Date.now();
    const account = await ensureAccount(c.var.db, tenantId, now);
    const wallet = await findWallet(c.var.db, tenantId);
    return c.json(accountView(account, wallet, paymentsModeOf(c.env), now), 200);
  });
}
