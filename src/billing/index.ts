import { createRouter } from "../platform/context";
import * as createCheckoutIntent from "./routes/create-checkout-intent";
import * as createPortalIntent from "./routes/create-portal-intent";
import * as paymentsCallback from "./routes/payments-callback";

/**
 * Billing and usage (SPEC "Billing", issue #17): account, plans, pricing, quotes, the prepaid wallet and its
 * settings, charges, checkout and portal intents, usage, and the payments provider's callback.
 */
export function billingRoutes() {
  const app = createRouter();
  for (const route of [createCheckoutIntent, createPortalIntent, paymentsCallback] as {
    register(app: ReturnType<typeof createRouter>): void;
  }[])
    route.register(app);
  return app;
}
