import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { QuoteRequestSchema, QuoteResponseSchema } from "../schemas";
import { priceRequest, quoteView } from "../service/views";

const route = createRoute({
  method: "post",
  path: "/v1/billing/quotes",
  operationId: "createBillingQuote",
  tags: ["Billing"],
  summary: "Quote a piece of work",
  description:
    "Prices one piece of work from its media facts under the pricing in force. An estimate only: the charge is priced from the server's own inspection of the uploaded bytes, and excludes subscription, storage, egress and tax. Nothing is written (no payment, reservation or ledger row). `duration_seconds` and `frames_per_second` may be JSON numbers or decimal strings (read exactly). 422 `svc.billing.quote_outside_envelope` when a needed fact is missing or invalid, the pair has no price (e.g. `live`), or the facts are outside the envelope; `field_details` names the field.",
  request: { body: { content: { "application/json": { schema: QuoteRequestSchema } }, required: true } },
  responses: {
    200: json(QuoteResponseSchema, "The quote."),
    422: errorResponse("`svc.billing.quote_outside_envelope` (or a field error)."),
  },
});

export function register(app: Router) {
  app.openapi(route, (c) => {
    const result = priceRequest(c.req.valid("json"));
    if (result.status !== "ok")
      throw new ApiError("svc.billing.quote_outside_envelope", result.message, {
        fieldDetails: [{ location: "body", field: result.field, code: "outside_pricing_envelope", message: result.message }],
      });
    return c.json(quoteView(result), 200);
  });
}
