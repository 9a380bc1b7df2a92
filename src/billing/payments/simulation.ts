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

/**
 * The `checkout.session.completed` event the provider would send for a simulated intent, as its exact body. The
 * event id derives from the intent, so completing the same page twice is a duplicate, never a second credit.
 */
export function simulatedCompletionBody(
  intent: { id: string; tenantId: string; purpose: string; amountMicros: number | null; providerSessionId: string | null },
  customerId: string,
  nowMs: number,
): string {
  return JSON.stringify({
    id: `evt_sim_${intent.id}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(nowMs / 1000),
    livemode: false,
    data: {
      object: {
        id: intent.providerSessionId ?? `cs_sim_${intent.id}`,
        object: "checkout.session",
        client_reference_id: intent.id,
        customer: customerId,
        mode: intent.purpose === "wallet_top_up" ? "payment" : "subscription",
        amount_total: intent.amountMicros === null ? null : intent.amountMicros / 10_000,
        currency: "usd",
        payment_status: "paid",
        status: "complete",
        metadata: { svc_intent_id: intent.id, svc_tenant_id: intent.tenantId },
      },
    },
  });
}
