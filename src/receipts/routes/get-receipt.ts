import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound, principalOf } from "../../platform/context";
import { idSchema } from "../../platform/ids";
import { json, NOT_FOUND } from "../../platform/openapi";
import { getReceipt } from "../repo";
import { ReceiptResponseSchema } from "../schemas";
import { withAnchor } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/receipts/{receipt_id}",
  operationId: "getReceipt",
  tags: ["Assets"],
  summary: "Get a receipt",
  description: "The evidence a completed job recorded when it published.",
  request: { params: z.object({ receipt_id: idSchema("receipt", "Receipt id.").openapi({ param: { name: "receipt_id", in: "path" } }) }) },
  responses: { 200: json(ReceiptResponseSchema, "The receipt."), ...NOT_FOUND },
});

export function registerGetReceipt(app: Router) {
  app.openapi(route, async (c) => {
    const row = await getReceipt(c.var.db, principalOf(c).tenantId, c.req.valid("param").receipt_id);
    if (!row) throw notFound("receipt");
    return c.json(await withAnchor(c.env, row), 200);
  });
}
