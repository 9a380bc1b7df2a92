import { describe, expect, it } from "vitest";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";
import { seedAsset, seedDelivery, seedEndpoint, seedJob, seedVerification } from "./seed";

const DAY = 86_400_000;

/** Tenant A's records: every figure below is counted from exactly these rows. */
async function seedTenant(tenantId: string, now: number) {
  const current = now - DAY; // inside 7d
  const previous = now - 10 * DAY; // inside the 7d range's previous range [now-14d, now-7d)
  const older = now - 20 * DAY; // inside 30d only
  for (const state of ["completed", "completed", "completed", "failed", "failed", "queued"]) await seedJob(tenantId, state, current);
  for (let i = 0; i < 4; i++) await seedJob(tenantId, "completed", previous);
  await seedJob(tenantId, "failed", older);
  for (const overall of ["valid", "valid", "invalid", "recovered"]) await seedVerification(tenantId, overall, current);
  await seedVerification(tenantId, "valid", previous);
  for (const kind of ["image", "image", "image", "audio"]) await seedAsset(tenantId, kind, current);
  for (const kind of ["video", "video"]) await seedAsset(tenantId, kind, previous);
  const endpoint = await seedEndpoint(tenantId, "active");
  await seedEndpoint(tenantId, "disabled");
  for (const status of ["delivered", "delivered", "delivered", "dead", "pending", "delivering"])
    await seedDelivery(tenantId, endpoint, status, current);
  await seedDelivery(tenantId, endpoint, "failed", previous);
  const month = new Date(now).toISOString().slice(0, 7);
  await testEnv.DB.prepare(
    `INSERT INTO wallets (tenant_id, enabled, balance_micros, reserved_micros, spend_month, month_spend_micros, monthly_spend_limit_micros,
       auto_recharge_enabled, auto_recharge_threshold_micros, auto_recharge_amount_micros, recharge_pending, version, created_at, updated_at)
     VALUES (?, 1, 5000000, 1000000, ?, 2500000, 100000000, 0, NULL, NULL, 0, 1, ?, ?)`,
  )
    .bind(tenantId, month, now, now)
    .run();
  await addKey(tenantId, { expiresAt: now + 3 * DAY }); // expiring soon: counted
  await addKey(tenantId, { expiresAt: now + 30 * DAY }); // not soon
  await addKey(tenantId, { expiresAt: now + 2 * DAY, status: "revoked" }); // revoked: not counted
}

