import { describe, expect, it } from "vitest";
import { computeOverview } from "../../../src/overview/service";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { seedJob } from "./seed";

/** A D1 whose statements touching `table` fail as a broken database would; every other statement is the real one. */
function failingOn(table: string): D1Database {
  const real = testEnv.DB;
  return new Proxy(real, {
    get(target, property) {
      if (property === "prepare")
        return (query: string) => {
          if (query.includes(table)) throw new Error("D1_ERROR: injected failure");
          return target.prepare(query);
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("overview errors", () => {
  it("answers 422 for a range outside 7d, 30d, 12m", async () => {
    const t = await createTenant();
    for (const range of ["1d", "7D", "", "365d", "12m%20"]) {
      const res = await api(`/v1/overview?range=${range}`, { key: t.key });
      expect(res.status, range).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
  });

  it("a figure group whose query fails is null and named in unavailable, with what it feeds; the others are exact", async () => {
    const t = await createTenant();
    const now = Date.now();
    await seedJob(t.tenantId, "failed", now - 1000);
    const o = await computeOverview(failingOn("webhook_deliveries"), t.tenantId, "7d", now + 1);
    expect(o.webhooks).toBeNull();
    expect(o.unavailable).toEqual(["webhooks", "attention.items", "health.delivery_failure_rate", "comparison.webhook_deliveries"]);
    expect(o.freshness.webhooks).toBeUndefined();
    expect(o.comparison.webhook_deliveries).toBeNull();
    expect(o.health.delivery_failure_rate).toBeNull();
    expect(o.attention.complete).toBe(false);
    // What could be read is still exact.
    expect(o.jobs?.by_state.failed).toBe(1);
    expect(o.attention.items).toEqual([expect.objectContaining({ kind: "failed_jobs", count: 1 })]);

    const jobsDown = await computeOverview(failingOn("FROM jobs"), t.tenantId, "7d", now + 1);
    expect(jobsDown.jobs).toBeNull();
    expect(jobsDown.activity).toBeNull(); // the activity series reads jobs too
    expect(jobsDown.unavailable).toEqual(
      expect.arrayContaining(["jobs", "activity", "health.job_failure_rate", "comparison.jobs", "attention.items"]),
    );
    expect(jobsDown.verification_outcomes).toEqual({ total: 0, by_outcome: { valid: 0, invalid: 0, indeterminate: 0, recovered: 0 } });
  });
});
