/*
 * The overview's reads (issue #18): one statement per figure group, each filtered on the tenant first and answered from
 * a covering index (tenant_id, created_at, counted column; migration 0030), so a count never reads the table rows.
 * Every statement counts two windows at once, the requested range and the previous range of equal length, so the
 * comparison costs no extra query. Windows are [start, end) in ms.
 *
 * Whole UTC days before a tenant's aggregate reach come from overview_daily (the cron sweep's pre-aggregate, see
 * aggregate.ts); the rest (the last two days at least, and the partial days at the range edges) from the rows.
 * (Per-day counters kept by triggers were tried and dropped: D1's `meta.changes` counts trigger writes, and the
 * guarded writes of jobs, assets and webhook deliveries rely on `changes === 1`.)
 */

/** The requested range and the previous one of equal length, as ms since the epoch. Invariant: previousStart < start < end. */
export interface Windows {
  previousStart: number;
  start: number;
  end: number;
}

/** Counts per key in the current and the previous window. */
export interface WindowCounts {
  current: Record<string, number>;
  previous: Record<string, number>;
}

type CountRow = { k: string | null; current: number; n: number };

function split(rows: CountRow[]): WindowCounts {
  const out: WindowCounts = { current: {}, previous: {} };
  for (const row of rows) {
    const side = row.current === 1 ? out.current : out.previous;
    const key = row.k ?? "unknown";
    side[key] = (side[key] ?? 0) + row.n;
  }
  return out;
}

export const DAY_MS = 86_400_000;
export const floorDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
export const ceilDay = (t: number) => Math.ceil(t / DAY_MS) * DAY_MS;

/** The counted tables: their overview_daily figure and counted column (constants: never from input). */
const COUNTED = {
  jobs: { figure: "jobs", key: "state" },
  verifications: { figure: "verifications", key: "overall" },
  assets: { figure: "assets", key: "kind" },
  webhook_deliveries: { figure: "webhook_deliveries", key: "status" },
} as const;
type Counted = keyof typeof COUNTED;

/** How far a tenant's daily pre-aggregate reaches (overview_aggregates); `throughDay` 0 when there is none. */
export interface AggregateReach {
  throughDay: number;
  oldestComputedAt: number | null;
}

