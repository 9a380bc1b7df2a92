import Stripe from "stripe";
import type { CheckoutRequest, PaymentsProvider, PortalRequest, ProviderResult, ProviderSession } from "./types";

/** Fetch as the Stripe client calls it; tests hand a stand-in. */
export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface StripePaymentsOptions {
  mode: "sandbox" | "provider";
  secretKey: string;
  /** A local stand-in of the Stripe API (tests, development). */
  apiBase: URL | null;
  fetch?: FetchFn;
  now?: () => number;
}

/** Portal sessions carry no expiry; Stripe's are short-lived, so the intent says five minutes. */
const PORTAL_TTL_MS = 5 * 60 * 1000;

/**
 * Stripe Checkout Sessions (subscriptions and one-off top-ups), the billing portal and customers, through the
 * official `stripe` package on its fetch client (it runs on Workers). Every session carries the intent id as
 * `client_reference_id` and `metadata.svc_intent_id` (top-ups also on the PaymentIntent, so its charges carry it).
 */
export class StripePayments implements PaymentsProvider {
  readonly mode: "sandbox" | "provider";
  private readonly client: Stripe;
  private readonly now: () => number;

  constructor(options: StripePaymentsOptions) {
    this.mode = options.mode;
    this.now = options.now ?? Date.now;
    // Looked up per call, so the global fetch in force at request time is the one used.
    const fetchFn: FetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    const base = options.apiBase;
    this.client = new Stripe(options.secretKey, {
      httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
      // One attempt: the caller answers 503 and the client retries with the same Idempotency-Key.
      maxNetworkRetries: 0,
      timeout: 10_000,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === "http:" ? 80 : 443),
            protocol: base.protocol === "http:" ? "http" : "https",
          }
        : {}),
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<ProviderResult<ProviderSession>> {
    return this.call(async () => {
      const customerId = request.customerId ?? (await this.createCustomer(request.tenantId, request.intentId));
      const metadata = { svc_intent_id: request.intentId, svc_tenant_id: request.tenantId };
      const common = {
        client_reference_id: request.intentId,
        customer: customerId,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata,
      };
      const session =
        request.purpose === "wallet_top_up"
          ? await this.client.checkout.sessions.create(
              {
                ...common,
                mode: "payment",
                line_items: [
                  {
                    quantity: 1,
                    price_data: { currency: "usd", unit_amount: request.amountCents!, product_data: { name: "Wallet top-up" } },
                  },
                ],
                payment_intent_data: { metadata },
              },
              { idempotencyKey: `svc-checkout-${request.intentId}` },
            )
          : await this.client.checkout.sessions.create(
              {
                ...common,
                mode: "subscription",
                line_items: [{ quantity: 1, price: request.plan!.priceId! }],
                subscription_data: { metadata },
              },
              { idempotencyKey: `svc-checkout-${request.intentId}` },
            );
      if (typeof session?.id !== "string" || typeof session.url !== "string" || !/^https?:\/\//.test(session.url))
        return { status: "rejected", detail: "checkout session without id or url" };
      const expiresAt = typeof session.expires_at === "number" ? session.expires_at * 1000 : this.now() + 24 * 3600 * 1000;
      return { status: "ok", value: { sessionId: session.id, url: session.url, expiresAt, customerId } };
    });
  }

  async createPortal(request: PortalRequest): Promise<ProviderResult<ProviderSession>> {
    return this.call(async () => {
      const customerId = request.customerId ?? (await this.createCustomer(request.tenantId, request.intentId));
      const session = await this.client.billingPortal.sessions.create(
        { customer: customerId, return_url: request.returnUrl },
        { idempotencyKey: `svc-portal-${request.intentId}` },
      );
      if (typeof session?.id !== "string" || typeof session.url !== "string" || !/^https?:\/\//.test(session.url))
        return { status: "rejected", detail: "portal session without id or url" };
      return { status: "ok", value: { sessionId: null, url: session.url, expiresAt: this.now() + PORTAL_TTL_MS, customerId } };
    });
  }

  async intentOfCharge(chargeId: string): Promise<ProviderResult<string | null>> {
    return this.call(async () => {
      const charge = await this.client.charges.retrieve(chargeId);
      if (typeof charge?.id !== "string") return { status: "rejected", detail: "charge without id" };
      const ref = charge.metadata?.svc_intent_id;
      return { status: "ok", value: typeof ref === "string" ? ref : null };
    });
  }

  private async createCustomer(tenantId: string, intentId: string): Promise<string> {
    // Only the tenant id: no personal data goes to the provider from here.
    const customer = await this.client.customers.create(
      { metadata: { svc_tenant_id: tenantId } },
      { idempotencyKey: `svc-customer-${intentId}` },
    );
    if (typeof customer?.id !== "string" || !customer.id) throw new BadAnswer("customer without id");
    return customer.id;
  }

  /** Maps the client's failures: unreachable or 5xx → `unreachable` (503); credentials, refusals, bad bodies → `rejected` (502). */
  private async call<T>(run: () => Promise<ProviderResult<T>>): Promise<ProviderResult<T>> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof BadAnswer) return { status: "rejected", detail: error.message };
      if (error instanceof Stripe.errors.StripeConnectionError) return { status: "unreachable", detail: "connection failed" };
      if (error instanceof Stripe.errors.StripeError) {
        const status = error.statusCode ?? 0;
        if (status >= 500 || status === 429) return { status: "unreachable", detail: `provider answered ${status}` };
        return { status: "rejected", detail: `provider answered ${status || "unusably"} (${error.type})` };
      }
      return { status: "rejected", detail: "unexpected provider answer" };
    }
  }
}

class BadAnswer extends Error {}
