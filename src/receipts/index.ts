import { createRoute, z } from "@hono/zod-openapi";
import { anchorProofOf } from "../anchoring/log";
import type { Bindings } from "../env";
import { releasedCheck } from "../history/snapshots";
import { createRouter, notFound, principalOf } from "../platform/context";
import { idSchema } from "../platform/ids";
import { json, NOT_FOUND } from "../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../platform/pagination";
import { getReceipt, listReceipts, type ReceiptRow, receiptView } from "./queries";
import { ReceiptPageSchema, ReceiptResponseSchema } from "./schemas";

const getRoute = createRoute({
  method: "get",
  path: "/v1/receipts/{receipt_id}",
  operationId: "getReceipt",
  tags: ["Assets"],
  summary: "Get a receipt",
  description: "The evidence a completed job recorded when it published.",
  request: { params: z.object({ receipt_id: idSchema("receipt", "Receipt id.").openapi({ param: { name: "receipt_id", in: "path" } }) }) },
  responses: { 200: json(ReceiptResponseSchema, "The receipt."), ...NOT_FOUND },
});

const listRoute = createRoute({
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

/** The receipt with its publication's place in the transparency log (read live: sealing happens after publication). */
async function withAnchor(env: Bindings, row: ReceiptRow) {
  const view = receiptView(row);
  const publicationId = (view.evidence as { publication_id?: string }).publication_id;
  return { ...view, evidence: { ...view.evidence, anchor: publicationId ? await anchorProofOf(env, publicationId) : null } };
}

export function receiptRoutes() {
  const app = createRouter();
  app.openapi(listRoute, async (c) => {
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
  app.openapi(getRoute, async (c) => {
    const row = await getReceipt(c.var.db, principalOf(c).tenantId, c.req.valid("param").receipt_id);
    if (!row) throw notFound("receipt");
    return c.json(await withAnchor(c.env, row), 200);
  });
  return app;
}
