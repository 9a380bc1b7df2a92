// `npm run bench`: webhook delivery throughput to a local receiver across 20 endpoints (#19 goal: ≥ 1,000/s), and
// whether each endpoint's concurrency and rate limits still hold, as the receiver sees them. The real Worker
// bundle runs in bare Miniflare (queues, DOs, D1); the receiver is a Node HTTP server verifying every request with
// `standardwebhooks`. Baseline in the same run: the same receiver POSTed to directly from Node, 20 in flight.
import { execFileSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { until, WebhookReceiver } from "../test/support/webhook-receiver.ts";
import { startWorker } from "../test/support/worker.ts";
import { goal } from "./lib/goals.mjs";
import { inspectorTargets, printTable, startProfiles, summarizeProfile } from "./lib/workerd-profile.mjs";

const ENDPOINTS = 20;
/** Events per round, each delivered to all 20 endpoints; 2 rounds stay within the endpoints' 600 a minute. */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 100);
const ROUNDS = 2;
/** The goal as a ratio against its own anchor: 1,000/s where a bare POST from Node ran at 23 × 100/s. */
const WEBHOOK_GOAL_VS_BARE_POST = 2.3;
/**
 * The bulk receivers answer after 2 ms. The receiver counts a request in flight from its body's arrival to its
 * answer; an immediate answer makes that span synchronous code, so it could never count more than 1 (earlier runs
 * printed "max 1 in flight" while the gate granted 20 at once), and the concurrency row would test nothing.
 */
const BULK_ANSWER = () => ({ status: 200, delayMs: 2 });

const receiver = new WebhookReceiver();
await receiver.start();
const pepper = randomBytes(32).toString("base64url");
const worker = await startWorker({
  bindings: {
    SVC_KEY_PEPPER: pepper,
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "1",
  },
  // BENCH_PROFILE=<port>: a CPU profile of workerd over the delivery rounds (diagnostics; slows the rounds).
  inspectorPort: process.env.BENCH_PROFILE ? Number(process.env.BENCH_PROFILE) : undefined,
});
const key = `svc_live_${"b".repeat(51)}a`; // canonical: the last character carries one bit
await worker.db
  .prepare("INSERT INTO tenants (id, name, status, created_at) VALUES ('ten_benchwebhooksaa', 'bench', 'active', ?)")
  .bind(Date.now())
  .run();
await worker.db
  .prepare(
    "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES ('key_benchwebhooksaa', 'ten_benchwebhooksaa', 'bench', ?, 'svc_live_bbbbbb', ?, 'active', ?)",
  )
  .bind(createHmac("sha256", pepper).update(key).digest("hex"), JSON.stringify(["webhooks:read", "webhooks:write"]), Date.now())
  .run();
const svc = {
  worker,
  async call(method, path, options = {}) {
    const headers = { authorization: `Bearer ${key}` };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = randomUUID();
    const res = await worker.fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, text, body };
  },
  dispose: () => worker.dispose(),
};

/**
 * CPU seconds used so far by this process (the receiver and the driver) and by its workerd children (the Worker,
 * its Durable Objects, local D1 and Queues), from /proc: on a machine shared with other work, CPU per delivery is
 * the figure that load inflates least. Null where /proc is not there.
 */
