import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { idSchema } from "../../platform/ids";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listReceipts } from "../repo";
import { ReceiptPageSchema } from "../schemas";
import { withAnchor } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/receipts",
  operationId: "listReceipts",
  tags: ["History"],
  summary: "List receipts",
  description: "Newest first, snapshot-consistent.",
  request: {
    query: z.object({
      asset_id: idSchema("asset", "Only receipts of this asset.").optional(),
      job_id: idSchema("job", "Only the receipt of this job.").optional(),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(ReceiptPageSchema, "One page of receipts.") },
});

export function registerListReceipts(app: Router) {
  app.openapi(route, async (c) => {
    const { asset_id, job_id, cursor, limit } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const binding = { tenantId, collection: `receipts?asset_id=${asset_id ?? ""}&job_id=${job_id ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(db, tenantId));
    const { rows, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      await listReceipts(db, tenantId, { asset_id, job_id }, page),
    );
    return c.json({ items: await Promise.all(rows.map((r) => withAnchor(c.env, r))), next_cursor: nextCursor }, 200);
  });
}
