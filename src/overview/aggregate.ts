import type { Bindings } from "../env";
import { aggregateDays, DAY_MS, earliestRow, floorDay, tenantsBehind } from "./repo";

/*
 * The overview's daily pre-aggregate (cron sweep). A tenant with a million jobs made GET /v1/overview?range=12m take
 * about two seconds counting rows (bench/overview.mjs); with whole days pre-counted it reads a few thousand counter
 * rows plus the last days' rows. Only days that ended SETTLE_DAYS ago are aggregated, when most jobs they created
 * have reached their final state; what changes later in an aggregated day (a late state change, a deletion) shows
 * after resetOverviewAggregate. Each figure's `freshness` names the aggregate's computation time.
 */

/** Days are aggregated once they ended this many days ago (younger days are always counted from the rows). */
export const SETTLE_DAYS = 2;
/** Per run: this many tenants, each advanced by at most this many days (bounded work per cron run). */
const TENANTS_PER_RUN = 10;
const DAYS_PER_STEP = 92;

/** The first day that is not yet settled at `now`: days before it may be aggregated. */
export function aggregateHorizon(now: number): number {
  return floorDay(now) - SETTLE_DAYS * DAY_MS;
}

/** One bounded sweep: the tenants furthest behind each advance by up to DAYS_PER_STEP days. Returns how many advanced. */
export async function sweepOverviewAggregates(env: Pick<Bindings, "DB">, now = Date.now()): Promise<number> {
  const horizon = aggregateHorizon(now);
  let advanced = 0;
  for (const tenant of await tenantsBehind(env.DB, horizon, TENANTS_PER_RUN)) {
    // First run for a tenant: from its oldest row's day (rows may predate the tenant record: imports, tests).
    const earliest = tenant.through_day === null ? await earliestRow(env.DB, tenant.id) : null;
    const from = tenant.through_day ?? Math.min(floorDay(earliest ?? horizon), horizon);
    const to = Math.min(horizon, from + DAYS_PER_STEP * DAY_MS);
    if (to < from || (to === from && tenant.through_day !== null)) continue;
    await aggregateDays(env.DB, tenant.id, from, to, now);
    advanced += 1;
  }
  return advanced;
}
