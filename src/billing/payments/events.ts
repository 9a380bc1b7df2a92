import { MICROS_PER_CENT } from "../money";
import type { PaymentEvent } from "./types";

/*
 * Reading a verified callback body (Stripe's event shape: `{id, object: "event", type, data: {object, previous_attributes?}}`).
 * Only ids and amounts are taken; the tenant is never read from free text: it comes from the intent the event's
 * `metadata.svc_intent_id` / `client_reference_id` names, and metadata.svc_tenant_id is only cross-checked.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 255): string | null => (typeof v === "string" && v.length > 0 && v.length <= max ? v : null);
const cents = (v: unknown): number | null =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 1e12 ? (v as number) : null;
const INTENT_ID = /^bin_[a-z2-7]{16}$/;

function intentRef(object: Json): string | null {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const fromMetadata = str(metadata.svc_intent_id);
  const fromReference = str(object.client_reference_id);
  const ref = fromMetadata ?? fromReference;
  return ref && INTENT_ID.test(ref) ? ref : null;
}

function tenantRef(object: Json): string | null {
  return isObject(object.metadata) ? str(object.metadata.svc_tenant_id) : null;
}

/** The event, or null when the body is not an event we can read (400 `svc.billing.event_invalid`). */
export function parsePaymentEvent(rawBody: string): PaymentEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (!isObject(body)) return null;
  const eventId = str(body.id);
  const type = str(body.type, 100);
  if (!eventId || !type || !/^[!-~]+$/.test(eventId) || !isObject(body.data) || !isObject(body.data.object)) return null;
  const object = body.data.object;

  // A completed checkout, or the later success of a delayed payment method (ACH, SEPA): the same reading.
  if (type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded") {
    const amountTotal = object.amount_total === null || object.amount_total === undefined ? null : cents(object.amount_total);
    if (amountTotal === null && object.amount_total !== null && object.amount_total !== undefined) return null;
    return {
      kind: "checkout_completed",
      eventId,
      type,
      intentId: intentRef(object),
      tenantRef: tenantRef(object),
      sessionId: str(object.id),
      customerId: str(object.customer),
      sessionMode: str(object.mode, 32),
      amountTotalCents: amountTotal,
      currency: str(object.currency, 8),
      paymentStatus: str(object.payment_status, 32),
    };
  }
  if (type === "charge.refunded") {
    // amount_refunded is cumulative; Stripe sends no previous value with charge.refunded, so the debit is computed
    // against what earlier refunds of the charge already debited (repo/payments.ts, atomically).
    const refunded = cents(object.amount_refunded);
    if (refunded === null) return null;
    return {
      kind: "debit",
      eventId,
      type,
      reason: "refund",
      intentId: intentRef(object),
      tenantRef: tenantRef(object),
      amount: refunded * MICROS_PER_CENT,
      chargeId: str(object.id),
    };
  }
  if (type === "charge.dispute.created") {
    const amount = cents(object.amount);
    if (amount === null) return null;
    return {
      kind: "debit",
      eventId,
      type,
      reason: "dispute",
      intentId: intentRef(object),
      tenantRef: tenantRef(object),
      amount: amount * MICROS_PER_CENT,
      chargeId: str(object.charge),
    };
  }
  return { kind: "other", eventId, type };
}
