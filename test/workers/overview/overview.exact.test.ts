import { describe, expect, it } from "vitest";
import { sweepOverviewAggregates } from "../../../src/overview/aggregate";
import { resetOverviewAggregate } from "../../../src/overview/repo";
import { computeOverview, windowsOf } from "../../../src/overview/service";
import { createTenant, testEnv } from "../support/helpers";
import { seedJob } from "./seed";

const DAY = 86_400_000;
const STATES = ["accepted", "queued", "running", "cancel_requested", "completed", "canceled", "expired", "rejected", "failed"];

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Jobs by state in [from, to), straight from the rows: what the overview must equal. */
async function direct(tenantId: string, from: number, to: number) {
  const rows = await testEnv.DB.prepare(
    "SELECT state, COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND created_at >= ? AND created_at < ? GROUP BY state",
  )
    .bind(tenantId, from, to)
    .all<{ state: string; n: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.state, r.n]));
}

async function perDay(tenantId: string, from: number, to: number) {
  const rows = await testEnv.DB.prepare(
    "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS d, COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1",
  )
    .bind(tenantId, from, to)
    .all<{ d: string; n: number }>();
  return rows.results;
}

const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

/** Every range's jobs figures, comparison and activity equal direct counts of the rows. */
async function expectExact(tenantId: string, at: number, source: "live" | "daily_aggregate") {
  for (const range of ["7d", "30d", "12m"] as const) {
    const o = await computeOverview(testEnv.DB, tenantId, range, at);
    const w = windowsOf(range, at);
    const current = await direct(tenantId, w.start, w.end);
    const previous = await direct(tenantId, w.previousStart, w.start);
    expect(o.unavailable, range).toEqual([]);
    expect(o.freshness.jobs?.source, range).toBe(source);
    for (const state of STATES)
      expect(o.jobs!.by_state[state as keyof NonNullable<typeof o.jobs>["by_state"]], `${range} ${state}`).toBe(current[state] ?? 0);
    expect(o.comparison.jobs, range).toMatchObject({ current: total(current), previous: total(previous) });
    expect(
      o.activity!.buckets.reduce((n, b) => n + b.jobs, 0),
      range,
    ).toBe(total(current));
    if (range !== "12m")
      for (const { d, n } of await perDay(tenantId, w.start, w.end))
        expect(o.activity!.buckets.find((b) => b.start === d)?.jobs, `${range} ${d}`).toBe(n);
  }
}

describe("overview counts against the rows", () => {
  it("match direct counts exactly, live and through the daily pre-aggregate, at every range edge", async () => {
    const t = await createTenant();
    const random = prng(18);
    const now = Date.now();
    const ids: string[] = [];
    // Jobs over the last 70 days, some exactly at UTC midnights and at the 7d/30d range boundaries.
    const midnight = Math.floor(now / DAY) * DAY;
    const special = [
      midnight,
      midnight - 1,
      midnight - 7 * DAY,
      now - 7 * DAY,
      now - 7 * DAY - 1,
      now - 14 * DAY,
      now - 30 * DAY,
      now - 60 * DAY + 5,
    ];
    for (const at of special) ids.push(await seedJob(t.tenantId, "queued", at));
    for (let i = 0; i < 150; i++)
      ids.push(await seedJob(t.tenantId, STATES[Math.floor(random() * STATES.length)]!, now - Math.floor(random() * 70 * DAY)));
    // Jobs move on and some rows disappear.
    for (const id of ids.filter(() => random() < 0.3))
      await testEnv.DB.prepare("UPDATE jobs SET state = ? WHERE id = ?")
        .bind(STATES[Math.floor(random() * STATES.length)], id)
        .run();
    const deleted = new Set(ids.filter(() => random() < 0.1));
    for (const id of deleted) await testEnv.DB.prepare("DELETE FROM jobs WHERE id = ?").bind(id).run();

    const at = now + 1;
    await expectExact(t.tenantId, at, "live");

    // The cron sweep pre-aggregates settled days (bounded runs until caught up); every figure stays exact.
    while ((await sweepOverviewAggregates(testEnv, at)) > 0);
    const reach = await testEnv.DB.prepare("SELECT through_day FROM overview_aggregates WHERE tenant_id = ?")
      .bind(t.tenantId)
      .first<{ through_day: number }>();
    expect(reach?.through_day).toBe(Math.floor(at / DAY) * DAY - 2 * DAY);
    await expectExact(t.tenantId, at, "daily_aggregate");

    // A change to an aggregated day shows once the tenant's aggregate is rebuilt (resetOverviewAggregate).
    const old = ids.find((id) => !deleted.has(id))!;
    await testEnv.DB.prepare("UPDATE jobs SET state = 'canceled', created_at = ? WHERE id = ?")
      .bind(now - 40 * DAY, old)
      .run();
    await resetOverviewAggregate(testEnv.DB, t.tenantId);
    while ((await sweepOverviewAggregates(testEnv, at)) > 0);
    await expectExact(t.tenantId, at, "daily_aggregate");
  });
});

describe("the overview pre-aggregate sweep", () => {
  it("is bounded: a tenant advances at most 92 days per run, from its oldest row's day, up to two days ago", async () => {
    const t = await createTenant();
    const now = Date.now();
    await seedJob(t.tenantId, "completed", now - 300 * DAY);
    const reach = async () =>
      (
        await testEnv.DB.prepare("SELECT through_day FROM overview_aggregates WHERE tenant_id = ?")
          .bind(t.tenantId)
          .first<{ through_day: number }>()
      )?.through_day;
    const first = Math.floor((now - 300 * DAY) / DAY) * DAY;
    await sweepOverviewAggregates(testEnv, now);
    expect(await reach()).toBe(first + 92 * DAY);
    await sweepOverviewAggregates(testEnv, now);
    expect(await reach()).toBe(first + 184 * DAY);
    while ((await sweepOverviewAggregates(testEnv, now)) > 0);
    expect(await reach()).toBe(Math.floor(now / DAY) * DAY - 2 * DAY);
    const o = await computeOverview(testEnv.DB, t.tenantId, "12m", now + 1);
    expect(o.jobs?.by_state.completed).toBe(1);
    expect(o.freshness.jobs?.source).toBe("daily_aggregate");
  });
});