function cpuSeconds() {
  try {
    const ticks = 100; // USER_HZ on Linux
    const children = execFileSync("pgrep", ["-P", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    let workerd = 0;
    for (const pid of children) {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      workerd += (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
    }
    const own = process.cpuUsage();
    return { workerd, node: (own.user + own.system) / 1e6 };
  } catch {
    return null;
  }
}

/**
 * The same receiver POSTed to from a Worker in its own Miniflare (workerd, the same outbound path as the
 * service's deliveries), `inFlight` at once: what the runtime alone costs per request on this machine.
 */
async function bareWorkerdPosts(n, inFlight) {
  const path = "/bare-workerd";
  receiver.route(path, BULK_ANSWER);
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      compatibilityDate: "2026-10-01",
      script: `export default { async fetch(request) {
        const { n, inFlight, url } = await request.json();
        let next = 0;
        await Promise.all(Array.from({ length: inFlight }, async () => {
          while (next < n) {
            next++;
            const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "webhook-id": "b" + next }, body: "{}" });
            await res.arrayBuffer();
          }
        }));
        return new Response("done");
      } }`,
    }),
  );
  try {
    await mf.ready;
    const cpu0 = cpuSeconds();
    const t0 = performance.now();
    await (
      await mf.dispatchFetch("http://bare.local/", { method: "POST", body: JSON.stringify({ n, inFlight, url: receiver.url(path) }) })
    ).text();
    const seconds = (performance.now() - t0) / 1000;
    const cpu1 = cpuSeconds();
    return { rps: n / seconds, cpuMs: cpu0 && cpu1 ? (1000 * (cpu1.workerd - cpu0.workerd)) / n : null };
  } finally {
    await mf.dispose();
  }
}

/**
 * Baseline: the same receiver, POSTed to directly from Node at the same concurrency as one bulk endpoint (20 in
 * flight; no queue, no gate, no D1, no signing): requests per second.
 */
async function directPosts(n = 1000) {
  receiver.route("/direct", BULK_ANSWER);
  let next = 0;
  const b0 = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < n) {
        next++;
        // A connection the receiver closed as it was reused (keep-alive race, under load) is tried once more: a
        // baseline sample is a rate, not a test of the receiver (a run of the A/B died on one).
        for (let tries = 1; ; tries++) {
          try {
            const res = await fetch(receiver.url("/direct"), {
              method: "POST",
              headers: { "content-type": "application/json", "webhook-id": `d${next}` },
              body: "{}",
            });
            await res.arrayBuffer();
            break;
          } catch (error) {
            if (tries >= 3) throw error;
          }
        }
      }
    }),
  );
  return n / ((performance.now() - b0) / 1000);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Registers an endpoint for a receiver path (the receiver gets its secret). */
async function endpointFor(path, body, answer = BULK_ANSWER) {
  const route = receiver.route(path, answer);
  const created = await svc.call("POST", "/v1/webhook-endpoints", {
    body: { url: receiver.url(path), event_catalog_version: "svc.customer-events.v1", ...body },
    idempotencyKey: true,
  });
  if (created.status !== 201) throw new Error(`create endpoint: ${created.status} ${created.text}`);
  route.secrets.push(created.body.secret);
  return { id: created.body.endpoint.endpoint_id, route, body };
}

/** Events written as the outbox writes them (already fanned out: the replays below deliver them). */
async function seedEvents(type, count) {
  const ids = [];
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const id = `whevt_${Array.from(randomBytes(16), (b) => "abcdefghijklmnopqrstuvwxyz234567"[b & 31]).join("")}`;
    const body = JSON.stringify({
      id,
      type,
      event_catalog_version: "svc.customer-events.v1",
      timestamp: new Date(now).toISOString(),
      test: false,
      data: { n: i },
    });
    ids.push({ id, body });
  }
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    await worker.db.batch(
      chunk.map((e) =>
        worker.db
          .prepare(
            "INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) VALUES (?, 'ten_benchwebhooksaa', ?, ?, 0, NULL, ?, ?)",
          )
          .bind(e.id, type, e.body, now, now),
      ),
    );
  }
  return ids.map((e) => e.id);
}

/** What the database says when a round does not finish (endpoint states, delivery statuses, attempt outcomes). */
async function diagnosis() {
  const q = async (sql) => JSON.stringify((await worker.db.prepare(sql).bind().all()).results);
  return `endpoints ${await q("SELECT state, COUNT(*) AS n FROM webhook_endpoints GROUP BY 1")}; deliveries ${await q(
    "SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY 1",
  )}; attempts ${await q("SELECT outcome, error, response_code, COUNT(*) AS n FROM webhook_attempts GROUP BY 1, 2, 3")}`;
}

