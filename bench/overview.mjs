// `npm run bench:overview`: GET /v1/overview against a tenant with 1,000,000 jobs (and 200,000 verifications,
// 100,000 assets, 50,000 webhook deliveries) spread over 13 months, plus a second tenant with 200,000 jobs that must
// not count. The real Worker bundle runs in bare Miniflare (local D1 = SQLite). Rows are inserted in bulk by
// recursive CTEs inside D1. Prints each range's median and worst time over 5 calls, and the query plans.
import { createHmac, randomBytes } from "node:crypto";
import { startWorker } from "../test/support/worker.ts";

const JOBS = Number(process.env.OVERVIEW_BENCH_JOBS ?? 1_000_000);
const DAY = 86_400_000;
const SPAN = 395 * DAY; // 13 months: 12m and most of its previous range
const pepper = randomBytes(32).toString("base64url");
const worker = await startWorker({
  bindings: {
    SVC_KEY_PEPPER: pepper,
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
  },
});
const now = Date.now();
const key = `svc_live_${"o".repeat(51)}a`;
const tenant = "ten_benchoverviewaa";
await worker.db
  .prepare(
    "INSERT INTO tenants (id, name, status, created_at) VALUES (?, 'bench', 'active', ?), ('ten_benchoverviewbb', 'other', 'active', ?)",
  )
  .bind(tenant, now, now)
  .run();
await worker.db
  .prepare(
    "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES ('key_benchoverviewaa', ?, 'bench', ?, 'svc_live_oooooo', ?, 'active', ?)",
  )
  .bind(tenant, createHmac("sha256", pepper).update(key).digest("hex"), JSON.stringify(["overview:read"]), now)
  .run();

const STATES =
  "json_array('completed','completed','completed','completed','completed','completed','failed','rejected','canceled','queued')";
async function seed(label, sql, ...binds) {
  const started = performance.now();
  await worker.db
    .prepare(sql)
    .bind(...binds)
    .run();
  console.log(`seeded ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const series = (n, from = 0) => `WITH RECURSIVE s(x) AS (SELECT ${from + 1} UNION ALL SELECT x + 1 FROM s WHERE x < ${from + n})`;
// Statements of at most 200,000 rows each: one long statement can outlast the local HTTP bridge's timeout.
const CHUNK = 200_000;
for (const [t, total] of [
  [tenant, JOBS],
  ["ten_benchoverviewbb", 200_000],
])
  for (let from = 0; from < total; from += CHUNK) {
    const n = Math.min(CHUNK, total - from);
    await seed(
      `${n} jobs of ${t} (from ${from})`,
      `${series(n, from)} INSERT INTO jobs (id, tenant_id, asset_id, recipe_id, recipe_version, policy_version, active_plan_revision, kind, mode, state, admitted, created_at, updated_at)
     SELECT 'job_' || ?1 || x, ?1, 'ast_x', 'c2pa-sign', 1, 'p1', 1, 'sign_only', 'standard', json_extract(${STATES}, '$[' || (x % 10) || ']'), '{}',
            ?2 - (x * 7919 % ?3), ?2 FROM s`,
      t,
      now,
      SPAN,
    );
  }
await seed(
  "200000 verifications",
  `${series(200_000)} INSERT INTO verifications (id, tenant_id, subject_type, overall, evidence, created_at, validated_at)
   SELECT 'vfy_' || x, ?1, 'uploaded_object', json_extract(json_array('valid','valid','invalid','indeterminate','recovered'), '$[' || (x % 5) || ']'), '{}', ?2 - (x * 7919 % ?3), ?2 FROM s`,
  tenant,
  now,
  SPAN,
);
await seed(
  "100000 assets",
  `${series(100_000)} INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at)
   SELECT 'ast_' || x, ?1, json_extract(json_array('image','image','image','audio','video'), '$[' || (x % 5) || ']'), 'uploaded', ?2 - (x * 7919 % ?3), ?2 FROM s`,
  tenant,
  now,
  SPAN,
);
await seed(
  "50000 webhook deliveries",
  `${series(50_000)} INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
   SELECT 'whd_' || x, ?1, 'whe_x', 'whevt_' || x, 'asset.signed', json_extract(json_array('delivered','delivered','delivered','dead','failed'), '$[' || (x % 5) || ']'), ?2 - (x * 7919 % ?3), ?2 FROM s`,
  tenant,
  now,
  SPAN,
);
await worker.db.prepare("ANALYZE").run();

async function measure(label) {
  const results = {};
  for (const range of ["7d", "30d", "12m"]) {
    const times = [];
    let body;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await worker.fetch(`/v1/overview?range=${range}`, { headers: { authorization: `Bearer ${key}` } });
      body = await res.json();
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    }
    times.sort((a, b) => a - b);
    results[range] = {
      median_ms: Math.round(times[2]),
      worst_ms: Math.round(times[4]),
      jobs_total: body.jobs?.total,
      source: body.freshness.jobs?.source,
      unavailable: body.unavailable.join(","),
    };
  }
  console.log(label);
  console.table(results);
  return results;
}

const live = await measure("counted from the rows (covering indexes), before any pre-aggregate:");
// The cron sweep's pre-aggregate: scheduled runs until the tenant's aggregate reaches the settle horizon.
const horizon = Math.floor(now / DAY) * DAY - 2 * DAY;
const scheduled = await worker.mf.getWorker();
const sweepStarted = performance.now();
let runs = 0;
for (;;) {
  const row = await worker.db.prepare("SELECT through_day FROM overview_aggregates WHERE tenant_id = ?").bind(tenant).all();
  if ((row.results[0]?.through_day ?? 0) >= horizon || runs > 40) break;
  await scheduled.scheduled({ cron: "*/5 * * * *" });
  runs += 1;
  await new Promise((r) => setTimeout(r, 500));
}
console.log(`pre-aggregate caught up after ${runs} cron runs in ${((performance.now() - sweepStarted) / 1000).toFixed(1)} s`);
const aggregated = await measure("with the daily pre-aggregate:");
// The goal, as a ratio against the baseline measured in this run (the same figures counted from the rows): the
// pre-aggregate must make the longest range at least 4 times cheaper.
const ratio = aggregated["12m"].median_ms / live["12m"].median_ms;
console.log(
  `overview 12m, pre-aggregate vs counting the rows: ${ratio.toFixed(2)}× (goal ≤ 0.25×) ${ratio <= 0.25 ? "PASS" : "MISS"}; exact totals: ${aggregated["12m"].jobs_total === live["12m"].jobs_total ? "PASS" : "MISS"}`,
);

for (const [label, sql] of [
  [
    "jobs",
    "SELECT state AS k, created_at >= 0 AS current, COUNT(*) AS n FROM jobs WHERE tenant_id = 'x' AND created_at >= 0 AND created_at < 1 GROUP BY 1, 2",
  ],
  ["deliveries", "SELECT status, COUNT(*) FROM webhook_deliveries WHERE tenant_id = 'x' AND created_at >= 0 AND created_at < 1 GROUP BY 1"],
]) {
  const plan = await worker.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all();
  console.log(label, plan.results.map((r) => r.detail).join(" | "));
}
await worker.dispose();
