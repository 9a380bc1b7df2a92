/*
 * The overview's reads (issue #18): one statement per figure group (webhooks: two, run concurrently), each filtered on
 * the tenant first. Counts come from overview_daily (per-day counters kept exact by triggers, migration 0030) for whole
 * UTC days and from the rows themselves for the partial days at the range edges, so a tenant with a million jobs costs
 * a few hundred counter rows plus under three days of rows. Every statement counts two windows at once, the requested
 * range and the previous range of equal length, so the comparison costs no extra query. Windows are [start, end) in ms.
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
const floorDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const ceilDay = (t: number) => Math.ceil(t / DAY_MS) * DAY_MS;

/** The counted tables: their overview_daily figure and counted column (constants: never from input). */
const COUNTED = {
  jobs: { figure: "jobs", key: "state" },
  verifications: { figure: "verifications", key: "overall" },
  assets: { figure: "assets", key: "kind" },
  webhook_deliveries: { figure: "webhook_deliveries", key: "status" },
} as const;
type Counted = keyof typeof COUNTED;

/**
 * The pieces of [from, to) that are not whole UTC days, split at `at` (the boundary between the previous and the
 * current window): at most three short ranges counted from the rows themselves. Every whole day not straddling `at`
 * comes from overview_daily.
 */
function partialPieces(from: number, at: number, to: number): [number, number][] {
  const pieces: [number, number][] = [
    [from, Math.min(ceilDay(from), at)],
    [Math.max(floorDay(at), from), Math.min(ceilDay(at), to)],
    [Math.max(floorDay(to), at), to],
  ];
  return pieces.filter(([a, b]) => a < b);
}

/** `(created_at >= ? AND created_at < ?) OR …` for `count` ranges; `0` (false) for none. */
function ranges(count: number): string {
  return count === 0 ? "0" : Array.from({ length: count }, () => "(created_at >= ? AND created_at < ?)").join(" OR ");
}

/**
 * Counts per key of `table` created in the current window [start, end) and the previous one [previousStart, start):
 * whole days from the per-day counters, partial edge days from the rows (each an index range of under a day).
 * Exact: the counters move in the same transaction as the rows. One statement.
 */
async function countByWindow(d1: D1Database, table: Counted, tenantId: string, w: Windows): Promise<WindowCounts> {
  const { figure, key } = COUNTED[table];
  const pieces = partialPieces(w.previousStart, w.start, w.end);
  // D1 caps compound SELECTs at a few terms: the edge pieces are one SELECT over OR-ed index ranges.
  const live = `SELECT ${key} AS k, created_at >= ?2 AS current, 1 AS n FROM ${table} WHERE tenant_id = ?1 AND (${ranges(pieces.length)})`;
  const rows = await d1
    .prepare(
      `SELECT k, current, SUM(n) AS n FROM (
         SELECT key AS k, day_start >= ?2 AS current, n FROM overview_daily
          WHERE tenant_id = ?1 AND figure = '${figure}' AND day_start >= ?3 AND day_start + ${DAY_MS} <= ?4
            AND NOT (day_start < ?2 AND day_start + ${DAY_MS} > ?2)
         UNION ALL ${live}
       ) GROUP BY 1, 2`,
    )
    .bind(tenantId, w.start, ceilDay(w.previousStart), w.end, ...pieces.flat())
    .all<CountRow>();
  return split(rows.results.filter((r) => r.n !== 0));
}

/** Jobs created in each window, by their state now. */
export function jobsByState(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "jobs", tenantId, w);
}

/** Verifications made in each window, by overall outcome. */
export function verificationsByOutcome(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "verifications", tenantId, w);
}

/** Assets created in each window, by media family. */
export function assetsByKind(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "assets", tenantId, w);
}

/** One bucket of the activity series: its label (`YYYY-MM-DD` or `YYYY-MM`, UTC) and counts. */
export interface ActivityRow {
  bucket: string;
  jobs: number;
  verifications: number;
  assets: number;
}

/**
 * Jobs, verifications and assets created in the current window, per UTC day or month: whole days from the per-day
 * counters, the two partial edge days from the rows. One statement.
 */
export async function activitySeries(d1: D1Database, tenantId: string, w: Windows, unit: "day" | "month"): Promise<ActivityRow[]> {
  const format = unit === "day" ? "%Y-%m-%d" : "%Y-%m";
  const label = (ms: string) => `strftime('${format}', ${ms} / 1000, 'unixepoch')`;
  const pieces = partialPieces(w.start, w.start, w.end);
  const live = (table: Counted) =>
    `SELECT ${label("created_at")} AS bucket, '${COUNTED[table].figure}' AS what, 1 AS n FROM ${table} WHERE tenant_id = ?1 AND (${ranges(pieces.length)})`;
  const tables: Counted[] = ["jobs", "verifications", "assets"];
  const rows = await d1
    .prepare(
      `SELECT bucket, what, SUM(n) AS n FROM (
         SELECT ${label("day_start")} AS bucket, figure AS what, n FROM overview_daily
          WHERE tenant_id = ?1 AND figure IN ('jobs', 'verifications', 'assets') AND day_start >= ?2 AND day_start + ${DAY_MS} <= ?3
         ${tables.map((t) => `UNION ALL ${live(t)}`).join(" ")}
       ) GROUP BY 1, 2`,
    )
    .bind(tenantId, ceilDay(w.start), w.end, ...tables.flatMap(() => pieces.flat()))
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

/** Deliveries as countByWindow, and endpoints by state now (two statements, concurrently). */
export async function webhookCounts(d1: D1Database, tenantId: string, w: Windows): Promise<WebhookCounts> {
  const [deliveries, endpoints] = await Promise.all([
    countByWindow(d1, "webhook_deliveries", tenantId, w),
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
 * Governance flags: what the governance records say about the tenant. Today: the audit log (entries in the current
 * window, the newest entry's time). Extension point (#18 lead, after the governance parts merge): add legal holds in
 * force, deletions pending and exports in the window here as further columns of this one statement, and their
 * fields in the overview's `governance` schema.
 */
export interface GovernanceFlagsRow {
  auditEntries: number;
  lastAuditAt: number | null;
}

export async function governanceFlags(d1: D1Database, tenantId: string, w: Windows): Promise<GovernanceFlagsRow> {
  const row = await d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM audit_events WHERE tenant_id = ?1 AND occurred_at >= ?2 AND occurred_at < ?3) AS auditEntries,
              (SELECT MAX(occurred_at) FROM audit_events WHERE tenant_id = ?1) AS lastAuditAt`,
    )
    .bind(tenantId, w.start, w.end)
    .first<GovernanceFlagsRow>();
  return row!;
}
