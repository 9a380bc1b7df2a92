import { describe, expect, it } from "vitest";
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

describe("overview counts against the rows", () => {
  it("match direct counts exactly after inserts, state changes and deletes, at every range edge", async () => {
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
    for (const id of ids.filter(() => random() < 0.1)) await testEnv.DB.prepare("DELETE FROM jobs WHERE id = ?").bind(id).run();

    const at = now + 1;
    for (const range of ["7d", "30d", "12m"] as const) {
      const o = await computeOverview(testEnv.DB, t.tenantId, range, at);
      const w = windowsOf(range, at);
      const current = await direct(t.tenantId, w.start, w.end);
      const previous = await direct(t.tenantId, w.previousStart, w.start);
      expect(o.unavailable, range).toEqual([]);
      for (const state of STATES)
        expect(o.jobs!.by_state[state as keyof NonNullable<typeof o.jobs>["by_state"]], `${range} ${state}`).toBe(current[state] ?? 0);
      const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
      expect(o.comparison.jobs, range).toMatchObject({ current: total(current), previous: total(previous) });
      expect(
        o.activity!.buckets.reduce((n, b) => n + b.jobs, 0),
        range,
      ).toBe(total(current));
    }
  });
});
