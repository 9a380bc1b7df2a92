import { describe, expect, it } from "vitest";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, hookedEnv, pendingDeliveries } from "../support/webhooks.helpers";

/*
 * #19: the engine's set-wise statements on webhook_deliveries name their rows by id; SQLite must find them by the
 * primary key. With an index of endpoint or status usable as well, it walked every delivery of the endpoint or
 * every one in that status (at 50,000 deliveries a claim of 20 took 13 ms of SQLite instead of 0.4). The plans are
 * read from the database itself (EXPLAIN QUERY PLAN), for the SQL the engine actually sent.
 */

/** The plan of `sql`, with every parameter bound to NULL (the plan does not depend on the values). */
async function planOf(sql: string): Promise<string[]> {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  const rows = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

/**
 * The statements that read or write webhook_deliveries rows named by an id list (bound marks or one JSON list), as sent in `batches` (not the
 * endpoint's streak reset, whose EXISTS finds a record's rows by their shared updated_at).
 */
const byIdList = (batches: string[][]) =>
  [...new Set(batches.flat())].filter(
    (q) =>
      /webhook_deliveries/.test(q) &&
      /\bid IN \((\?|SELECT (j\.)?value( ->> 0)? FROM json_each\(\?\))/.test(q.replace(/\s+/g, " ")) &&
      !/^\s*UPDATE webhook_endpoints/.test(q),
  );

describe("#19 the engine's statements find deliveries by id", () => {
  it("load, claim and record search webhook_deliveries by its primary key only", async () => {
    const { tenantId } = await createTenant();
    const [endpointId] = await activeEndpoints(tenantId, 1);
    const ids = await pendingDeliveries(tenantId, endpointId!, 4);
    const batches: string[][] = [];
    const env = hookedEnv({
      batch: (sqls, send) => {
        batches.push(sqls);
        return send();
      },
    });
    const fetcher: typeof fetch = async () => new Response("ok", { status: 200 });
    expect((await deliverBatch(env, ids, { fetcher, random: () => 0.5 })).every((e) => e === null)).toBe(true);
    const statements = byIdList(batches);
    // The load (deliveries and their bodies), the claim, the record of the acknowledged attempts.
    expect(statements.some((q) => /SET status = 'delivering'/.test(q))).toBe(true);
    expect(statements.some((q) => /SET status = 'delivered'/.test(q))).toBe(true);
    expect(statements.some((q) => /SELECT id, body FROM webhook_events/.test(q))).toBe(true);
    for (const sql of statements) {
      const searches = (await planOf(sql)).filter((d) => /webhook_deliveries|\bd\b/.test(d) && /SEARCH|SCAN/.test(d));
      expect(searches.length, sql).toBeGreaterThan(0);
      for (const d of searches) expect(d, sql).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_webhook_deliveries_1 \(id=\?\)/);
    }
  });
});
