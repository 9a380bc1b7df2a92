import type { CheckoutRequest, PaymentsProvider, PortalRequest, ProviderResult, ProviderSession } from "./types";

/** How long a simulated checkout page stays usable. */
export const SIMULATION_CHECKOUT_TTL_MS = 60 * 60 * 1000;

/**
 * The inert development adapter: no money, no network. A checkout answers a local page (GET
 * /dev/payments/checkout/{intent_id}, development only) whose button sends a signed `checkout.session.completed`
 * through POST /webhooks/payments, the path a provider's callback takes. The portal has nothing to manage: url null.
 */
export class SimulationPayments implements PaymentsProvider {
  readonly mode = "simulation" as const;

  constructor(
    private readonly origin: string,
    private readonly now: () => number = Date.now,
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<ProviderResult<ProviderSession>> {
    // A subscription checkout without a plan has nothing to complete.
    const inert = request.purpose === "subscription" && request.plan === null;
    return {
      status: "ok",
      value: {
        sessionId: `cs_sim_${request.intentId}`,
        url: inert ? null : `${this.origin}/dev/payments/checkout/${request.intentId}`,
        expiresAt: this.now() + SIMULATION_CHECKOUT_TTL_MS,
        customerId: request.customerId,
      },
    };
  }

  async createPortal(request: PortalRequest): Promise<ProviderResult<ProviderSession>> {
    return { status: "ok", value: { sessionId: null, url: null, expiresAt: this.now() + 5 * 60 * 1000, customerId: request.customerId } };
  }
}
