import { createRouter } from "../platform/context";

/**
 * Billing and usage (SPEC "Billing", issue #17): account, plans, pricing, quotes, the prepaid wallet and its
 * settings, charges, checkout and portal intents, usage, and the payments provider's callback.
 */
export function billingRoutes() {
  const app = createRouter();
  for (const route of [] as { register(app: ReturnType<typeof createRouter>): void }[]) route.register(app);
  return app;
}
