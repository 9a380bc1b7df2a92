import { z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { recordAudit } from "../../platform/audit";
import { publicOrigin } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { readBoundedBody } from "../../platform/raw-body";
import { paymentsConfig } from "../payments/config";
import { PaymentsCallbackResponseSchema } from "../payments/schemas";
import { handleCallback, paymentsProvider } from "../payments/service";

/** Largest callback body accepted (413 above). */
export const MAX_CALLBACK_BYTES = 256 * 1024;

const PATH = "/webhooks/payments";

export function register(app: Router) {
  // Documented through the registry, served by a plain handler: the signature covers the exact raw bytes, so no
  // validator may read (and re-serialise) the body first.
  app.openAPIRegistry.registerPath({
    method: "post",
    path: PATH,
    operationId: "receivePaymentsCallback",
    tags: ["Billing"],
    summary: "Payments provider callback",
    description:
      "For the payments provider, not for customers. The credential is the `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<exact raw body>\">`, several `v1` values and several configured secrets accepted during rotation, 300 seconds tolerance, compared in constant time. Events are deduplicated by event id: a replay answers `duplicate: true` and changes nothing. `checkout.session.completed` with `payment_status: paid` (or `checkout.session.async_payment_succeeded` for delayed payment methods) credits an open top-up intent's amount to the wallet exactly once, or sets a subscription's plan and provider customer; an unpaid completion moves nothing; `charge.refunded` debits what its cumulative `amount_refunded` adds to the charge's earlier refunds (never more than the top-up) and `charge.dispute.created` debits the disputed amount; other types are recorded as `ignored`. The tenant always comes from the intent the event references (`metadata.svc_intent_id` / `client_reference_id`), never from free text. Bodies up to 256 KiB.",
    request: {
      headers: z.object({
        "stripe-signature": z.string().max(4096).openapi({
          description: "`t=<unix seconds>,v1=<hex HMAC-SHA256>` (v1 repeated during secret rotation).",
          example: "t=1764064800,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
        }),
      }),
      body: {
        required: true,
        content: {
          "application/json": { schema: { type: "object", description: "A Stripe-shaped event: `{id, type, data: {object}}`." } },
        },
      },
    },
    responses: {
      202: json(PaymentsCallbackResponseSchema, "Received: applied, ignored, or a duplicate."),
      400: errorResponse("`svc.billing.signature_invalid` (missing, wrong or stale signature) or `svc.billing.event_invalid`."),
      409: errorResponse("`svc.billing.identity_conflict`: the event's tenant, customer, session or amount does not match its intent."),
      413: errorResponse("`svc.request.too_large`: body over 256 KiB."),
      503: errorResponse(
        "`svc.billing.verification_unavailable`: no provider or signing secret configured; or `svc.billing.provider_unavailable`: a dispute names only its charge and the provider could not be asked which intent it belongs to (the provider retries).",
      ),
    },
  });

  app.post(PATH, async (c) => {
    const config = paymentsConfig(c.env);
    if (!config.mode || config.webhookSecrets.length === 0) throw new ApiError("svc.billing.verification_unavailable");
    const bytes = await readBoundedBody(c.req.raw, MAX_CALLBACK_BYTES);
    if (!bytes) throw new ApiError("svc.request.too_large", `Payment callbacks are limited to ${MAX_CALLBACK_BYTES} bytes.`);
    let raw: string;
    try {
      raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new ApiError("svc.billing.signature_invalid");
    }
    const provider = paymentsProvider(config, publicOrigin(c));
    const result = await handleCallback({ db: c.var.db, config, provider, log: c.var.log }, raw, c.req.header("stripe-signature"));
    switch (result.status) {
      case "accepted":
        // What changed a wallet is audited in that tenant's log, by the provider (its event id as the actor).
        if (result.applied) {
          await recordAudit(c.env, result.applied.tenantId, {
            action: "payment.event_applied",
            outcome: "succeeded",
            actorKind: "payment_provider",
            actorId: result.eventId,
            credentialId: null,
            requestId: c.var.requestId,
            targetType: result.applied.intentId ? "billing_intent" : null,
            targetId: result.applied.intentId,
            statusCode: 202,
            detail: { event_type: result.applied.type },
          });
        }
        return c.json({ event_id: result.eventId, state: result.state, duplicate: result.duplicate }, 202);
      case "unavailable":
        throw new ApiError("svc.billing.verification_unavailable");
      case "signature_invalid":
        throw new ApiError("svc.billing.signature_invalid");
      case "event_invalid":
        throw new ApiError("svc.billing.event_invalid");
      case "conflict":
        throw new ApiError("svc.billing.identity_conflict");
      case "provider_unreachable":
        throw new ApiError(
          "svc.billing.provider_unavailable",
          "The payments provider could not be reached to resolve the event; retry later.",
        );
    }
  });
}
