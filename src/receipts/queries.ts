import { and, desc, eq, lt, lte, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { receipts } from "../db/schema";
import type { PageRequest } from "../platform/pagination";

export type ReceiptRow = typeof receipts.$inferSelect;

export async function getReceipt(db: Database, tenantId: string, receiptId: string) {
  const [row] = await db.select().from(receipts).where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, receiptId))).limit(1);
  return row ?? null;
}

export async function listReceipts(db: Database, tenantId: string, filters: { asset_id?: string | undefined; job_id?: string | undefined }, page: PageRequest) {
  const after = page.after;
  return db
    .select()
    .from(receipts)
    .where(
      and(
        eq(receipts.tenantId, tenantId),
        lte(receipts.createdAt, page.snapshot),
        filters.asset_id ? eq(receipts.assetId, filters.asset_id) : undefined,
        filters.job_id ? eq(receipts.jobId, filters.job_id) : undefined,
        after ? or(lt(receipts.createdAt, after.createdAt), and(eq(receipts.createdAt, after.createdAt), lt(receipts.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(receipts.createdAt), desc(receipts.id))
    .limit(page.limit + 1);
}

export function receiptView(row: ReceiptRow) {
  return { receipt_id: row.id, asset_id: row.assetId, job_id: row.jobId, created_at: new Date(row.createdAt).toISOString(), evidence: JSON.parse(row.evidence) };
}
