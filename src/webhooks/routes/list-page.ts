import { releasedCheck } from "../../history/repo";
import type { AppContext } from "../../platform/context";
import { type CursorBinding, type PageRequest, pageOf, pageRequest } from "../../platform/pagination";

/**
 * One page of a webhook list keyed by (created_at, id), newest first: the cursor is bound to the tenant and
 * `collection` (the list plus its filters), honours a released traversal, and `read` fetches one row more than the
 * page so the next cursor is known. Invariant: `next_cursor` is null exactly when `read` returned no more than a page.
 */
export async function listPage<Row extends { created_at: number; id: string }, View>(
  c: AppContext,
  binding: CursorBinding,
  query: { cursor?: string | undefined; limit: number },
  read: (page: PageRequest) => Promise<Row[]>,
  view: (row: Row) => View,
): Promise<{ data: View[]; next_cursor: string | null }> {
  const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, binding.tenantId));
  const rows = await read({ ...page, limit: page.limit + 1 });
  const { rows: items, nextCursor } = await pageOf(
    c.env.SVC_CURSOR_SECRET,
    binding,
    page,
    rows.map((r) => ({ ...r, createdAt: r.created_at })),
  );
  return { data: items.map(view), next_cursor: nextCursor };
}
