import type { Micros } from "../money";

/** How payments are composed: `provider` live money, `sandbox` the provider's test mode, `simulation` inert and local. */
export type PaymentsMode = "simulation" | "sandbox" | "provider";

/** What a checkout asks the provider for. Amounts in whole cents (the provider's unit), never floats. */
export interface CheckoutRequest {
  intentId: string;
  tenantId: string;
  purpose: "subscription" | "wallet_top_up";
  /** Subscription: the plan id and the provider's price for it. */
  plan: { id: string; priceId: string | null } | null;
  /** Top-up: the amount in cents (1,000–1,000,000). */
  amountCents: number | null;
  successUrl: string;
  cancelUrl: string;
  /** The account's provider customer, when one was provisioned earlier. */
  customerId: string | null;
}

/** What a billing-portal session asks for. */
export interface PortalRequest {
  intentId: string;
  tenantId: string;
  returnUrl: string;
  customerId: string | null;
}

/** A session the provider created: where to send the customer, until when. */
export interface ProviderSession {
  /** The provider's session id (checkout `cs_…`), or null when the provider has none (simulation portal). */
  sessionId: string | null;
  /** The page to redirect to, or null when there is nothing to act on. */
  url: string | null;
  expiresAt: number;
  /** The customer the session is for, when the provider created or used one (saved on the account). */
  customerId: string | null;
}

/**
 * An adapter's answer. `rejected`: the provider refused our credentials or answered something we cannot use (502);
 * `unreachable`: it could not be reached or timed out (503). `detail` is for logs only: no personal data, no secret.
 */
export type ProviderResult<T> =
  | { status: "ok"; value: T }
  | { status: "rejected"; detail: string }
  | { status: "unreachable"; detail: string };

/**
 * The payments provider behind checkout and portal intents. Invariant: creating a session never moves money and
 * never changes a wallet or an account (money moves only when the provider's signed callback reaches
 * POST /webhooks/payments); every session carries the intent id (client reference and metadata), which is how a
 * callback finds its tenant; an adapter never throws for provider failures, it answers `rejected` or
 * `unreachable`.
 */
export interface PaymentsProvider {
  readonly mode: PaymentsMode;
  createCheckout(request: CheckoutRequest): Promise<ProviderResult<ProviderSession>>;
  createPortal(request: PortalRequest): Promise<ProviderResult<ProviderSession>>;
  /**
   * The intent id a charge carries in its metadata (null when none), for events that name only the charge (a
   * provider's dispute objects carry no metadata of their own). Absent when every event carries its intent.
   */
  intentOfCharge?(chargeId: string): Promise<ProviderResult<string | null>>;
}

/** A verified callback, reduced to what the service acts on (provider-neutral). */
export type PaymentEvent =
  | {
      kind: "checkout_completed";
      eventId: string;
      type: string;
      intentId: string | null;
      tenantRef: string | null;
      sessionId: string | null;
      customerId: string | null;
      /** `payment` (top-up) or `subscription`. */
      sessionMode: string | null;
      amountTotalCents: number | null;
      currency: string | null;
      /** Stripe's `payment_status`: only `paid` (or `no_payment_required` for a subscription) moves anything. */
      paymentStatus: string | null;
    }
  | {
      kind: "debit";
      eventId: string;
      type: string;
      reason: "refund" | "dispute";
      intentId: string | null;
      tenantRef: string | null;
      /** Dispute: the amount disputed. Refund: the charge's cumulative `amount_refunded` (the debit is the increase). */
      amount: Micros;
      /** The charge the debit concerns, to find the intent when the object carries no metadata (a provider's disputes). */
      chargeId: string | null;
    }
  | { kind: "other"; eventId: string; type: string };
