import { type Micros, usd } from "../billing/money";
import { JOB_STATES } from "../jobs/schemas";
import { iso } from "../platform/openapi";
import {
  activitySeries,
  aggregateReach,
  assetsByKind,
  ceilDay,
  DAY_MS,
  type GovernanceFlagsRow,
  governanceFlags,
  jobsByState,
  keysExpiring,
  quotaOf,
  verificationsByOutcome,
  type WindowCounts,
  type Windows,
  webhookCounts,
} from "./repo";
import type { Figure, OverviewBody, OverviewRange } from "./schemas";

/*
 * The tenant overview: one primary-key read of the daily pre-aggregate's reach, then eight figure groups read
 * concurrently, one statement each (webhooks: two), then the derived fields (attention, health, comparison) computed
 * from them. A group whose statement fails is null and named in `unavailable`, with every derived field it feeds;
 * nothing is ever filled in for it.
 */

/** Keys whose expiry falls within this window from now are an attention item. */
export const KEYS_EXPIRING_WITHIN_MS = 14 * DAY_MS;
/** Without an auto-recharge threshold, a wallet is low below this (the minimum top-up). */
const LOW_WALLET_DEFAULT_MICROS: Micros = 10_000_000;

const OUTCOMES = ["valid", "invalid", "indeterminate", "recovered"] as const;

/** Figure groups counted through the daily pre-aggregate (the others always read their records). */
const COUNTED_FIGURES = new Set<string>(["activity", "jobs", "verification_outcomes", "media_kinds", "webhooks"]);

/** The requested range and the previous one; 12m is twelve calendar months back (UTC), the others exact days. */
export function windowsOf(range: OverviewRange, now: number): Windows & { unit: "day" | "month" } {
  let start: number;
  if (range === "12m") {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() - 12);
    start = d.getTime();
  } else start = now - (range === "7d" ? 7 : 30) * DAY_MS;
  return { previousStart: start - (now - start), start, end: now, unit: range === "12m" ? "month" : "day" };
}

/** The labels of every UTC day or month from `start` to `end` (inclusive), oldest first. */
export function bucketLabels(start: number, end: number, unit: "day" | "month"): string[] {
  const labels: string[] = [];
  const d = new Date(start);
  d.setUTCHours(0, 0, 0, 0);
  if (unit === "month") d.setUTCDate(1);
  while (d.getTime() < end) {
    labels.push(d.toISOString().slice(0, unit === "day" ? 10 : 7));
    if (unit === "day") d.setUTCDate(d.getUTCDate() + 1);
    else d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return labels;
}

/** The reads an overview is made of (repo.ts); tests hand a database that fails some of them. */
type Settled<T> = { ok: true; value: T; at: number } | { ok: false; error: string };

async function settle<T>(read: () => Promise<T>): Promise<Settled<T>> {
  try {
    const value = await read();
    return { ok: true, value, at: Date.now() };
  } catch (error) {
    // D1 errors name the statement's problem, never bound values (no tenant data).
    return { ok: false, error: String(error).slice(0, 200) };
  }
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

function change(counts: WindowCounts | null) {
  if (!counts) return null;
  const current = sum(counts.current);
  const previous = sum(counts.previous);
  return { current, previous, change_ratio: previous === 0 ? null : (current - previous) / previous };
}

function complete<K extends string>(keys: readonly K[], counts: Record<string, number>): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, counts[k] ?? 0])) as Record<K, number>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Computes the overview of `tenantId` for `range` at `now`. Every read is filtered on the tenant. Logs nothing of the
 * tenant's data; a failed read is reported through `log` by name only.
 */
