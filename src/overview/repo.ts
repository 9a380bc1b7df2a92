/*
 * The overview's reads (issue #18): one statement per figure group, each filtered on the tenant first and answered from
 * a covering index (tenant_id, created_at, counted column; migration 0030), so a count never reads the table rows.
 * Every statement counts two windows at once, the requested range and the previous range of equal length, so the
 * comparison costs no extra query. Windows are [start, end) in ms.
 *
 * No pre-aggregate: per-day counters kept by triggers were tried and dropped, because D1's `meta.changes` counts
 * trigger writes and the guarded writes of jobs, assets and webhook deliveries rely on `changes === 1`.
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

/** `SELECT <key>, window, COUNT(*)` over one tenant table's creation time; `table` and `key` are constants of this file. */
async function countByWindow(d1: D1Database, table: string, key: string, tenantId: string, w: Windows): Promise<WindowCounts> {
  const rows = await d1
    .prepare(
      `SELECT ${key} AS k, created_at >= ? AS current, COUNT(*) AS n FROM ${table}
        WHERE tenant_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1, 2`,
    )
    .bind(w.start, tenantId, w.previousStart, w.end)
    .all<CountRow>();
  return split(rows.results);
}

/** Jobs created in each window, by their state now. */
export function jobsByState(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "jobs", "state", tenantId, w);
}

/** Verifications made in each window, by overall outcome. */
export function verificationsByOutcome(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "verifications", "overall", tenantId, w);
}

/** Assets created in each window, by media family. */
export function assetsByKind(d1: D1Database, tenantId: string, w: Windows): Promise<WindowCounts> {
  return countByWindow(d1, "assets", "kind", tenantId, w);
}

/** One bucket of the activity series: its label (`YYYY-MM-DD` or `YYYY-MM`, UTC) and counts. */
export interface ActivityRow {
  bucket: string;
  jobs: number;
  verifications: number;
  assets: number;
}

/** Jobs, verifications and assets created in the current window, per UTC day or month: one statement. */
export async function activitySeries(d1: D1Database, tenantId: string, w: Windows, unit: "day" | "month"): Promise<ActivityRow[]> {
  const format = unit === "day" ? "%Y-%m-%d" : "%Y-%m";
  const part = (table: string, label: string) =>
    `SELECT strftime('${format}', created_at / 1000, 'unixepoch') AS bucket, '${label}' AS what, COUNT(*) AS n FROM ${table}
      WHERE tenant_id = ?1 AND created_at >= ?2 AND created_at < ?3 GROUP BY 1`;
  const rows = await d1
    .prepare(`${part("jobs", "jobs")} UNION ALL ${part("verifications", "verifications")} UNION ALL ${part("assets", "assets")}`)
    .bind(tenantId, w.start, w.end)
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

export async function webhookCounts(d1: D1Database, tenantId: string, w: Windows): Promise<WebhookCounts> {
  const rows = await d1
    .prepare(
      `SELECT 'delivery' AS what, status AS k, created_at >= ?1 AS current, COUNT(*) AS n FROM webhook_deliveries
        WHERE tenant_id = ?2 AND created_at >= ?3 AND created_at < ?4 GROUP BY 2, 3
       UNION ALL
       SELECT 'endpoint', state, 1, COUNT(*) FROM webhook_endpoints WHERE tenant_id = ?2 GROUP BY 2`,
    )
    .bind(w.start, tenantId, w.previousStart, w.end)
    .all<CountRow & { what: "delivery" | "endpoint" }>();
  const endpoints: Record<string, number> = {};
  for (const row of rows.results) if (row.what === "endpoint" && row.k !== null) endpoints[row.k] = row.n;
  return { deliveries: split(rows.results.filter((r) => r.what === "delivery")), endpoints };
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