/** Waits for `done`, or throws with the database's state. */
async function waitFor(done, what) {
  try {
    await until(done, 120_000, what);
  } catch (error) {
    throw new Error(`${error.message}; ${await diagnosis()}`);
  }
}

/** Replays every event through the API (8 requests in flight); each queues one delivery per subscribed endpoint. */
async function replayAll(events, perEvent) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < events.length) {
        const id = events[next++];
        const res = await svc.call("POST", `/v1/webhook-events/${id}/replay`, { idempotencyKey: true });
        if (res.status !== 200 || res.body.delivery_count !== perEvent)
          throw new Error(`replay ${id}: ${res.status} ${res.text}; ${await diagnosis()}`);
      }
    }),
  );
}

/** The most arrivals in any 60 s window at the receiver (sliding over arrival times). */
function maxPerMinute(received) {
  const t = received.map((r) => r.arrivedAt).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i] - t[j] >= 60_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

try {
  const endpoints = [];
  for (let i = 0; i < ENDPOINTS; i++)
    endpoints.push(
      await endpointFor(`/bench-${i}`, {
        events: ["asset.watermarked"],
        max_concurrency: 20,
        rate_limit_per_minute: 600,
        auto_disable_after_failures: 100,
      }),
    );
  const unfinishedNone = async () =>
    (await worker.db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'delivering')").bind().all())
      .results[0].n === 0;
  const received = () => endpoints.reduce((n, e) => n + e.route.received.length, 0);
  const acked = () => endpoints.reduce((n, e) => n + [...e.route.acknowledged.values()].reduce((a, b) => a + b, 0), 0);

  // Rounds: every event replayed through the API, each to all 20 endpoints; a round ends when the receiver has
  // acknowledged every delivery. The first round creates the deliveries, the next starts them again.
  const events = await seedEvents("asset.watermarked", EVENTS);
  // The baseline is taken before, between and after the rounds, and its median used: on a shared machine the load
  // changes from one second to the next, and a single sample after the rounds moved the ratio from 1.4× to 8×
  // with the same code.
  const direct = [await directPosts()];
  const rounds = [];
  let target = 0;
  const cpu0 = cpuSeconds();
  const profiling = process.env.BENCH_PROFILE ? await startProfiles(await inspectorTargets(Number(process.env.BENCH_PROFILE))) : null;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    await replayAll(events, ENDPOINTS);
    const replayed = (performance.now() - t0) / 1000;
    target += events.length * ENDPOINTS;
    await waitFor(() => acked() >= target, `${target} acknowledged deliveries`);
    // A round ends when every delivery is recorded as delivered (a replay leaves unfinished ones alone).
    await waitFor(unfinishedNone, "every delivery recorded");
    rounds.push({ deliveries: events.length * ENDPOINTS, seconds: (performance.now() - t0) / 1000, replayed });
    // Outside the rounds' timing and CPU (cpuSeconds counts workerd, which these POSTs never reach).
    direct.push(await directPosts());
  }
  const cpu1 = cpuSeconds();
  if (profiling) {
    // Per isolate (the Worker, D1, the queue broker, the Durable Objects, ...), then the hottest functions of all.
    const all = new Map();
    let deliveries = 0;
    for (const r of rounds) deliveries += r.deliveries;
    for (const { url, profile } of await profiling.stop()) {
      // BENCH_PROFILE_OUT=<dir>: the raw .cpuprofile of each isolate too (for Chrome DevTools or a script).
      if (process.env.BENCH_PROFILE_OUT)
        writeFileSync(
          join(process.env.BENCH_PROFILE_OUT, `${url.split("/").pop().replaceAll(":", "_")}.cpuprofile`),
          JSON.stringify(profile),
        );
      const summary = summarizeProfile(profile);
      console.log(`profile ${url.split("/").pop()}: ${(summary.busy / deliveries).toFixed(3)} ms per delivery`);
      for (const [k, v] of summary.self) all.set(k, (all.get(k) ?? 0) + v);
    }
    printTable("self time by function, every isolate (ms per delivery)", all, { per: deliveries });
  }
  const unverified = endpoints.flatMap((e) => e.route.received).filter((r) => !r.verifiedWith[0]).length;
  const duplicates = endpoints.reduce((n, e) => n + [...e.route.acknowledged.values()].filter((c) => c > ROUNDS).length, 0);

  // Exactness, measured by the receiver: an endpoint whose concurrency binds (3 in flight, a 40 ms receiver) and
  // one whose rate binds (30 a minute, 45 deliveries queued: 30 arrive, the rest only after the window).
  const tight = await endpointFor("/tight", { events: ["job.failed"], max_concurrency: 3, rate_limit_per_minute: 600 }, () => ({
    status: 200,
    delayMs: 40,
  }));
  const rated = await endpointFor("/rated", { events: ["job.failed"], max_concurrency: 5, rate_limit_per_minute: 30 });
  const exactEvents = await seedEvents("job.failed", 45);
  const e0 = performance.now();
  await replayAll(exactEvents, 2);
  await until(() => rated.route.received.length >= 30 && tight.route.acknowledged.size >= 45, 60_000, "the exactness deliveries");
  await new Promise((r) => setTimeout(r, 3_000)); // nothing more may arrive at the rated endpoint within its minute
  const exactSeconds = (performance.now() - e0) / 1000;

  // The gate's share: time each attempt spent acquiring its lease (recorded by the Worker), against the attempt itself.
  const rows = (await svc.worker.db.prepare("SELECT gate_ms, duration_ms FROM webhook_attempts").bind().all()).results;
  const gate = rows.map((r) => r.gate_ms).sort((a, b) => a - b);
  const attempt = rows.map((r) => r.duration_ms).sort((a, b) => a - b);
  const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

  const directRps = median(direct);
  const bare = await bareWorkerdPosts(2000, ENDPOINTS * 20);

  const total = rounds.reduce((a, r) => a + r.deliveries, 0);
  const seconds = rounds.reduce((a, r) => a + r.seconds, 0);
  const rps = total / seconds;
  console.log(
    `\nWebhook delivery (bench/webhooks.mjs): ${EVENTS} events × ${ENDPOINTS} endpoints per round, replayed through the API; local receiver, every request verified with standardwebhooks`,
  );
  console.log("| round | deliveries | seconds | deliveries/s | replay requests done after (s) |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [i, r] of rounds.entries())
    console.log(
      `| ${i + 1} | ${r.deliveries} | ${r.seconds.toFixed(2)} | ${(r.deliveries / r.seconds).toFixed(1)} | ${r.replayed.toFixed(2)} |`,
    );
  console.log(`| all | ${total} | ${seconds.toFixed(2)} | ${rps.toFixed(1)} | ${rounds.reduce((a, r) => a + r.replayed, 0).toFixed(2)} |`);
  console.log(
    `receiver saw ${received()} requests, ${acked()} acknowledged, ${unverified} failing signature verification, ${duplicates} event(s) acknowledged more than once per round`,
  );
  console.log(
    `baseline: direct POSTs from Node to the same receiver ${directRps.toFixed(0)}/s (20 in flight; median of ${direct.map((r) => r.toFixed(0)).join(", ")} before, between and after the rounds) → delivery pipeline costs ${(directRps / rps).toFixed(2)}× a bare POST`,
  );
  console.log(
    `baseline: bare POSTs from a Worker in the same runtime (workerd, no queue, gate, D1 or signing) ${bare.rps.toFixed(0)}/s (${ENDPOINTS * 20} in flight)` +
      (bare.cpuMs === null ? "" : `, ${bare.cpuMs.toFixed(2)} ms of workerd CPU each`) +
      ` → the ceiling this machine puts on any delivery pipeline in workerd`,
  );
  console.log(
    `DO gate per delivery: mean ${mean(gate).toFixed(2)} ms, p50 ${pct(gate, 0.5)} ms, p99 ${pct(gate, 0.99)} ms; attempt (sign + POST + read) mean ${mean(attempt).toFixed(2)} ms, p50 ${pct(attempt, 0.5)} ms`,
  );
  const cpuPerDelivery = cpu0 && cpu1 ? (1000 * (cpu1.workerd - cpu0.workerd)) / total : null;
  if (cpu0 && cpu1)
    console.log(
      `CPU per delivery over the rounds: workerd (Worker, DOs, D1, Queues) ${cpuPerDelivery.toFixed(2)} ms` +
        (bare.cpuMs ? ` (${(cpuPerDelivery / bare.cpuMs).toFixed(1)}× a bare workerd POST)` : "") +
        `, node (receiver + driver) ${((1000 * (cpu1.node - cpu0.node)) / total).toFixed(2)} ms`,
    );
  const bulkInFlight = Math.max(...endpoints.map((e) => e.route.maxInFlight));
  const bulkPerMinute = Math.max(...endpoints.map((e) => maxPerMinute(e.route.received)));
  const ratedPerMinute = maxPerMinute(rated.route.received);
  console.log(
    `exactness (receiver): bulk endpoints max ${bulkInFlight} in flight (limit 20), max ${bulkPerMinute} in a minute (limit 600); ` +
      `tight endpoint max ${tight.route.maxInFlight} in flight (limit 3) over ${tight.route.received.length} requests; ` +
      `rated endpoint ${rated.route.received.length} of 45 arrived, max ${ratedPerMinute} in a minute (limit 30) over ${exactSeconds.toFixed(1)} s`,
  );
  // On a loaded machine the local receiver drops some connections: those attempts fail and are retried on the schedule.
  const failed = (await worker.db.prepare("SELECT COUNT(*) AS n FROM webhook_attempts WHERE outcome != 'acknowledged'").bind().all())
    .results[0].n;
  console.log(`failed attempts (retried): ${failed}`);
  const complete = acked() === total && unverified === 0;
  goal({
    what: "webhook deliveries to 20 endpoints, end to end (bare Miniflare)",
    figure: `${rps.toFixed(0)}/s, ${(directRps / rps).toFixed(2)}× a bare POST from Node (${directRps.toFixed(0)}/s in this run; bare POSTs from workerd ${bare.rps.toFixed(0)}/s)`,
    // The issue states this row against the same anchor: its 100/s was 23× a bare POST from Node, so its 1,000/s
    // is 2.3× that POST. Judged as that ratio, since absolute rates on this machine are not the machine's.
    goal: `≥ 1,000/s at the issue's scale: ≤ ${WEBHOOK_GOAL_VS_BARE_POST}× a bare POST from Node (the issue's 100/s was 23×)`,
    pass: directRps / rps <= WEBHOOK_GOAL_VS_BARE_POST && complete,
    note:
      `${total} deliveries in ${ROUNDS} rounds of ${EVENTS} events replayed to 20 endpoints; all acknowledged and verified: ${complete ? "yes" : "NO"}` +
      (cpuPerDelivery === null ? "" : `; ${cpuPerDelivery.toFixed(2)} ms of workerd CPU per delivery`),
  });
  goal({
    what: "webhook per-endpoint concurrency and rate still exact (measured by the receiver)",
    figure: `in flight ${bulkInFlight}/20 and ${tight.route.maxInFlight}/3; per minute ${bulkPerMinute}/600 and ${ratedPerMinute}/30`,
    goal: "≤ the limits",
    pass: bulkInFlight <= 20 && tight.route.maxInFlight <= 3 && bulkPerMinute <= 600 && ratedPerMinute <= 30 && ratedPerMinute > 0,
    note: "max concurrent requests and most arrivals in any 60 s window, per endpoint, at the receiver",
  });
} finally {
  await svc.dispose();
  await receiver.stop();
}
