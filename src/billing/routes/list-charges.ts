import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { json } from "../../platform/openapi";
import { pageOf, pageRequest } from "../../platform/pagination";
import { listCharges } from "../repo/wallet";
import { ChargesPageSchema } from "../schemas";
import { chargeView } from "../service/views";

const route = createRoute({
  method: "get",
  path: "/v1/billing/charges",
  operationId: "listBillingCharges",
  tags: ["Billing"],
  summary: "List charges",
  description:
    "The tenant's charges, newest first: one per published job whose reservation was settled from the wallet, with its priced lines. `before` is the opaque `next_before` of the previous page (HMAC-bound to this tenant and list, valid 24 hours; snapshot-consistent: charges settled after the first page are not included). An unusable `before` answers 422 `svc.cursor.invalid`.",
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ description: "Page size, 1 to 100.", example: 50 }),
      before: z.string().optional().openapi({ description: "`next_before` of the previous page." }),
    }),
  },
  responses: { 200: json(ChargesPageSchema, "One page of charges.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const binding = { tenantId, collection: "billing_charges" };
    const secret = c.env.SVC_CURSOR_SECRET;
    const page = await pageRequest(
      secret,
      binding,
      { cursor: query.before, limit: query.limit },
      Date.now(),
      releasedCheck(c.var.db, tenantId),
    ).catch((error: unknown) => {
      // Name the parameter the client actually sent.
      if (error instanceof ApiError && error.code === "svc.cursor.invalid")
        throw new ApiError("svc.cursor.invalid", error.message, {
          fieldDetails: [{ location: "query", field: "before", code: "invalid_cursor", message: "Unusable cursor." }],
        });
      throw error;
    });
    const rows = await listCharges(c.var.db, tenantId, page);
    const { rows: items, nextCursor } = await pageOf(secret, binding, page, rows);
    return c.json(
      { items: items.map(chargeView), next_before: nextCursor, currency: "USD" as const, provider_charge_created: false as const },
      200,
    );
  });
}
