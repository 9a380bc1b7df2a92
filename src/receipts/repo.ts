import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { keysetPage } from "../db/keyset";
import { receipts } from "../db/schema";
import type { PageRequest } from "../platform/pagination";

/** A receipt as stored: `evidence` is the JSON the publication transaction wrote, never changed afterwards. */
export type ReceiptRow = typeof receipts.$inferSelect;

export async function getReceipt(db: Database, tenantId: string, receiptId: string) {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, receiptId)))
    .limit(1);
  return row ?? null;
}

export async function listReceipts(
  db: Database,
  tenantId: string,
  filters: { asset_id?: string | undefined; job_id?: string | undefined },
  page: PageRequest,
) {
  const where = and(
    eq(receipts.tenantId, tenantId),
    filters.asset_id ? eq(receipts.assetId, filters.asset_id) : undefined,
    filters.job_id ? eq(receipts.jobId, filters.job_id) : undefined,
  );
  return keysetPage(db, receipts, where, page);
}