export async function computeOverview(
  d1: D1Database,
  tenantId: string,
  range: OverviewRange,
  now: number,
  log: { warn(message: string, fields?: Record<string, unknown>): void } = { warn: () => undefined },
): Promise<OverviewBody> {
  const w = windowsOf(range, now);
  // How far the daily pre-aggregate reaches; without it (none yet, or unreadable) every count reads the rows: slower, as exact.
  const reach = await aggregateReach(d1, tenantId).catch(() => ({ throughDay: 0, oldestComputedAt: null }));
  const through = reach.throughDay;
  const [activity, jobs, outcomes, kinds, webhooks, quota, governance, apiKeys] = await Promise.all([
    settle(() => activitySeries(d1, tenantId, w, w.unit, through)),
    settle(() => jobsByState(d1, tenantId, w, through)),
    settle(() => verificationsByOutcome(d1, tenantId, w, through)),
    settle(() => assetsByKind(d1, tenantId, w, through)),
    settle(() => webhookCounts(d1, tenantId, w, through)),
    settle(() => quotaOf(d1, tenantId)),
    settle(() => governanceFlags(d1, tenantId, w)),
    settle(() => keysExpiring(d1, tenantId, now, now + KEYS_EXPIRING_WITHIN_MS)),
  ]);
  const groups: Record<Figure, Settled<unknown>> = {
    activity,
    jobs,
    verification_outcomes: outcomes,
    media_kinds: kinds,
    webhooks,
    quota,
    governance,
    api_keys: apiKeys,
  };
  const unavailable: string[] = [];
  const errors: string[] = [];
  const freshness: OverviewBody["freshness"] = {};
  for (const [name, group] of Object.entries(groups)) {
    if (!group.ok) {
      errors.push(group.error);
      unavailable.push(name);
      continue;
    }
    // Counted figures whose window reaches into aggregated days are as old as the aggregate's oldest computation.
    const from = name === "activity" ? w.start : w.previousStart;
    const aggregated = COUNTED_FIGURES.has(name) && reach.oldestComputedAt !== null && through > ceilDay(from);
    freshness[name] = aggregated
      ? { as_of: iso(reach.oldestComputedAt!), source: "daily_aggregate" }
      : { as_of: iso(group.at), source: "live" };
  }
  if (unavailable.length > 0) log.warn("overview figures unavailable", { figures: unavailable, errors });

  const jobCounts = jobs.ok ? jobs.value : null;
  const deliveryCounts = webhooks.ok ? webhooks.value.deliveries.current : null;
  const byState = jobCounts ? complete(JOB_STATES, jobCounts.current) : null;
  const deliveries = deliveryCounts
    ? {
        total: sum(deliveryCounts),
        delivered: deliveryCounts.delivered ?? 0,
        pending: (deliveryCounts.pending ?? 0) + (deliveryCounts.delivering ?? 0),
        failed: deliveryCounts.failed ?? 0,
        dead: deliveryCounts.dead ?? 0,
      }
    : null;
  const endpoints = webhooks.ok ? { active: webhooks.value.endpoints.active ?? 0, disabled: webhooks.value.endpoints.disabled ?? 0 } : null;

  const wallet = quota.ok && quota.value.walletEnabled !== null ? quota.value : null;
  // balance − reserved: what new metered work may still be admitted against.
  const availableMicros = wallet ? wallet.balanceMicros! - wallet.reservedMicros! : 0;
  const walletBody = wallet
    ? {
        enabled: wallet.walletEnabled === 1,
        balance_usd: usd(wallet.balanceMicros!),
        reserved_usd: usd(wallet.reservedMicros!),
        available_usd: usd(availableMicros),
        // The stored month spend counts `spend_month` only: a wallet not charged yet this month has spent 0 in it.
        month_to_date_spend_usd: usd(wallet.spendMonth === new Date(now).toISOString().slice(0, 7) ? wallet.monthSpendMicros! : 0),
        monthly_spend_limit_usd: wallet.monthlySpendLimitMicros === null ? null : usd(wallet.monthlySpendLimitMicros),
        low: availableMicros < (wallet.autoRechargeThresholdMicros ?? LOW_WALLET_DEFAULT_MICROS),
      }
    : null;

  // Attention: derived from the groups above; an item whose source is unavailable cannot be shown.
  const items: OverviewBody["attention"]["items"] = [];
  if (byState && byState.failed > 0)
    items.push({
      kind: "failed_jobs",
      severity: "warning",
      count: byState.failed,
      message: `${plural(byState.failed, "job", "jobs")} failed in the range.`,
    });
  if (deliveries && deliveries.dead > 0)
    items.push({
      kind: "dead_deliveries",
      severity: "warning",
      count: deliveries.dead,
      message: `${plural(deliveries.dead, "webhook delivery", "webhook deliveries")} gave up in the range (replayable).`,
    });
  if (endpoints && endpoints.disabled > 0)
    items.push({
      kind: "disabled_endpoints",
      severity: "critical",
      count: endpoints.disabled,
      message: `${plural(endpoints.disabled, "webhook endpoint is", "webhook endpoints are")} disabled: no events reach them.`,
    });
  if (walletBody?.enabled && walletBody.low)
    items.push({
      kind: "low_wallet",
      severity: availableMicros <= 0 ? "critical" : "warning",
      count: 1,
      message:
        availableMicros <= 0 ? "The wallet has nothing available: new metered work is refused." : "The wallet's available balance is low.",
    });
  if (apiKeys.ok && apiKeys.value > 0)
    items.push({
      kind: "keys_expiring",
      severity: "warning",
      count: apiKeys.value,
      message: `${plural(apiKeys.value, "API key expires", "API keys expire")} within 14 days.`,
    });
  items.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "critical" ? -1 : 1));
  const attentionComplete = jobs.ok && webhooks.ok && quota.ok && apiKeys.ok;
  if (!attentionComplete) unavailable.push("attention.items");

  const terminal = byState ? byState.completed + byState.failed + byState.rejected + byState.canceled + byState.expired : 0;
  const ended = deliveries ? deliveries.delivered + deliveries.failed + deliveries.dead : 0;
  const health = {
    status: (items.some((i) => i.severity === "critical")
      ? "degraded"
      : items.length > 0
        ? "attention"
        : !jobs.ok && !webhooks.ok
          ? "unknown"
          : "ok") as OverviewBody["health"]["status"],
    job_failure_rate: byState && terminal > 0 ? (byState.failed + byState.rejected) / terminal : null,
    delivery_failure_rate: deliveries && ended > 0 ? (deliveries.failed + deliveries.dead) / ended : null,
  };
  if (!jobs.ok) unavailable.push("health.job_failure_rate", "comparison.jobs");
  if (!webhooks.ok) unavailable.push("health.delivery_failure_rate", "comparison.webhook_deliveries");
  if (!outcomes.ok) unavailable.push("comparison.verifications");
  if (!kinds.ok) unavailable.push("comparison.assets");

  const series = activity.ok ? new Map(activity.value.map((row) => [row.bucket, row])) : null;
  return {
    range,
    range_start: iso(w.start),
    range_end: iso(w.end),
    as_of: iso(now),
    activity: series
      ? {
          unit: w.unit,
          buckets: bucketLabels(w.start, w.end, w.unit).map((label) => {
            const row = series.get(label);
            return { start: label, jobs: row?.jobs ?? 0, verifications: row?.verifications ?? 0, assets: row?.assets ?? 0 };
          }),
        }
      : null,
    jobs: byState ? { total: sum(byState), by_state: byState } : null,
    verification_outcomes: outcomes.ok
      ? { total: sum(outcomes.value.current), by_outcome: complete(OUTCOMES, outcomes.value.current) }
      : null,
    media_kinds: kinds.ok ? { total: sum(kinds.value.current), by_kind: kinds.value.current } : null,
    webhooks: deliveries && endpoints ? { deliveries, endpoints } : null,
    quota: quota.ok ? { plan: quota.value.planId, wallet: walletBody } : null,
    governance: governance.ok ? governanceView(governance.value) : null,
    attention: { items, complete: attentionComplete },
    health,
    comparison: {
      previous_range_start: iso(w.previousStart),
      previous_range_end: iso(w.start),
      jobs: change(jobCounts),
      verifications: change(outcomes.ok ? outcomes.value : null),
      assets: change(kinds.ok ? kinds.value : null),
      webhook_deliveries: change(webhooks.ok ? webhooks.value.deliveries : null),
    },
    freshness,
    unavailable,
  };
}

const EXPORT_STATES = ["queued", "running", "completed", "failed", "expired"] as const;

function governanceView(g: GovernanceFlagsRow) {
  const state = EXPORT_STATES.find((s) => s === g.lastExportState);
  return {
    audit_entries: g.auditEntries,
    last_audit_at: iso(g.lastAuditAt),
    legal_holds: { account: g.accountHolds, assets: g.assetHolds },
    deletions_pending: g.deletionsPending,
    last_export: state ? { state, completed_at: iso(g.lastExportCompletedAt) } : null,
  };
}