describe("GET /v1/overview", () => {
  it("computes every figure exactly from the tenant's records, never another tenant's", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const now = Date.now();
    await seedTenant(a.tenantId, now);
    // Tenant B has plenty of everything; none of it may show up in A's overview.
    for (let i = 0; i < 5; i++) await seedJob(b.tenantId, "failed", now - DAY);
    await seedVerification(b.tenantId, "invalid", now - DAY);
    await seedAsset(b.tenantId, "video", now - DAY);
    await seedDelivery(b.tenantId, await seedEndpoint(b.tenantId, "disabled"), "dead", now - DAY);
    // One audited write by A.
    expect((await api("/v1/api-keys", { method: "POST", key: a.key, body: { name: "x", scopes: ["identity:read"] } })).status).toBe(201);

    const res = await api("/v1/overview", { key: a.key });
    expect(res.status).toBe(200);
    const o = await json(res);
    expect(o.range).toBe("7d");
    expect(Date.parse(o.range_end) - Date.parse(o.range_start)).toBe(7 * DAY);
    expect(o.as_of).toBe(o.range_end);
    expect(o.unavailable).toEqual([]);
    expect(o.jobs).toEqual({
      total: 6,
      by_state: { accepted: 0, queued: 1, running: 0, cancel_requested: 0, completed: 3, canceled: 0, expired: 0, rejected: 0, failed: 2 },
    });
    expect(o.verification_outcomes).toEqual({ total: 4, by_outcome: { valid: 2, invalid: 1, indeterminate: 0, recovered: 1 } });
    expect(o.media_kinds).toEqual({ total: 4, by_kind: { image: 3, audio: 1 } });
    expect(o.webhooks).toEqual({
      deliveries: { total: 6, delivered: 3, pending: 2, failed: 0, dead: 1 },
      endpoints: { active: 1, disabled: 1 },
    });
    expect(o.quota).toEqual({
      plan: null,
      wallet: {
        enabled: true,
        balance_usd: "5.00",
        reserved_usd: "1.00",
        available_usd: "4.00",
        month_to_date_spend_usd: "2.50",
        monthly_spend_limit_usd: "100.00",
        low: true,
      },
    });
    expect(o.governance.audit_entries).toBe(1);
    expect(Date.parse(o.governance.last_audit_at)).toBeGreaterThanOrEqual(now);
    expect(o.attention.complete).toBe(true);
    expect(o.attention.items.map((i: { kind: string; severity: string; count: number }) => [i.kind, i.severity, i.count])).toEqual([
      ["disabled_endpoints", "critical", 1],
      ["failed_jobs", "warning", 2],
      ["dead_deliveries", "warning", 1],
      ["low_wallet", "warning", 1],
      ["keys_expiring", "warning", 1],
    ]);
    expect(o.health).toEqual({ status: "degraded", job_failure_rate: 0.4, delivery_failure_rate: 0.25 });
    expect(o.comparison).toEqual({
      previous_range_start: new Date(Date.parse(o.range_start) - 7 * DAY).toISOString(),
      previous_range_end: o.range_start,
      jobs: { current: 6, previous: 4, change_ratio: 0.5 },
      verifications: { current: 4, previous: 1, change_ratio: 3 },
      assets: { current: 4, previous: 2, change_ratio: 1 },
      webhook_deliveries: { current: 6, previous: 1, change_ratio: 5 },
    });
    expect(o.activity.unit).toBe("day");
    expect(o.activity.buckets.length).toBeGreaterThanOrEqual(7);
    expect(o.activity.buckets.length).toBeLessThanOrEqual(8);
    const totals = o.activity.buckets.reduce(
      (t: { jobs: number; verifications: number; assets: number }, b: { jobs: number; verifications: number; assets: number }) => ({
        jobs: t.jobs + b.jobs,
        verifications: t.verifications + b.verifications,
        assets: t.assets + b.assets,
      }),
      { jobs: 0, verifications: 0, assets: 0 },
    );
    expect(totals).toEqual({ jobs: 6, verifications: 4, assets: 4 });
    expect(
      o.activity.buckets.find((bucket: { start: string }) => bucket.start === new Date(now - DAY).toISOString().slice(0, 10)),
    ).toMatchObject({
      jobs: 6,
      verifications: 4,
      assets: 4,
    });
    expect(Object.keys(o.freshness).sort()).toEqual(
      ["activity", "api_keys", "governance", "jobs", "media_kinds", "quota", "verification_outcomes", "webhooks"].sort(),
    );
    for (const [figure, entry] of Object.entries(o.freshness) as [string, { as_of: string; source: string }][]) {
      expect(entry.source, figure).toBe("live");
      expect(Date.parse(entry.as_of)).toBeGreaterThanOrEqual(now);
    }
  });

  it("30d and 12m widen the range; the previous range of equal length follows it", async () => {
    const a = await createTenant();
    const now = Date.now();
    await seedTenant(a.tenantId, now);
    const o30 = await json(await api("/v1/overview?range=30d", { key: a.key }));
    expect(o30.range).toBe("30d");
    expect(o30.jobs.total).toBe(11);
    expect(o30.jobs.by_state).toMatchObject({ completed: 7, failed: 3, queued: 1 });
    expect(o30.comparison.jobs).toEqual({ current: 11, previous: 0, change_ratio: null });
    expect(o30.activity.buckets.length).toBeGreaterThanOrEqual(30);
    await seedJob(a.tenantId, "completed", now - 200 * DAY);
    const o12 = await json(await api("/v1/overview?range=12m", { key: a.key }));
    expect(o12.activity.unit).toBe("month");
    expect(o12.activity.buckets.length).toBe(13);
    expect(o12.jobs.total).toBe(12);
  });

  it("a new tenant's overview is all zeros, nothing needs attention, and health is ok", async () => {
    const t = await createTenant();
    const o = await json(await api("/v1/overview?range=7d", { key: t.key }));
    expect(o.jobs.total).toBe(0);
    expect(o.quota).toEqual({ plan: null, wallet: null });
    expect(o.governance).toEqual({
      audit_entries: 0,
      last_audit_at: null,
      legal_holds: { account: 0, assets: 0 },
      deletions_pending: 0,
      last_export: null,
    });
    expect(o.attention).toEqual({ items: [], complete: true });
    expect(o.health).toEqual({ status: "ok", job_failure_rate: null, delivery_failure_rate: null });
    expect(o.unavailable).toEqual([]);
  });
});