export async function aggregateReach(d1: D1Database, tenantId: string): Promise<AggregateReach> {
  const row = await d1
    .prepare("SELECT through_day, oldest_computed_at FROM overview_aggregates WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ through_day: number; oldest_computed_at: number }>();
  return row ? { throughDay: row.through_day, oldestComputedAt: row.oldest_computed_at } : { throughDay: 0, oldestComputedAt: null };
}

/**
 * Splits [from, to) (with `at` the boundary between the previous and the current window) into whole UTC days read
 * from the pre-aggregate, `[firstDay, lastDay)` minus the day straddling `at`, and the rest, counted from the rows:
 * at most three disjoint ranges (the partial first day, the day straddling `at`, everything from `through` on).
 */
export function planRead(from: number, at: number, to: number, through: number) {
  const firstDay = ceilDay(from);
  const lastDay = Math.max(firstDay, Math.min(through, floorDay(to)));
  const raw: [number, number][] = [
    [from, Math.min(firstDay, to)],
    [Math.max(floorDay(at), from), Math.min(ceilDay(at), to)],
    [Math.max(lastDay, from), to],
  ];
  const live: [number, number][] = [];
  for (const [a, b] of raw.filter(([a, b]) => a < b).sort((x, y) => x[0] - y[0])) {
    const last = live[live.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else live.push([a, b]);
  }
  return { firstDay, lastDay, live };
}

/** `(created_at >= ? AND created_at < ?) OR …` for `count` ranges; `0` (false) for none. */
function ranges(count: number): string {
  return count === 0 ? "0" : Array.from({ length: count }, () => "(created_at >= ? AND created_at < ?)").join(" OR ");
}

/**
 * Counts per key of `table` created in the current window [start, end) and the previous one [previousStart, start):
 * whole days before the tenant's aggregate reach from overview_daily, the rest from the rows (covering index).
 * One statement (D1 caps compound SELECTs at a few terms: the row ranges are OR-ed in one SELECT).
 */
async function countByWindow(d1: D1Database, table: Counted, tenantId: string, w: Windows, through: number): Promise<WindowCounts> {
  const { figure, key } = COUNTED[table];
  const plan = planRead(w.previousStart, w.start, w.end, through);
  const rows = await d1
    .prepare(
      `SELECT k, current, SUM(n) AS n FROM (
         SELECT key AS k, day_start >= ?2 AS current, n FROM overview_daily
          WHERE tenant_id = ?1 AND figure = '${figure}' AND day_start >= ?3 AND day_start < ?4
            AND NOT (day_start < ?2 AND day_start + ${DAY_MS} > ?2)
         UNION ALL
         SELECT ${key} AS k, created_at >= ?2 AS current, 1 AS n FROM ${table} WHERE tenant_id = ?1 AND (${ranges(plan.live.length)})
       ) GROUP BY 1, 2`,
    )
    .bind(tenantId, w.start, plan.firstDay, plan.lastDay, ...plan.live.flat())
    .all<CountRow>();
  return split(rows.results);
}

/** Jobs created in each window, by their state now (as of the aggregate's computation for aggregated days). */
export function jobsByState(d1: D1Database, tenantId: string, w: Windows, through = 0): Promise<WindowCounts> {
  return countByWindow(d1, "jobs", tenantId, w, through);
}

/** Verifications made in each window, by overall outcome. */
export function verificationsByOutcome(d1: D1Database, tenantId: string, w: Windows, through = 0): Promise<WindowCounts> {
  return countByWindow(d1, "verifications", tenantId, w, through);
}

/** Assets created in each window, by media family. */
export function assetsByKind(d1: D1Database, tenantId: string, w: Windows, through = 0): Promise<WindowCounts> {
  return countByWindow(d1, "assets", tenantId, w, through);
}

/** One bucket of the activity series: its label (`YYYY-MM-DD` or `YYYY-MM`, UTC) and counts. */
export interface ActivityRow {
  bucket: string;
  jobs: number;
  verifications: number;
  assets: number;
}

/** Jobs, verifications and assets created in the current window, per UTC day or month: one statement. */
export async function activitySeries(
  d1: D1Database,
  tenantId: string,
  w: Windows,
  unit: "day" | "month",
  through = 0,
): Promise<ActivityRow[]> {
  const format = unit === "day" ? "%Y-%m-%d" : "%Y-%m";
  const label = (ms: string) => `strftime('${format}', ${ms} / 1000, 'unixepoch')`;
  const plan = planRead(w.start, w.start, w.end, through);
  const live = (table: Counted) =>
    `SELECT ${label("created_at")} AS bucket, '${COUNTED[table].figure}' AS what, 1 AS n FROM ${table} WHERE tenant_id = ?1 AND (${ranges(plan.live.length)})`;
  const tables: Counted[] = ["jobs", "verifications", "assets"];
  const rows = await d1
    .prepare(
      `SELECT bucket, what, SUM(n) AS n FROM (
         SELECT ${label("day_start")} AS bucket, figure AS what, n FROM overview_daily
          WHERE tenant_id = ?1 AND figure IN ('jobs', 'verifications', 'assets') AND day_start >= ?2 AND day_start < ?3
         ${tables.map((t) => `UNION ALL ${live(t)}`).join(" ")}
       ) GROUP BY 1, 2`,
    )
    .bind(tenantId, plan.firstDay, plan.lastDay, ...tables.flatMap(() => plan.live.flat()))
    .all<{ bucket: string; what: "jobs" | "verifications" | "assets"; n: number }>();
  const byBucket = new Map<string, ActivityRow>();
  for (const row of rows.results) {
    const entry = byBucket.get(row.bucket) ?? { bucket: row.bucket, jobs: 0, verifications: 0, assets: 0 };
    entry[row.what] += row.n;
    byBucket.set(row.bucket, entry);
  }
  return [...byBucket.values()];
}

/** Webhook health: deliveries created in each window by status, and the tenant's endpoints by state (now). */
export interface WebhookCounts {
  deliveries: WindowCounts;
  endpoints: Record<string, number>;
}

export async function webhookCounts(d1: D1Database, tenantId: string, w: Windows, through = 0): Promise<WebhookCounts> {
  const [deliveries, endpoints] = await Promise.all([
    countByWindow(d1, "webhook_deliveries", tenantId, w, through),
    d1
      .prepare("SELECT state AS k, COUNT(*) AS n FROM webhook_endpoints WHERE tenant_id = ? GROUP BY 1")
      .bind(tenantId)
      .all<{ k: string; n: number }>(),
  ]);
  return { deliveries, endpoints: Object.fromEntries(endpoints.results.map((r) => [r.k, r.n])) };
}

/** The tenant's plan and wallet (µUSD), null members when there is no account or no wallet yet. */
export interface QuotaRow {
  planId: string | null;
  walletEnabled: number | null;
  balanceMicros: number | null;
  reservedMicros: number | null;
  monthSpendMicros: number | null;
  spendMonth: string | null;
  monthlySpendLimitMicros: number | null;
  autoRechargeThresholdMicros: number | null;
  updatedAt: number | null;
}

export async function quotaOf(d1: D1Database, tenantId: string): Promise<QuotaRow> {
  const row = await d1
    .prepare(
      `SELECT b.plan_id AS planId, w.enabled AS walletEnabled, w.balance_micros AS balanceMicros, w.reserved_micros AS reservedMicros,
              w.month_spend_micros AS monthSpendMicros, w.spend_month AS spendMonth, w.monthly_spend_limit_micros AS monthlySpendLimitMicros,
              w.auto_recharge_threshold_micros AS autoRechargeThresholdMicros, w.updated_at AS updatedAt
         FROM (SELECT ?1 AS tenant_id) t
         LEFT JOIN billing_accounts b ON b.tenant_id = t.tenant_id
         LEFT JOIN wallets w ON w.tenant_id = t.tenant_id`,
    )
    .bind(tenantId)
    .first<QuotaRow>();
  return row!;
}

/** API keys still active whose expiry falls within [now, until). */
export async function keysExpiring(d1: D1Database, tenantId: string, now: number, until: number): Promise<number> {
  const row = await d1
    .prepare("SELECT COUNT(*) AS n FROM api_keys WHERE tenant_id = ? AND status = 'active' AND expires_at >= ? AND expires_at < ?")
    .bind(tenantId, now, until)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Governance flags: what the governance records say about the tenant, in one statement: the audit log (entries in
 * the current window, the newest entry's time), legal holds in force (account-wide and per asset), deletions queued
 * or running, and the newest export (its state and completion time).
 */
export interface GovernanceFlagsRow {
  auditEntries: number;
  lastAuditAt: number | null;
  accountHolds: number;
  assetHolds: number;
  deletionsPending: number;
  lastExportState: string | null;
  lastExportCompletedAt: number | null;
}

export async function governanceFlags(d1: D1Database, tenantId: string, w: Windows): Promise<GovernanceFlagsRow> {
  const row = await d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM audit_events WHERE tenant_id = ?1 AND occurred_at >= ?2 AND occurred_at < ?3) AS auditEntries,
              (SELECT MAX(occurred_at) FROM audit_events WHERE tenant_id = ?1) AS lastAuditAt,
              (SELECT COUNT(*) FROM legal_holds WHERE tenant_id = ?1 AND released_at IS NULL AND scope = 'account') AS accountHolds,
              (SELECT COUNT(*) FROM legal_holds WHERE tenant_id = ?1 AND released_at IS NULL AND scope = 'asset') AS assetHolds,
              (SELECT COUNT(*) FROM governance_deletions WHERE tenant_id = ?1 AND state IN ('queued', 'running')) AS deletionsPending,
              (SELECT state FROM governance_exports WHERE tenant_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1) AS lastExportState,
              (SELECT completed_at FROM governance_exports WHERE tenant_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1) AS lastExportCompletedAt`,
    )
    .bind(tenantId, w.start, w.end)
    .first<GovernanceFlagsRow>();
  return row!;
}

/** The creation time of the tenant's oldest counted row (any figure), or null when it has none. */
export async function earliestRow(d1: D1Database, tenantId: string): Promise<number | null> {
  const row = await d1
    .prepare(
      `SELECT MIN(t) AS t FROM (${(Object.keys(COUNTED) as Counted[])
        .map((table) => `SELECT MIN(created_at) AS t FROM ${table} WHERE tenant_id = ?1`)
        .join(" UNION ALL ")})`,
    )
    .bind(tenantId)
    .first<{ t: number | null }>();
  return row?.t ?? null;
}

/** Tenants whose aggregate reaches least far (none yet first) and is behind `horizon`: the sweep's next work. */
export async function tenantsBehind(d1: D1Database, horizon: number, limit: number) {
  const rows = await d1
    .prepare(
      `SELECT t.id, t.created_at, a.through_day FROM tenants t LEFT JOIN overview_aggregates a ON a.tenant_id = t.id
        WHERE a.through_day IS NULL OR a.through_day < ? ORDER BY COALESCE(a.through_day, 0), t.id LIMIT ?`,
    )
    .bind(horizon, limit)
    .all<{ id: string; created_at: number; through_day: number | null }>();
  return rows.results;
}

/**
 * Aggregates the tenant's days [fromDay, toDay) of every figure and moves its reach to `toDay`, in one batch (all or
 * nothing): the days' old rows are replaced, so re-aggregating a day (after resetOverviewAggregate) is exact.
 */
export async function aggregateDays(d1: D1Database, tenantId: string, fromDay: number, toDay: number, now: number): Promise<void> {
  const day = `(created_at / ${DAY_MS}) * ${DAY_MS}`;
  await d1.batch([
    d1.prepare("DELETE FROM overview_daily WHERE tenant_id = ? AND day_start >= ? AND day_start < ?").bind(tenantId, fromDay, toDay),
    ...(Object.keys(COUNTED) as Counted[]).map((table) =>
      d1
        .prepare(
          `INSERT INTO overview_daily (tenant_id, figure, day_start, key, n, computed_at)
           SELECT tenant_id, '${COUNTED[table].figure}', ${day}, ${COUNTED[table].key}, COUNT(*), ?4 FROM ${table}
            WHERE tenant_id = ?1 AND created_at >= ?2 AND created_at < ?3 GROUP BY 3, 4`,
        )
        .bind(tenantId, fromDay, toDay, now),
    ),
    d1
      .prepare(
        `INSERT INTO overview_aggregates (tenant_id, through_day, oldest_computed_at, updated_at) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (tenant_id) DO UPDATE SET through_day = ?2, oldest_computed_at = MIN(oldest_computed_at, ?3), updated_at = ?3`,
      )
      .bind(tenantId, toDay, now),
  ]);
}

/**
 * Forgets a tenant's pre-aggregate, so the next sweeps rebuild it from the rows. For whoever changes old rows in bulk
 * (a governance deletion): until then the overview shows the aggregated days as of their computation.
 */
export async function resetOverviewAggregate(d1: D1Database, tenantId: string): Promise<void> {
  await d1.batch([
    d1.prepare("DELETE FROM overview_aggregates WHERE tenant_id = ?").bind(tenantId),
    d1.prepare("DELETE FROM overview_daily WHERE tenant_id = ?").bind(tenantId),
  ]);
}
