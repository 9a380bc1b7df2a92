import { createRouter } from "../platform/context";
import * as createCheckoutIntent from "./routes/create-checkout-intent";
import * as createPortalIntent from "./routes/create-portal-intent";
import * as createQuote from "./routes/create-quote";
import * as getAccount from "./routes/get-account";
import * as getPricing from "./routes/get-pricing";
import * as getUsage from "./routes/get-usage";
import * as getWallet from "./routes/get-wallet";
import * as listCharges from "./routes/list-charges";
import * as listPlans from "./routes/list-plans";
import * as paymentsCallback from "./routes/payments-callback";
import * as putWalletSettings from "./routes/put-wallet-settings";

/**
 * Billing and usage (SPEC "Billing", issue #17): account, plans, pricing, quotes, the prepaid wallet and its
 * settings, charges, checkout and portal intents, usage, and the payments provider's callback.
 */
export function billingRoutes() {
  const app = createRouter();
  for (const route of [
    getAccount,
    listPlans,
    getPricing,
    createQuote,
    getWallet,
    putWalletSettings,
    listCharges,
    createCheckoutIntent,
    createPortalIntent,
    getUsage,
    paymentsCallback,
  ] as {
    register(app: ReturnType<typeof createRouter>): void;
  }[])
    route.register(app);
  return app;
}
