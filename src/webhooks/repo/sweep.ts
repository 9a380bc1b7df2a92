/*
 * The cron sweep's D1 statements: bounded scans for lost messages and bounded retention deletes, each using its
 * index (the ORDER BY names the indexed columns so the scan is the index's order).
 */

/** Events not fanned out and written before `before`, oldest first. */
export async function eventsNotFannedOut(d1: D1Database, before: number, limit: number): Promise<string[]> {
  const events = await d1
    .prepare("SELECT id FROM webhook_events WHERE fanned_out_at IS NULL AND created_at < ? ORDER BY fanned_out_at, created_at LIMIT ?")
    .bind(before, limit)
    .all<{ id: string }>();
  return events.results.map((e) => e.id);
}

/** Pending deliveries due before `before` and deliveries whose claim lapsed before it (up to `limit` each). */
export async function deliveriesOverdue(d1: D1Database, before: number, limit: number): Promise<string[]> {
  // Two indexed scans (status, next_attempt_at) and (status, lease_until), each bounded, rather than one OR.
  const [pending, lapsed] = await d1.batch<{ id: string }>([
    d1
      .prepare(
        "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < ? ORDER BY status, next_attempt_at LIMIT ?",
      )
      .bind(before, limit),
    d1
      .prepare("SELECT id FROM webhook_deliveries WHERE status = 'delivering' AND lease_until < ? ORDER BY status, lease_until LIMIT ?")
      .bind(before, limit),
  ]);
  return [...pending!.results, ...lapsed!.results].map((d) => d.id);
}

/**
 * Deletes (bounded) attempts started, finished deliveries last changed, and fanned-out events with no delivery
 * written, before `before`; and deleted endpoints past their retention at `now` with no delivery left. Returns the
 * rows deleted.
 */
export async function purgeExpired(d1: D1Database, before: number, now: number, limit: number): Promise<number> {
  const results = await d1.batch([
    d1
      .prepare("DELETE FROM webhook_attempts WHERE rowid IN (SELECT rowid FROM webhook_attempts WHERE started_at < ? LIMIT ?)")
      .bind(before, limit * 4),
    // By last change, so a delivery replayed recently is kept with its attempts.
    d1
      .prepare(
        "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE updated_at < ? AND status IN ('delivered', 'failed', 'dead') LIMIT ?)",
      )
      .bind(before, limit),
    d1
      .prepare(
        `DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events e WHERE e.created_at < ? AND e.fanned_out_at IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ?)`,
      )
      .bind(before, limit),
    d1
      .prepare(
        "DELETE FROM webhook_endpoints WHERE state = 'deleted' AND retain_until < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = webhook_endpoints.id)",
      )
      .bind(now),
  ]);
  return results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
}
