import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { findWallet } from "../repo/accounts";
import { recentMovements } from "../repo/wallet";
import { WalletSchema } from "../schemas";
import { walletView } from "../service/views";

/** How many balance movements the wallet shows. */
export const WALLET_TRANSACTIONS = 20;

const route = createRoute({
  method: "get",
  path: "/v1/billing/wallet",
  operationId: "getBillingWallet",
  tags: ["Billing"],
  summary: "Get the prepaid wallet",
  description:
    "Balance, reserved amount (quotes of admitted, unpublished work), month-to-date spend, limits, auto-recharge and the latest 20 balance movements (top-ups, refunds, disputes, adjustments and charges), newest first. Before the tenant opted in: the wallet as it would be (`enabled` false, zero amounts, `version` 0); opt in with PUT /v1/billing/wallet/settings and `expected_version` 0.",
  responses: { 200: json(WalletSchema, "The wallet.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const wallet = await findWallet(c.var.db, tenantId);
    const movements = wallet ? await recentMovements(c.var.db, tenantId, WALLET_TRANSACTIONS) : [];
    return c.json(walletView(wallet, movements, Date.now()), 200);
  });
}
