import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { recentMovements } from "../repo/wallet";
import { WalletSchema, WalletSettingsRequestSchema } from "../schemas";
import { changeSettings } from "../service/settings";
import { walletView } from "../service/views";
import { WALLET_TRANSACTIONS } from "./get-wallet";

const route = createRoute({
  method: "put",
  path: "/v1/billing/wallet/settings",
  operationId: "putBillingWalletSettings",
  tags: ["Billing"],
  summary: "Change the wallet settings (or opt in)",
  description:
    "Optimistic: `expected_version` must equal the wallet's `version` (409 `svc.billing.wallet_version_conflict` otherwise); each change bumps it. `expected_version` 0 opts in: it creates the wallet (version 1, zero balance) with the given settings, after which the tenant's work is metered while `enabled`. `enabled` false opts out, refused with 409 `svc.billing.wallet_opt_out_refused` while the balance is negative or work is reserved. `monthly_spend_limit_usd`: whole cents, null for none, absent to leave it. Auto-recharge: turning it on, or changing its threshold or amount while on, needs a signed-in console session (403 `svc.billing.console_session_required`); an API key may only turn it off or leave it unchanged. Amounts while on: threshold 0.00–10000.00, amount 10.00–10000.00, whole cents (422 otherwise). Answers the wallet.",
  request: { body: { content: { "application/json": { schema: WalletSettingsRequestSchema } }, required: true } },
  responses: {
    200: json(WalletSchema, "The wallet after the change."),
    403: errorResponse("`svc.billing.console_session_required`."),
    409: errorResponse("`svc.billing.wallet_version_conflict` or `svc.billing.wallet_opt_out_refused`."),
    422: errorResponse("A field error (amounts outside their bounds or not whole cents)."),
  },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const { tenantId } = principal;
    // Turning auto-recharge on spends the account's money unattended: only a signed-in person (a console session) may.
    const outcome = await changeSettings(c.var.db, tenantId, { consoleSession: principal.kind === "session" }, c.req.valid("json"));
    switch (outcome.status) {
      case "ok": {
        const movements = await recentMovements(c.var.db, tenantId, WALLET_TRANSACTIONS);
        return c.json(walletView(outcome.wallet, movements, Date.now()), 200);
      }
      case "invalid":
        throw new ApiError("svc.request.invalid", outcome.message, {
          fieldDetails: [{ location: "body", field: outcome.field, code: "invalid_value", message: outcome.message }],
        });
      case "console_session_required":
        throw new ApiError("svc.billing.console_session_required");
      case "version_conflict":
        throw new ApiError(
          "svc.billing.wallet_version_conflict",
          `expected_version does not match the wallet's version ${outcome.currentVersion}.`,
        );
      case "opt_out_refused":
        throw new ApiError("svc.billing.wallet_opt_out_refused");
    }
  });
}
